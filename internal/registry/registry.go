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
	"io/fs"
	"os"
	"time"

	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/profile"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/store"
)

// Sources are where a registry reads and writes. Each is asked when first
// needed, so that a command that needs no store opens none. The command
// line implements them over its own configuration; Funcs does from plain
// values, for tests and tools.
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

// Funcs are Sources from functions and values; a nil function gives the
// default its method names.
type Funcs struct {
	StoreFunc  func() (store.Store, error) // no store: an empty in-memory one
	FS         fs.FS                       // no built-ins: none
	HomeFunc   func() string               // none: ""
	GlobalFunc func() (*config.Global, error)
	// UnratifiedFunc: none lets no unratified pack load.
	UnratifiedFunc func() (bool, []string)
	System         string
	LockHomeFunc   func(ctx context.Context) (func(), error) // none: no lock
	NowFunc        func() time.Time                          // none: time.Now
	ContextFunc    func() context.Context                    // none: context.Background
	GetwdFunc      func() (string, error)                    // none: os.Getwd
}

// Store implements Sources.
func (f Funcs) Store() (store.Store, error) {
	if f.StoreFunc == nil {
		return store.NewMemory(), nil
	}
	return f.StoreFunc()
}

// Builtins implements Sources.
func (f Funcs) Builtins() fs.FS { return f.FS }

// Home implements Sources.
func (f Funcs) Home() string {
	if f.HomeFunc == nil {
		return ""
	}
	return f.HomeFunc()
}

// Global implements Sources: config.yaml in the home, read at every call.
func (f Funcs) Global() (*config.Global, error) {
	if f.GlobalFunc == nil {
		return config.LoadGlobal(f.Home())
	}
	return f.GlobalFunc()
}

// Unratified implements Sources.
func (f Funcs) Unratified() (bool, []string) {
	if f.UnratifiedFunc == nil {
		return false, nil
	}
	return f.UnratifiedFunc()
}

// SystemDir implements Sources.
func (f Funcs) SystemDir() string { return f.System }

// LockHome implements Sources.
func (f Funcs) LockHome(ctx context.Context) (func(), error) {
	if f.LockHomeFunc == nil {
		return func() {}, nil
	}
	return f.LockHomeFunc(ctx)
}

// Now implements Sources.
func (f Funcs) Now() time.Time {
	if f.NowFunc == nil {
		return time.Now()
	}
	return f.NowFunc()
}

// Context implements Sources.
func (f Funcs) Context() context.Context {
	if f.ContextFunc == nil {
		return context.Background()
	}
	return f.ContextFunc()
}

// Getwd implements Sources.
func (f Funcs) Getwd() (string, error) {
	if f.GetwdFunc == nil {
		return os.Getwd()
	}
	return f.GetwdFunc()
}

// Registry runs the use cases of one invocation. It is not safe for
// concurrent use.
type Registry struct {
	src      Sources
	st       store.Store
	builtins map[string]*profile.AutomationProfile // decoded so far, by name
	pack     *sp.Loaded                            // the pack in force, once loaded
	warnings []string
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

func (r *Registry) ctx() context.Context { return r.src.Context() }

func (r *Registry) now() time.Time { return r.src.Now() }

// Home returns the agents home.
func (r *Registry) Home() string { return r.src.Home() }

// Store returns the store, opened on first use. A store that others can
// write to is a store others can loosen: its check's warnings are given
// once, when it is opened.
func (r *Registry) Store() (store.Store, error) {
	if r.st != nil {
		return r.st, nil
	}
	st, err := r.src.Store()
	if err != nil {
		return nil, err
	}
	if ws, err := st.Check(r.ctx()); err == nil {
		r.warn(ws...)
	}
	r.st = st
	return st, nil
}

// Global returns the home's config.yaml.
func (r *Registry) Global() (*config.Global, error) { return r.src.Global() }

// Reset drops what was read under an earlier configuration: the pack in
// force is loaded again when next needed.
func (r *Registry) Reset() { r.pack = nil }
