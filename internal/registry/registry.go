// Package registry is what agents does, apart from its command line: the
// use cases between the commands and the domain. Profiles by name,
// built-in or stored, added and removed with their history; actions;
// plans resolved, recorded, shown with their drift and re-resolved; what a
// decision is taken under, and the pack's verdict on it; the pack in force
// and the safety evidence it is checked against; the projects a hook
// trusts.
//
// A Registry is built once per process, from the store, the embedded
// built-ins, the home, the clock and the decisions the command line took
// from the environment (Sources), and every command runs through it: the
// command parses its flags, makes one call here, and renders the answer.
// It prints nothing: warnings are kept, in the order they arose, for the
// caller to take (Warnings). It never names a flag or a command.
package registry

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/store"
)

// Sources are where a registry reads and writes. Each is asked when first
// needed, so that a command that needs no store opens none. The command
// line implements them over its own configuration.
type Sources interface {
	// Store opens the store. The registry asks it once, and checks the
	// store's own safety then (its warnings are the registry's).
	Store() (store.Store, error)
	// Builtins holds the built-in profiles as builtin/<name>.yaml.
	Builtins() fs.FS
	// Home returns the agents home: config.yaml, the configured packs.
	Home() string
	// Global returns the home's config.yaml, decoded strictly (as read
	// once by the command line); an empty configuration when there is
	// none.
	Global() (*config.Global, error)
	// Unratified decides, when the pack in force is first loaded, whether
	// a pack whose seal does not verify may load (the development
	// override), with the warnings that decision owes the user.
	Unratified() (allow bool, warnings []string)
	// SystemDir is the folder of the system level ("" for none).
	SystemDir() string
	// LockHome takes the lock of the home for a change of config.yaml.
	LockHome(ctx context.Context) (unlock func(), err error)
	// Now is the clock.
	Now() time.Time
	// Context is the command's context.
	Context() context.Context
	// Getwd returns the working directory, where a project's agents.yaml
	// is looked for.
	Getwd() (string, error)
}

// Registry runs the use cases of one invocation. It is not safe for
// concurrent use.
type Registry struct {
	src      Sources
	st       store.Store
	builtins map[string]*profile.AutomationProfile // decoded so far, by name
	pack     *sp.Loaded                            // the pack in force, once loaded
	// readPlans are the plans read so far, by id, as read and with the
	// digest of the bytes they were read from (see vouched).
	readPlans map[string]readPlan
	// settled is set once the store has been asked to settle (see
	// inStep): one wait for a writer is enough for a process, however
	// many documents it then finds out of step.
	settled  bool
	warnings []string
	// untrusted are the store's warnings so far: whoever they name could
	// have changed what the store holds, so no decision is taken from it.
	untrusted []store.Warning
	// doubted is set once the doubt about a missing config.yaml is given.
	doubted bool
}

// New returns a registry reading and writing through src.
func New(src Sources) *Registry { return &Registry{src: src} }

// Warnings returns the warnings the use cases gave since the last call, in
// the order they arose, and forgets them.
func (r *Registry) Warnings() []string {
	w := r.warnings
	r.warnings = nil
	return w
}

func (r *Registry) warn(ws ...string) { r.warnings = append(r.warnings, ws...) }

// distrust gives warnings about who may write the store: warnings for a
// command that shows or lists, a refusal for one that decides (see
// trusted).
func (r *Registry) distrust(ws ...store.Warning) {
	r.warnStore(ws...)
	r.untrusted = append(r.untrusted, ws...)
}

// warnStore gives the store's warnings as warnings only.
func (r *Registry) warnStore(ws ...store.Warning) {
	for _, w := range ws {
		r.warn(w.Message)
	}
}

// trusted refuses a decision, or a plan about to be recorded, when what it
// read from the store could have been written by someone other than the
// user running agents: a store folder or file that is world-writable,
// another user's or writable by a group other than the user's private one,
// or a store whose permissions could not be checked. At an
// enforcement point what cannot be proven counts as absent, and a profile
// another user could have rewritten proves nothing. The store's warnings
// become the refusal's problems (and are not also given as warnings).
func (r *Registry) trusted() error {
	if len(r.untrusted) == 0 {
		return nil
	}
	problems := make([]errs.Problem, len(r.untrusted))
	for i, w := range r.untrusted {
		problems[i] = errs.Problem{File: w.Where, Message: w.Message}
		if j := slices.Index(r.warnings, w.Message); j >= 0 {
			r.warnings = slices.Delete(r.warnings, j, j+1)
		}
	}
	msg := "refusing to decide from a store that another user could have changed"
	if len(problems) == 1 {
		msg += ": " + problems[0].Message
	} else {
		msg += fmt.Sprintf(" (%d problems)", len(problems))
	}
	e := &errs.Error{Kind: errs.KindInvalid, Msg: msg, Problems: problems}
	return e.WithHint("make every folder and file of the store yours and not writable by others (chown, chmod go-w), then decide again; until then nothing is decided from it")
}

func (r *Registry) ctx() context.Context { return r.src.Context() }

func (r *Registry) now() time.Time { return r.src.Now() }

// Home returns the agents home.
func (r *Registry) Home() string { return r.src.Home() }

// Store returns the store, opened on first use. A store that others can
// write to is a store others can loosen. Its check's warnings are given
// once, when it is opened, and for a store that checks who may write it
// (store.LazyChecker: the file store, whose profile namespaces are checked
// when first read or written), when it comes to them; those warnings, and
// a failure to check, also refuse every decision (see trusted). Any other
// store's warnings (the PostgreSQL store's about an unencrypted
// connection) are warnings only.
func (r *Registry) Store() (store.Store, error) {
	if r.st != nil {
		return r.st, nil
	}
	st, err := r.src.Store()
	if err != nil {
		return nil, err
	}
	check, give := st.Check, r.warnStore
	if lc, ok := st.(store.LazyChecker); ok {
		check = func(ctx context.Context) ([]store.Warning, error) {
			return lc.CheckLazily(ctx, func(w store.Warning) { r.distrust(w) })
		}
		give = r.distrust
	}
	ws, err := check(r.ctx())
	if err != nil {
		// Never a silence: whoever can write the store can loosen it.
		ws = []store.Warning{{Message: fmt.Sprintf("cannot check who may write the store: %v", err)}}
	}
	give(ws...)
	r.st = st
	return st, nil
}

// Global returns the home's config.yaml.
//
// A home with no config.yaml that someone else could have removed it from
// is distrusted as a store others can write is: a warning for a command
// that shows or lists, a refusal for one that decides.
func (r *Registry) Global() (*config.Global, error) {
	g, err := r.src.Global()
	if err == nil && g.Doubt != "" && !r.doubted {
		r.doubted = true
		r.distrust(store.Warning{Where: config.GlobalPath(r.Home()), Message: g.Doubt})
	}
	return g, err
}

// Reset drops what was read under an earlier configuration: the pack in
// force is loaded again when next needed.
func (r *Registry) Reset() { r.pack = nil }

// each returns what f makes of every one of in, in order, or f's first
// error.
func each[T, U any](in []T, f func(T) (U, error)) ([]U, error) {
	out := make([]U, 0, len(in))
	for _, v := range in {
		u, err := f(v)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, nil
}
