// Package store keeps the registry of custom automation profiles (and, as
// they arrive, actions, plans and profile history). Store is the interface
// the commands use; the file store is the default implementation. The
// interface speaks of profiles, conflicts and not-found, never of paths or
// locks, so other backends can stand behind it.
package store

import (
	"context"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

// ProfileQuery selects custom profiles by name before any is parsed.
type ProfileQuery struct {
	// Namespace keeps only names in this namespace when not empty.
	Namespace string
	// Match keeps only names for which it returns true when not nil.
	Match func(name string) bool
	// Progress, when not nil, is told how many of the selected profiles
	// have been read so far, out of how many, as the listing goes; a
	// command uses it to show progress on a large store.
	Progress func(done, total int)
}

// ProfileList is the result of listing: the profiles that parsed, sorted by
// name, and a problem for each stored file that did not.
type ProfileList struct {
	Profiles []*profile.AutomationProfile
	Problems []errs.Problem
}

// PutResult says what a put did.
type PutResult struct {
	// Replaced is the previous version when the put replaced one.
	Replaced *profile.AutomationProfile
}

// Store is a registry of custom automation profiles. Built-in profiles are
// not in it. Errors are *errs.Error: KindNotFound, KindConflict, KindInvalid
// (a bad name), KindLocked (a mutation could not take the lock in time).
type Store interface {
	// GetProfile returns the custom profile with the given name.
	GetProfile(ctx context.Context, name string) (*profile.AutomationProfile, error)
	// ListProfiles returns the custom profiles selected by q, by name.
	ListProfiles(ctx context.Context, q ProfileQuery) (ProfileList, error)
	// PutProfile stores p. Without update, an existing name is a conflict.
	PutProfile(ctx context.Context, p *profile.AutomationProfile, update bool) (PutResult, error)
	// RemoveProfile deletes the named profile and returns what was removed.
	RemoveProfile(ctx context.Context, name string) (*profile.AutomationProfile, error)
}
