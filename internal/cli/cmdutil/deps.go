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

	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
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
	// Quiet suppresses progress and informational messages on stderr.
	Quiet bool
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

	// OpenStore opens the store at Config.Home. Set by Main; tests may
	// replace it.
	OpenStore func(cfg Config) (store.Store, error)
	store     store.Store
	builtins  map[string]*profile.AutomationProfile // decoded so far, by name
}

// Store returns the store, opening it on first use.
func (d *Deps) Store() (store.Store, error) {
	if d.store != nil {
		return d.store, nil
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

// Warn writes a warning line to stderr.
func (d *Deps) Warn(format string, a ...any) {
	fmt.Fprintf(d.IO.ErrOut, "agents: warning: %s\n", render.Escape(fmt.Sprintf(format, a...)))
}

// Info writes an informational line to stderr unless --quiet is set.
func (d *Deps) Info(format string, a ...any) {
	if d.Config.Quiet {
		return
	}
	fmt.Fprintf(d.IO.ErrOut, "agents: %s\n", render.Escape(fmt.Sprintf(format, a...)))
}

// ExitCodeError ends the command with a given exit code after it has already
// written its result (check-gate and check-guard decisions). It prints
// nothing more.
type ExitCodeError struct{ Code int }

func (e *ExitCodeError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }
