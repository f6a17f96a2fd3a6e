package registry

import (
	"embed"
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/suggest"
	"github.com/agentsctl/agents/profiles"
)

// Builtins returns the built-in profiles in the specification's order,
// each decoded at most once per registry; each call returns fresh copies.
func (r *Registry) Builtins() ([]*profile.AutomationProfile, error) {
	return each(profile.BuiltinNames, r.builtin)
}

// builtin returns a fresh copy of the named built-in. Only the built-ins
// a command asks for are decoded: a lookup by name, which agent hooks make
// on every tool call, decodes one file, not eight.
func (r *Registry) builtin(name string) (*profile.AutomationProfile, error) {
	p, ok := r.builtins[name]
	if !ok {
		var err error
		if p, err = loadBuiltin(r.src.Builtins(), name); err != nil {
			return nil, err
		}
		if r.builtins == nil {
			r.builtins = map[string]*profile.AutomationProfile{}
		}
		r.builtins[name] = p
	}
	return p.Clone(), nil
}

// loadBuiltin decodes the one built-in profile with the given name from
// fsys (builtin/<name>.yaml). From the files embedded in the binary it
// returns the values compiled in beside them, which are what those files
// decode to (a test in package profiles holds them to it), without parsing.
func loadBuiltin(fsys fs.FS, name string) (*profile.AutomationProfile, error) {
	if efs, ok := fsys.(embed.FS); ok && efs == profiles.Builtin {
		if p := profiles.Decoded(name); p != nil {
			return p, nil
		}
	}
	path := "builtin/" + name + ".yaml"
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "built-in profile %s", name)
	}
	p, _, err := profile.DecodeProfile(data, path)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "built-in profile %s", name)
	}
	if p.Name != name {
		return nil, errs.New(errs.KindInternal, "built-in profile %s holds the name %q", path, p.Name)
	}
	return p, nil
}

// Profile returns the built-in or custom profile with the given name. A
// name that is neither a built-in nor a valid namespace/name (a bare word
// included: the built-ins are the only bare names) is invalid input; a
// valid name that is not stored is not found. A name that is not found, or not a name, suggests the nearest
// built-in or stored one.
func (r *Registry) Profile(name string) (*profile.AutomationProfile, error) {
	p, _, err := r.profile(name, false)
	return p, err
}

// profile is Profile; with digest, it also returns the sha256 of the bytes
// a stored profile was read from, where the store keeps them
// (store.StoredDigester), else "".
func (r *Registry) profile(name string, digest bool) (*profile.AutomationProfile, string, error) {
	if profile.IsBuiltinName(name) {
		p, err := r.builtin(name)
		return p, "", err
	}
	if err := CheckProfileName(name); err != nil {
		return nil, "", errs.DidYouMean(err, suggest.Name(name, r.profileCandidates()))
	}
	st, err := r.Store()
	if err != nil {
		return nil, "", err
	}
	var (
		p      *profile.AutomationProfile
		stored string
	)
	if digest {
		p, stored, err = store.GetDigest(r.ctx(), st.Profiles(), name)
	} else {
		p, err = st.Profiles().Get(r.ctx(), name)
	}
	if errs.Is(err, errs.KindNotFound) {
		return nil, "", errs.DidYouMean(err, suggest.Name(name, r.profileCandidates()))
	}
	return p, stored, err
}

// CheckProfileName checks a custom profile name someone typed: anything
// that is not a valid namespace/name is invalid, a single word included
// (the built-ins are the only bare names, and one is most likely a custom
// name without its namespace).
func CheckProfileName(name string) error {
	if lower := strings.ToLower(name); lower != name &&
		(profile.IsBuiltinName(lower) || profile.CheckCustomName(lower) == "") {
		return errs.Invalid("invalid name %q: profile names are lower case", name)
	}
	if !strings.Contains(name, "/") && profile.CheckLabel(name) == "" {
		return errs.Invalid("invalid name %q: it is not a built-in profile, and custom profiles are named namespace/name", name).
			WithHint("the built-in profiles are %s; custom profiles are named namespace/name",
				strings.Join(profile.BuiltinNames, ", "))
	}
	if why := profile.CheckCustomName(name); why != "" {
		return errs.Invalid("invalid name: %s", why).
			WithHint("profile names are built-in names or namespace/name, in lower case")
	}
	return nil
}

// BuiltinConflict is the refusal of a profile that takes a built-in's
// name (a conflict: the built-in names are reserved); file, when not "",
// is the file that names it.
func BuiltinConflict(name, file string) *errs.Error {
	msg := "\"" + name + "\" is a built-in profile and cannot be replaced"
	e := errs.Conflict("%s", msg).WithHint("give the profile a custom name such as acme/%s", name)
	if file != "" {
		e.Problems = []errs.Problem{{File: file, Path: "name", Message: msg + "; give it a custom name such as acme/" + name}}
	}
	return e
}

