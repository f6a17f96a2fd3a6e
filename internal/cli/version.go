package cli

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/version"
)

type versionOptions struct {
	ui *cmdutil.UI
	// info returns the build's version; tests replace it.
	info func() version.Info
}

func newVersionCmd(deps *cmdutil.Deps, runF func(*versionOptions) error) *cobra.Command {
	opts := &versionOptions{ui: deps.UI(), info: version.Get}
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit and build date of agents",
		Long: `Print which build of agents is running: its version, the commit it was built
from, the build date, and the Go version and platform. Release builds carry
these from the release; a build from source falls back to what the Go
toolchain recorded (module version, VCS revision and time), and "dev" or
"unknown" for what it did not.`,
		Example: `  $ agents version
  agents v1.2.0 (commit 1a2b3c4, built 2026-03-01T10:00:00Z, go1.26.0 linux/amd64)

  # For scripts and bug reports
  $ agents version -f json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return versionRun(opts)
		},
	}
}

func versionRun(opts *versionOptions) error {
	return opts.ui.Render(versionView{opts.info()})
}

// versionView renders the build's version.
type versionView struct{ info version.Info }

// Data implements render.View.
func (v versionView) Data() any { return v.info }

// Plain implements render.View: the one-line form.
func (v versionView) Plain(w *render.Writer) { w.Line(v.info.String()) }

// Tables implements render.View.
func (v versionView) Tables() []render.Table {
	i := v.info
	return []render.Table{{
		Header: []string{"FIELD", "VALUE"},
		Rows: [][]string{
			{"version", i.Version},
			{"commit", i.Commit},
			{"date", i.Date},
			{"go", i.Go},
			{"platform", i.Platform},
		},
	}}
}

// Rich implements render.RichView: the one-line form, as plain prints it.
func (v versionView) Rich(t *render.Theme) string { return t.Para(2, render.Escape(v.info.String())) }
