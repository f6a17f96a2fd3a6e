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

The json and yaml output is an array of the documents 'plan show' prints:
each plan is resolved again for its drift and checked against the
snapshots it cites, with a warning for each record that does not verify.`,
		Example: `  $ agents plan list
  $ agents plan list --action local/secure-deploy -f plain`,
		Args:              cmdutil.ExactArgs(0, "no arguments"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              cmdutil.RunE(opts, runF, listRun, nil),
	}
	cmdutil.NameFlag(cmd, deps, &opts.action, "action", "list only the plans made from this action", cmdutil.ActionNames)
	return cmd
}

func listRun(opts *listOptions) error {
	plans, err := opts.Reg.ListPlans(opts.action)
	if err != nil {
		return err
	}
	views := make([]render.PlanView, len(plans))
	if render.IsMachine(opts.UI.Format()) {
		// The documents are plan show's: each plan resolved again for its
		// drift and checked against its snapshots. The other formats show
		// the record alone.
		shown, err := opts.Reg.ShowPlans(plans)
		if err != nil {
			return err
		}
		for i, s := range shown {
			views[i] = render.PlanView{Plan: s.Plan, Drift: s.Drift, Loosened: s.Loosened, Record: s.Record}
		}
	} else {
		for i, p := range plans {
			views[i] = render.PlanView{Plan: p}
		}
	}
	return opts.UI.Render(render.PlanListView{Plans: views})
}
