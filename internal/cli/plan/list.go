package plan

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/store"
)

type listOptions struct {
	deps   *cmdutil.Deps
	action string
}

func newListCmd(deps *cmdutil.Deps, runF func(*listOptions) error) *cobra.Command {
	opts := &listOptions{deps: deps}
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
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.action, "action", "", "list only the plans made from this action")
	_ = cmd.RegisterFlagCompletionFunc("action", cmdutil.CompleteFlag(deps, cmdutil.ActionNames))
	return cmd
}

func listRun(opts *listOptions) error {
	deps := opts.deps
	if opts.action != "" {
		if err := action.ValidateName(opts.action); err != nil {
			return errs.DidYouMean(errs.Usage("%s", err.Error()), cmdutil.NearestAction(deps, opts.action))
		}
	}
	st, err := deps.Store()
	if err != nil {
		return err
	}
	list, err := st.Plans().List(deps.Ctx(), store.Query{})
	if err != nil {
		return err
	}
	for _, p := range list.Problems {
		deps.Warn("skipped %s", p.String())
	}
	var out []*plan.Plan
	for _, p := range list.Items {
		if opts.action == "" || p.Action == opts.action {
			out = append(out, p)
		}
	}
	return deps.Render(render.PlanListView{Plans: out})
}
