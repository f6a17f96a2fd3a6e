package action

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/store"
)

type listOptions struct {
	cmdutil.Run
	regex     string
	namespace string
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
		Args: cobra.MaximumNArgs(1),
		RunE: cmdutil.RunE(opts, runF, listRun, func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.regex = args[0]
			}
			return nil
		}),
	}
	cmd.Flags().StringVarP(&opts.namespace, "namespace", "n", "", "list only actions of this namespace")
	_ = cmd.RegisterFlagCompletionFunc("namespace", cmdutil.CompleteFlag(deps, cmdutil.ActionNamespaces))
	return cmd
}

func listRun(opts *listOptions) error {
	match, err := cmdutil.NameFilter(opts.regex, opts.namespace, "'^local/' or 'deploy'")
	if err != nil {
		return err
	}
	list, err := opts.Reg.ListActions(store.Query{Namespace: opts.namespace, Match: match})
	if err != nil {
		return err
	}
	return opts.UI.Render(render.ActionListView{Actions: list})
}
