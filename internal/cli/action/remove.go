package action

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
)

type removeOptions struct {
	cmdutil.Run
	name string
	yes  bool
}

func newRemoveCmd(deps *cmdutil.Deps, runF func(*removeOptions) error) *cobra.Command {
	opts := &removeOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "remove <name> [--yes]",
		Short: "Remove an action",
		Long: `Remove an action and print what was removed. Plans already made from it keep
their recorded profiles; 'agents plan show' reports that their action is gone.

` + cmdutil.RemoveHelp,
		Example: `  $ agents action remove local/secure-deploy
  $ agents action remove local/secure-deploy --yes -f json`,
		Aliases:           []string{"rm"},
		Args:              cmdutil.ExactArgs(1, "an action name"),
		ValidArgsFunction: cmdutil.CompleteFromList(deps, cmdutil.ActionNames),
		RunE:              cmdutil.RunEArg(opts, runF, removeRun, &opts.name),
	}
	cmdutil.YesFlag(cmd, &opts.yes)
	return cmd
}

func removeRun(opts *removeOptions) error {
	return cmdutil.Remove(opts.UI, "action", opts.name, opts.yes, opts.Reg.RemoveAction, func(d *action.Action) string { return d.Name })
}
