package plan

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
)

type listOptions struct {
	cmdutil.Run
	action string
}

func newListCmd(deps *cmdutil.Deps, runF func(*listOptions) error) *cobra.Command {
	opts := &listOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:     "list [--action <name>]",
		Aliases: []string{"ls"},
		Short:   "List plans, oldest first",
		Long: `List the plans in the order they were made, with the profiles each recorded.
--action keeps the plans made from one action. Stored files that cannot be
read are reported on stderr; the others still list.

The json and yaml output is the stored records, without drift: 'plan show'
resolves a plan again to find it.`,
		Example: `  $ agents plan list
  $ agents plan list --action local/secure-deploy -f plain`,
		Args: cmdutil.ExactArgs(0, "no arguments"),
		RunE: cmdutil.RunE(opts, runF, listRun, nil),
	}
	cmdutil.NameFlag(cmd, deps, &opts.action, "action", "list only the plans made from this action", cmdutil.ActionNames)
	return cmd
}

func listRun(opts *listOptions) error {
	plans, err := opts.Reg.ListPlans(opts.action)
	if err != nil {
		return err
	}
	return opts.UI.Render(render.PlanListView{Plans: plans})
}
