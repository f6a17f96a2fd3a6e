package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
)

type showOptions struct {
	cmdutil.Run
	name string
}

func newShowCmd(deps *cmdutil.Deps, runF func(*showOptions) error) *cobra.Command {
	opts := &showOptions{Run: deps.Run()}
	return &cobra.Command{
		Use:   "show <name>",
		Short: "Show one profile in full",
		Long: `Show every field of one profile: its eleven thresholds grouped by what they
gate, its safety profile and its guards.

The yaml output of a custom profile can be given to 'add --config' as it is.`,
		Example: `  $ agents automation-profile show cautious
  $ agents automation-profile show acme/strict -f yaml > strict.yaml`,
		Args:              cmdutil.ExactArgs(1, "a profile name"),
		ValidArgsFunction: cmdutil.CompleteProfileNames(deps, true),
		RunE:              cmdutil.RunEArg(opts, runF, showRun, &opts.name),
	}
}

func showRun(opts *showOptions) error {
	p, err := opts.Reg.Profile(opts.name)
	if err != nil {
		return err
	}
	return opts.UI.Render(render.ProfileView{Profile: p})
}
