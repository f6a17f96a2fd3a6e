// Package store keeps the registry of custom automation profiles, actions
// and plans, every profile version ever written, and
// the content-addressed objects those versions are kept as. Store is the
// interface the commands use; the file store is the default implementation
// and the in-memory store the reference both are held to by the shared
// conformance suite in storetest. The interface speaks of profiles,
// versions, conflicts and not-found, never of paths or locks, so other
// backends can stand behind it.
package store

import (
	"context"
	"crypto/sha256"
	"time"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
)

// ProfileQuery selects custom profiles by name before any is parsed, so a
// filtered listing costs only the profiles it returns.
type ProfileQuery struct {
	// Namespace keeps only names in this namespace when not empty. It must
	// be a valid namespace label.
	Namespace string
	// Match keeps only names for which it returns true when not nil.
	Match func(name string) bool
	// Progress, when not nil, is told how many of the selected profiles
	// ListProfiles has read so far, out of how many, as it goes; a command
	// uses it to show progress on a large store. Calls never overlap, and
	// it must not call the store.
	Progress func(done, total int)
}

// ProfileList is the result of listing: the profiles that parsed, sorted by
// name, and the problems of each stored file that did not (or whose name
// does not match its place in the store). Problems never hide the others.
type ProfileList struct {
	Profiles []*profile.AutomationProfile
	Problems []errs.Problem
}

// PutResult says what a put did.
type PutResult struct {
	// Stored is the profile as stored: what a later get returns. It is the
	// given profile after one trip through the canonical encoding.
	Stored *profile.AutomationProfile
	// Replaced is the previous version when the put replaced a readable one,
	// else nil.
	Replaced *profile.AutomationProfile
	// Digest is the sha256 (lower-case hex) of the canonical YAML of the
	// stored version, under which it is kept as an object.
	Digest string
	// Unchanged reports an update whose content is what is stored
	// already: nothing was written, and the history has no new entry.
	Unchanged bool
	// Warnings say what could not be done after the profile was stored:
	// its history line not written (a full disk, a file size limit), which
	// the next change of the name writes. The put took effect.
	Warnings []string
}

// RemoveResult says what a remove did.
type RemoveResult struct {
	// Removed is the profile as it was stored.
	Removed *profile.AutomationProfile
	// Warnings say what could not be done after the profile was removed,
	// as for PutResult. The remove took effect.
	Warnings []string
}

// The events a history entry records.
const (
	EventPut    = "put"
	EventRemove = "remove"
)

// HistoryEntry is one event in a profile's history: a version put, or the
// profile removed (Digest then names the version removed).
type HistoryEntry struct {
	Digest string    `json:"digest"`
	Time   time.Time `json:"time"`
	Event  string    `json:"event"`
}

// Store is a registry of custom automation profiles, actions, plans and
// content-addressed objects. Built-in profiles are not in it. Errors are *errs.Error:
// KindNotFound, KindConflict, KindInvalid (a bad name or digest, a stored
// file that does not parse), KindLocked (a mutation could not take the lock
// in time), KindInterrupted (the context ended while waiting), KindInternal.
// Values returned are the caller's own: changing them changes nothing stored.
type Store interface {
	// GetProfile returns the custom profile with the given name.
	GetProfile(ctx context.Context, name string) (*profile.AutomationProfile, error)
	// ListProfiles returns the custom profiles selected by q, sorted by name,
	// parsing only those selected.
	ListProfiles(ctx context.Context, q ProfileQuery) (ProfileList, error)
	// ListProfileNames returns the names of the custom profiles selected by
	// q, sorted, without parsing any.
	ListProfileNames(ctx context.Context, q ProfileQuery) ([]string, error)
	// PutProfile stores p and records the version in its history. Without
	// update, an existing name is a conflict. With update, a stored file that
	// does not parse is replaced (Replaced is then nil), and content equal
	// to what is stored writes nothing (Unchanged).
	PutProfile(ctx context.Context, p *profile.AutomationProfile, update bool) (PutResult, error)
	// RemoveProfile deletes the named profile, records the removal in its
	// history, and returns what was removed. Its versions stay as objects.
	RemoveProfile(ctx context.Context, name string) (RemoveResult, error)
	// ProfileHistory returns the events of the named profile, oldest first.
	// A name the store has never held is not found.
	ProfileHistory(ctx context.Context, name string) ([]HistoryEntry, error)
	// PutObject stores data under its sha256 and returns the digest. Storing
	// the same data again changes nothing.
	PutObject(ctx context.Context, data []byte) (digest string, err error)
	// HasObject reports whether an object with the digest is stored.
	HasObject(ctx context.Context, digest string) (bool, error)
	// GetObject returns the object with the digest.
	GetObject(ctx context.Context, digest string) ([]byte, error)
	// Check returns warnings about the store's safety (a store directory
	// that others can write to); the caller decides how to show them.
	Check(ctx context.Context) (warnings []string, err error)

	// GetAction returns the action with the given name.
	GetAction(ctx context.Context, name string) (*action.Action, error)
	// ListActions returns the actions selected by q, sorted by name,
	// parsing only those selected.
	ListActions(ctx context.Context, q ActionQuery) (ActionList, error)
	// ListActionNames returns the names of the actions selected by q,
	// sorted, without parsing any.
	ListActionNames(ctx context.Context, q ActionQuery) ([]string, error)
	// PutAction stores a. Without update, an existing name is a conflict;
	// with update, a stored file that does not parse is replaced.
	PutAction(ctx context.Context, a *action.Action, update bool) (ActionPutResult, error)
	// RemoveAction deletes the named action and returns what was removed.
	RemoveAction(ctx context.Context, name string) (*action.Action, error)

	// GetPlan returns the plan with the given id.
	GetPlan(ctx context.Context, id string) (*plan.Plan, error)
	// ListPlans returns every plan in creation order (the order of their
	// ids) and the problems of stored files that do not parse.
	ListPlans(ctx context.Context) (PlanList, error)
	// ListPlanIDs returns the ids of the stored plans in creation order,
	// without parsing any.
	ListPlanIDs(ctx context.Context) ([]string, error)
	// PutPlan stores p and returns it as stored. Without update, an
	// existing id is a conflict.
	PutPlan(ctx context.Context, p *plan.Plan, update bool) (*plan.Plan, error)
}

// CheckDigest returns an invalid-input error unless d is a lower-case hex
// sha256.
func CheckDigest(d string) error {
	ok := len(d) == sha256.Size*2
	for i := 0; ok && i < len(d); i++ {
		c := d[i]
		ok = '0' <= c && c <= '9' || 'a' <= c && c <= 'f'
	}
	if !ok {
		return errs.Invalid("invalid digest %q: must be 64 lower-case hexadecimal digits (a sha256)", d)
	}
	return nil
}

func (q ProfileQuery) check() error {
	if q.Namespace == "" {
		return nil
	}
	if why := profile.CheckLabel(q.Namespace); why != "" {
		return errs.Invalid("invalid namespace %q: %s", q.Namespace, why)
	}
	return nil
}

func (q ProfileQuery) filter() nameFilter {
	return nameFilter{namespace: q.Namespace, match: q.Match, progress: q.Progress}
}

// nameFilter selects names of any namespaced kind of document. progress,
// when not nil, is told how many of the selected documents a listing has
// read, one call at a time.
type nameFilter struct {
	namespace string
	match     func(name string) bool
	progress  func(done, total int)
}

func (f nameFilter) keep(name string) bool {
	if f.namespace != "" && profile.NamespaceOf(name) != f.namespace {
		return false
	}
	return f.match == nil || f.match(name)
}

func profileNotFound(name string) error {
	return errs.NotFound("profile %q not found", name).
		WithHint("run 'agents automation-profile list' to see the profiles")
}

func profileConflict(name string) error {
	return errs.Conflict("profile %q already exists", name).
		WithHint("pass --update to replace it")
}

func objectNotFound(digest string) error {
	return errs.NotFound("object %s not found", digest)
}

// MaxObjectSize is the largest object the store keeps: room for a plan's
// snapshots of several profiles, and a bound on what a read may allocate.
const MaxObjectSize = 16 << 20

func objectTooLarge(n int) error {
	return errs.Invalid("object of %d bytes is over the %d-byte limit", n, MaxObjectSize)
}

// interrupted reports a context that ended before the store could act.
func interrupted(err error) error {
	return errs.Wrap(errs.KindInterrupted, err, "store operation interrupted")
}
