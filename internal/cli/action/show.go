package action

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
		Short: "Show one action in full",
		Long: `Show every field of one action, its standalone safety profile included.

The yaml output can be given back to 'action add --config' as it is.`,
		Example: `  $ agents action show local/secure-deploy
  $ agents action show local/secure-deploy -f yaml > deploy.yaml`,
		Args:              cmdutil.ExactArgs(1, "an action name"),
		ValidArgsFunction: cmdutil.CompleteFromList(deps, cmdutil.ActionNames),
		RunE:              cmdutil.RunEArg(opts, runF, showRun, &opts.name),
	}
}

func showRun(opts *showOptions) error {
	a, err := opts.Reg.Action(opts.name)
	if err != nil {
		return err
	}
	return opts.UI.Render(render.ActionView{Action: a})
}
