// Package cmdtest helps test command groups: a Deps over test streams and
// an in-memory store, and the options a verb's flags and arguments make,
// captured before its run function would run.
package cmdtest

import (
	"bytes"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/profiles"
)

// Env is a Deps over test streams and st, with a home of its own, and what
// the command wrote.
type Env struct {
	Deps        *cmdutil.Deps
	Store       *store.Memory
	Out, ErrOut *bytes.Buffer
}

// New returns an environment with an empty in-memory store, printing in
// format.
func New(t testing.TB, format string) *Env {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	st := store.NewMemory()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	return &Env{
		Deps: &cmdutil.Deps{
			IO: ios, Builtins: profiles.Builtin,
			Getenv:    func(string) string { return "" },
			Now:       func() time.Time { return now },
			Config:    cmdutil.Config{Home: t.TempDir(), Format: format},
			OpenStore: func(cmdutil.Config) (store.Store, error) { return st, nil },
		},
		Store: st, Out: out, ErrOut: errOut,
	}
}

// Run runs cmd, a command group or a verb built over e.Deps, with args, as
// the root command would once the configuration is resolved: the
// registry's warnings are printed after it.
func (e *Env) Run(cmd *cobra.Command, args ...string) error {
	e.Deps.SetConfig(e.Deps.Config)
	defer e.Deps.UI().Flush()
	cmd.SetArgs(args)
	cmd.SetOut(e.Out)
	cmd.SetErr(e.ErrOut)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return cmd.Execute()
}

// Options returns the options the verb newCmd builds makes of args, taken
// where its run function would be called; nil when the command refused
// them before that, with the error.
func Options[T any](t testing.TB, newCmd func(*cmdutil.Deps, func(*T) error) *cobra.Command, args ...string) (*T, error) {
	t.Helper()
	e := New(t, "json")
	var got *T
	cmd := newCmd(e.Deps, func(o *T) error { got = o; return nil })
	err := e.Run(cmd, args...)
	return got, err
}