// profileCandidates are the names a profile name may have meant: the
// built-ins, then the stored custom profiles. A store that cannot be read
// gives the built-ins alone: a suggestion is a courtesy, never a reason
// to fail.
func (r *Registry) profileCandidates() []string {
	names := append([]string(nil), profile.BuiltinNames...)
	if st, err := r.Store(); err == nil {
		custom, _ := st.Profiles().Names(r.ctx(), store.Query{})
		names = append(names, custom...)
	}
	return names
}

// nearestCustom is the stored profile name nearest to name: only custom
// profiles can be removed.
func (r *Registry) nearestCustom(name string) string {
	if s := suggest.Name(name, r.profileCandidates()); !profile.IsBuiltinName(s) {
		return s
	}
	return ""
}

// ListProfiles returns the built-ins q selects (none when q names a
// namespace), in the specification's order, then the stored custom
// profiles q selects, by name. Each stored document that cannot be read
// is a warning; the others still list.
func (r *Registry) ListProfiles(q store.Query) ([]*profile.AutomationProfile, error) {
	var out []*profile.AutomationProfile
	if q.Namespace == "" {
		bs, err := r.Builtins()
		if err != nil {
			return nil, err
		}
		for _, p := range bs {
			if q.Match == nil || q.Match(p.Name) {
				out = append(out, p)
			}
		}
	}
	stored, err := list(r, store.Store.Profiles, q)
	if err != nil {
		return nil, err
	}
	if len(stored) == 0 {
		noneInNamespace(r, store.Store.Profiles, q.Namespace, "profile")
	}
	return append(out, stored...), nil
}

// noneInNamespace warns, when namespace ns holds no document of the
// collection of picks, that it holds none (a mistyped namespace lists
// nothing, which would otherwise look like an empty registry), naming the
// nearest namespace that holds one. A listing emptied by its pattern
// alone is no such case: the namespace holds documents, none of which
// match.
func noneInNamespace[T any](r *Registry, of func(store.Store) store.Docs[T], ns, noun string) {
	if ns == "" {
		return
	}
	st, err := r.Store()
	if err != nil {
		return
	}
	names, err := of(st).Names(r.ctx(), store.Query{})
	if err != nil {
		return
	}
	var spaces []string
	for _, n := range names {
		if s, _, ok := strings.Cut(n, "/"); ok && !slices.Contains(spaces, s) {
			spaces = append(spaces, s)
		}
	}
	if slices.Contains(spaces, ns) {
		return
	}
	msg := fmt.Sprintf("no %s is in namespace %q", noun, ns)
	if near := suggest.Name(ns, spaces); near != "" {
		msg += fmt.Sprintf("; did you mean %q?", near)
	}
	r.warn(msg)
}

// list returns the documents q selects from the collection that of picks
// from the store. Each stored document that cannot be read is a warning;
// the others still list.
func list[T any](r *Registry, of func(store.Store) store.Docs[T], q store.Query) ([]T, error) {
	st, err := r.Store()
	if err != nil {
		return nil, err
	}
	l, err := of(st).List(r.ctx(), q)
	if err != nil {
		return nil, err
	}
	r.skipped(l.Problems)
	return l.Items, nil
}

// skipped warns about each stored document a listing could not read.
func (r *Registry) skipped(problems []errs.Problem) {
	for _, p := range problems {
		r.warn("skipped " + p.String())
	}
}

// AddProfile registers p: a built-in's name is a conflict; without
// update, so is a name already registered. What could not be done after
// the profile was stored (its history line) is a warning, not a failure.
func (r *Registry) AddProfile(p *profile.AutomationProfile, update bool) (store.PutResult[*profile.AutomationProfile], error) {
	if p.IsBuiltin() {
		return store.PutResult[*profile.AutomationProfile]{}, BuiltinConflict(p.Name, "")
	}
	st, err := r.Store()
	if err != nil {
		return store.PutResult[*profile.AutomationProfile]{}, err
	}
	res, err := st.Profiles().Put(r.ctx(), p, update)
	if err != nil {
		return res, err
	}
	r.warn(res.Warnings...)
	r.warnRefused(p)
	return res, nil
}

// warnRefused warns when the pack in force would refuse every decision
// under p (a boundary in enforce mode that p violates) or warn on each
// (one in warn mode). The profile is stored all the same: the pack may
// change, and the person may want it on record; the decisions refuse it
// where it matters. A pack that cannot be loaded is left to the
// decisions, which refuse to decide under it.
func (r *Registry) warnRefused(p *profile.AutomationProfile) {
	l, err := r.Pack()
	if err != nil || !l.Pack.HasPredicates() {
		return
	}
	v := l.Pack.Judge(sp.PolicyContext{Profile: p, Safety: p.Safety})
	for _, j := range v.Violated(sp.ModeEnforce) {
		r.warn(fmt.Sprintf("safety pack %s refuses every decision under %s: boundary %s (enforce mode) is violated: %s (%s)", v.PackID, p.Name, j.BoundaryID, j.Reason, j.Predicate))
	}
	r.warn(v.Warnings()...)
}

// Confirm asks whether to go ahead with a removal. It answers false, and
// no error, when the person declined. A nil Confirm asks nothing: the
// person agreed up front (--yes), to whatever is stored when the removal
// runs; after a question, only the version it was about is removed.
type Confirm func() (bool, error)

