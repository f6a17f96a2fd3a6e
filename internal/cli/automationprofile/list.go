package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
)

type listOptions struct {
	deps      *cmdutil.Deps
	regex     string
	namespace string
}

func newListCmd(deps *cmdutil.Deps, runF func(*listOptions) error) *cobra.Command {
	opts := &listOptions{deps: deps}
	cmd := &cobra.Command{
		Use:   "list [<regex>] [--namespace <ns>]",
		Short: "List built-in and custom profiles",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.regex = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.namespace, "namespace", "n", "", "list only custom profiles of this namespace")
	return cmd
}

func listRun(opts *listOptions) error {
	bs, err := cmdutil.LoadBuiltins(opts.deps.Builtins)
	if err != nil {
		return err
	}
	return opts.deps.Render(render.ProfileListView{Profiles: bs})
}
