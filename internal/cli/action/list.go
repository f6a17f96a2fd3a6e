package action

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
)

type listOptions struct {
	cmdutil.Run
	filter cmdutil.ListFilter
}

func newListCmd(deps *cmdutil.Deps, runF func(*listOptions) error) *cobra.Command {
	opts := &listOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:     "list [<regex>] [--namespace <ns>]",
		Aliases: []string{"ls"},
		Short:   "List actions",
		Long: `List the actions by name.

The optional regex (RE2 syntax, unanchored) is matched against the full name.
--namespace lists only the actions of that namespace. Stored files that cannot
be read are reported on stderr; the others still list.`,
		Example: `  $ agents action list
  $ agents action list deploy
  $ agents action list --namespace local -f plain`,
		RunE: cmdutil.RunEArg(opts, runF, listRun, &opts.filter.Regex),
	}
	opts.filter.Add(cmd, deps, "list only actions of this namespace", cmdutil.ActionNames, cmdutil.ActionNamespaces)
	return cmd
}

func listRun(opts *listOptions) error {
	q, err := opts.filter.Query("'^local/' or 'deploy'")
	if err != nil {
		return err
	}
	list, err := opts.Reg.ListActions(q)
	if err != nil {
		return err
	}
	return opts.UI.Render(render.ActionListView{Actions: list})
}