// RemoveProfile removes the custom profile name, once confirm agrees, and
// returns what was removed; nil when confirm declined. A built-in is a
// conflict; a name that is not a custom profile's suggests the nearest
// one, before anything is asked.
func (r *Registry) RemoveProfile(name string, confirm Confirm) (*profile.AutomationProfile, error) {
	if profile.IsBuiltinName(name) {
		return nil, errs.Conflict("%q is a built-in profile and cannot be removed", name).
			WithHint("built-in profiles are part of agents; register a custom profile instead")
	}
	return remove(r, store.Store.Profiles, name, CheckProfileName, r.nearestCustom, confirm)
}

// remove removes name from the collection that of picks from the store,
// once confirm agrees, and returns what was removed: the zero value when
// confirm declined. A name check refuses (before anything is asked), or
// that the collection does not hold, suggests the nearest by near.
func remove[T any](r *Registry, of func(store.Store) store.Docs[T], name string, check func(string) error, near func(string) string, confirm Confirm) (T, error) {
	var none T
	if err := check(name); err != nil {
		return none, errs.DidYouMean(err, near(name))
	}
	st, err := r.Store()
	if err != nil {
		return none, err
	}
	// A name that is not there is said before anything is asked: a
	// question (or, without a terminal, a refusal to ask) about something
	// that does not exist misleads. A stored file that does not decode
	// can still be removed.
	shown, err := of(st).Get(r.ctx(), name)
	if errs.Is(err, errs.KindNotFound) {
		return none, errs.DidYouMean(err, near(name))
	}
	if confirm == nil {
		// Agreed to before anything was shown: whatever is stored goes.
		return removeNow(r, of(st), name, near)
	}
	if ok, err := confirm(); !ok || err != nil {
		return none, err
	}
	if err == nil {
		// A question can wait a long time for its answer: what is removed
		// must be what it asked about, not a version written meanwhile.
		if now, nerr := of(st).Get(r.ctx(), name); nerr != nil && !errs.Is(nerr, errs.KindNotFound) || nerr == nil && !reflect.DeepEqual(now, shown) {
			return none, errs.Conflict("%s changed while its removal was waiting for an answer; nothing was removed", name).
				WithHint("look at the version stored now, and remove it again if it should go")
		}
	}
	return removeNow(r, of(st), name, near)
}

// removeNow removes name from docs and returns what was removed.
func removeNow[T any](r *Registry, docs store.Docs[T], name string, near func(string) string) (T, error) {
	var none T
	res, err := docs.Remove(r.ctx(), name)
	if errs.Is(err, errs.KindNotFound) {
		return none, errs.DidYouMean(err, near(name))
	}
	if err != nil {
		return none, err
	}
	// The document is gone; what could not be done after that is told,
	// not failed on.
	r.warn(res.Warnings...)
	return res.Removed, nil
}

// ProfileHistory returns every version of the named profile the store has
// written, oldest first, marking the one in the store now; a built-in has
// one version, the one compiled into agents. builtin says which it is. A
// name the store never held suggests the nearest one.
func (r *Registry) ProfileHistory(name string) (versions []profile.Version, builtin bool, err error) {
	if profile.IsBuiltinName(name) {
		p, err := r.Profile(name)
		if err != nil {
			return nil, false, err
		}
		digest, err := profile.Digest(p)
		if err != nil {
			return nil, false, errs.Wrap(errs.KindInternal, err, "built-in profile %s", name)
		}
		return []profile.Version{{Digest: digest, Event: "built-in", Current: true}}, true, nil
	}
	if err := CheckProfileName(name); err != nil {
		return nil, false, errs.DidYouMean(err, suggest.Name(name, r.profileCandidates()))
	}
	st, err := r.Store()
	if err != nil {
		return nil, false, err
	}
	entries, err := st.Profiles().History(r.ctx(), name)
	if errs.Is(err, errs.KindNotFound) {
		return nil, false, errs.DidYouMean(err, suggest.Name(name, r.profileCandidates()))
	}
	if err != nil {
		return nil, false, err
	}
	current := ""
	if p, err := st.Profiles().Get(r.ctx(), name); err == nil {
		if d, err := profile.Digest(p); err == nil {
			current = d
		}
	} else if !errs.Is(err, errs.KindNotFound) {
		return nil, false, err
	}
	// The version in the store now is the last put of its digest, if the
	// profile was not removed after it.
	last := -1
	for i, e := range entries {
		if e.Event == store.EventPut && e.Digest == current {
			last = i
		}
	}
	versions = []profile.Version{}
	for i, e := range entries {
		t := e.Time
		versions = append(versions, profile.Version{Digest: e.Digest, Time: &t, Event: e.Event, Current: i == last})
	}
	return versions, false, nil
}

// ProfilesNamed returns the profiles with the given names, in order, or
// the built-ins, in the specification's order, when names is empty.
func (r *Registry) ProfilesNamed(names []string) ([]*profile.AutomationProfile, error) {
	if len(names) == 0 {
		return r.Builtins()
	}
	return each(names, r.Profile)
}
