package cli

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/version"
)

type versionOptions struct {
	cmdutil.Run
	// info returns the build's version; tests replace it.
	info func() version.Info
}

func newVersionCmd(deps *cmdutil.Deps, runF func(*versionOptions) error) *cobra.Command {
	opts := &versionOptions{Run: deps.Run(), info: version.Get}
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
		Args:              cmdutil.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              cmdutil.RunE(opts, runF, versionRun, nil),
	}
}

func versionRun(opts *versionOptions) error {
	return opts.UI.Render(render.VersionView{Info: opts.info()})
}
