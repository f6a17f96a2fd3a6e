// Package cmdutil holds what every command group shares: the Deps value that
// carries streams, configuration and the store into run functions, and small
// helpers for flags and errors. It is a leaf package, so the root command can
// import every group without a cycle.
package cmdutil

import (
	"context"
	"fmt"
	"io/fs"
	"time"

	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/store"
)

// Config is the resolved configuration of one invocation.
type Config struct {
	// Home is the agents home directory (store, config.yaml, packs).
	Home string
	// Format is the output format name.
	Format string
	// LockTimeout bounds how long a mutation waits for the store lock.
	LockTimeout time.Duration
	// Store is the store URL (--store, AGENTS_STORE, store: in
	// config.yaml); "" is the file store in Home. It may hold a password:
	// show it only through storeurl.Redact.
	Store string
	// Quiet suppresses progress and informational messages on stderr.
	Quiet bool
	// GlobalData is the content of the home's config.yaml as read (and
	// checked to be trusted) while resolving this configuration, nil when
	// there is none; GlobalRead says it was read. The policy settings are
	// decoded from it, so the file is read once.
	GlobalData []byte
	GlobalRead bool
	// Global is config.yaml decoded, when the root command has decoded
	// it; nil otherwise.
	Global *config.Global
}

// Deps are the dependencies of every command, built once in cli.Main (or by
// a test) and passed to each command constructor.
type Deps struct {
	IO       *iostreams.IOStreams
	Builtins fs.FS
	Now      func() time.Time
	Getenv   func(string) string
	// Context is cancelled when the user interrupts the command.
	Context context.Context

	// Config is filled in by the root command before any verb runs.
	Config Config
	// ResolveConfig works Config out from flags, environment and
	// config.yaml. The root command sets it, so that code which runs
	// without the root's pre-run hook (shell completion) can still reach
	// the right store; see EnsureConfig.
	ResolveConfig func() (Config, error)
	configured    bool

	// OpenStore opens the store Config names (Config.Store, else the file
	// store at Config.Home). Set by Main; tests may replace it.
	OpenStore func(cfg Config) (store.Store, error)
	store     store.Store
	builtins  map[string]*profile.AutomationProfile // decoded so far, by name
	// silent drops warnings and information, for shell completion, whose
	// stderr nobody reads.
	silent bool

	// HookMode is set when the command answers an agent's hook: every
	// failure then blocks, and nothing that loosens a check for a person
	// at a terminal applies.
	HookMode bool
	global   *config.Global // config.yaml, once read
	pack     *sp.Loaded     // the pack in force, once loaded
}

// silently runs fn with warnings and information dropped.
func (d *Deps) silently(fn func()) {
	old := d.silent
	d.silent = true
	defer func() { d.silent = old }()
	fn()
}

// SetConfig records the resolved configuration.
// What was read under an earlier configuration is dropped.
func (d *Deps) SetConfig(cfg Config) {
	d.Config = cfg
	d.configured = true
	d.global, d.pack = nil, nil
}

// EnsureConfig resolves the configuration if nothing has yet. Cobra's hidden
// completion command skips the root's pre-run hook, which is where the
// configuration is normally resolved and where a broken one stops the
// command; without this, completion would read the store of an empty home
// rather than the one --home or AGENTS_HOME names. Completion needs only
// the home, so a configuration whose other settings are broken still gives
// it one; the error is returned only when no home could be found.
func (d *Deps) EnsureConfig() error {
	if d.configured || d.ResolveConfig == nil {
		return nil
	}
	cfg, err := d.ResolveConfig()
	if err != nil && cfg.Home == "" {
		return err
	}
	d.SetConfig(cfg)
	return nil
}

// Store returns the store, opening it on first use.
func (d *Deps) Store() (store.Store, error) {
	if d.store != nil {
		return d.store, nil
	}
	if err := d.EnsureConfig(); err != nil {
		return nil, err
	}
	s, err := d.OpenStore(d.Config)
	if err != nil {
		return nil, err
	}
	// A store that others can write to is a store others can loosen.
	if warnings, err := s.Check(d.Ctx()); err == nil {
		for _, w := range warnings {
			d.Warn("%s", w)
		}
	}
	d.store = s
	return s, nil
}

// CloseStore closes the store, if one was opened and it holds anything
// to close (a database connection).
func (d *Deps) CloseStore() {
	if c, ok := d.store.(interface{ Close() error }); ok {
		_ = c.Close()
	}
	d.store = nil
}

// Ctx returns the command's context.
func (d *Deps) Ctx() context.Context {
	if d.Context == nil {
		return context.Background()
	}
	return d.Context
}

// Renderer returns the renderer for the configured format.
func (d *Deps) Renderer() (render.Renderer, error) {
	return render.Lookup(d.Config.Format, render.Options{Color: d.IO.ColorEnabled(), Width: d.IO.TerminalWidth()})
}

// Render writes v to stdout in the configured format.
func (d *Deps) Render(v render.View) error {
	r, err := d.Renderer()
	if err != nil {
		return err
	}
	return r.Render(d.IO.Out, v)
}

// RenderChange prints what a mutation did, as the command contract says:
// one line in the human formats, nothing with --quiet; in json and yaml
// the document on stdout, quiet or not, since it was asked for. A change
// that changed nothing is also told on stderr in json and yaml (unless
// --quiet), since the document alone cannot say so.
func (d *Deps) RenderChange(c render.Change) error {
	if render.IsMachine(d.Config.Format) {
		if err := d.Render(c); err != nil {
			return err
		}
		if c.Verb == render.Unchanged {
			d.Info("%s", c.Text())
		}
		return nil
	}
	if d.Config.Quiet {
		return nil
	}
	return d.Render(c)
}

// Warn writes a warning line to stderr.
func (d *Deps) Warn(format string, a ...any) {
	if d.silent {
		return
	}
	fmt.Fprintf(d.IO.ErrOut, "agents: warning: %s\n", render.Escape(fmt.Sprintf(format, a...)))
}

// Info writes an informational line to stderr unless --quiet is set.
func (d *Deps) Info(format string, a ...any) {
	if d.Config.Quiet || d.silent {
		return
	}
	fmt.Fprintf(d.IO.ErrOut, "agents: %s\n", render.Escape(fmt.Sprintf(format, a...)))
}
