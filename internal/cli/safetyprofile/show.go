package safetyprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
)

type showOptions struct {
	cmdutil.Run
	file string
}

func newShowCmd(deps *cmdutil.Deps, runF func(*showOptions) error) *cobra.Command {
	opts := &showOptions{Run: deps.Run()}
	return &cobra.Command{
		Use:   "show <file>",
		Short: "Show a standalone safety profile with its defaults filled in",
		Long: `Read a standalone safety profile from a YAML file ("-" reads standard
input), as plans will read it, and print all eight fields, those the file
leaves out at their defaults. The json and yaml output is a safety profile
file itself.

EXIT STATUS
  0    shown
  3    the file is not a valid safety profile (its root must be a mapping),
       or is not a regular file (a FIFO, a device, a folder)
  4    the file does not exist`,
		Example: `  $ agents safety-profile show examples/safety-profiles/deploy.yaml
  $ agents safety-profile show deploy.yaml -f yaml > deploy-full.yaml
  $ agents action show local/secure-deploy -f json | jq .safety_profile |
      agents safety-profile show -`,
		Args: cmdutil.ExactArgs(1, "a safety profile file"),
		RunE: cmdutil.RunEArg(opts, runF, showRun, &opts.file),
	}
}

func showRun(opts *showOptions) error {
	data, name, err := opts.UI.ReadInput(opts.file)
	if err != nil {
		return err
	}
	s, warnings, err := profile.DecodeSafetyProfile(data, name)
	for _, w := range warnings {
		opts.UI.Warn("%s: %s", name, w)
	}
	if err != nil {
		return err
	}
	return opts.UI.Render(render.SafetyProfileView{File: name, Safety: s})
}
