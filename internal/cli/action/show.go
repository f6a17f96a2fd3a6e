package action

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/registry"
	"github.com/agentsctl/agents/internal/render"
)

type showOptions struct {
	reg  *registry.Registry
	ui   *cmdutil.UI
	name string
}

func newShowCmd(deps *cmdutil.Deps, runF func(*showOptions) error) *cobra.Command {
	opts := &showOptions{reg: deps.Registry(), ui: deps.UI()}
	cmd := &cobra.Command{
		Use:   "show <name>",
		Short: "Show one action in full",
		Long: `Show every field of one action, its standalone safety profile included.

The yaml output can be given back to 'action add --config' as it is.`,
		Example: `  $ agents action show local/secure-deploy
  $ agents action show local/secure-deploy -f yaml > deploy.yaml`,
		Args:              cmdutil.ExactArgs(1, "an action name"),
		ValidArgsFunction: cmdutil.CompleteFromList(deps, cmdutil.ActionNames),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			if runF != nil {
				return runF(opts)
			}
			return showRun(opts)
		},
	}
	return cmd
}

func showRun(opts *showOptions) error {
	a, err := opts.reg.Action(opts.name)
	if err != nil {
		return err
	}
	return opts.ui.Render(render.ActionView{Action: a})
}
