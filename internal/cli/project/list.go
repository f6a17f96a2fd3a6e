package project

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/registry"
	"github.com/agentsctl/agents/internal/render"
)

type listOptions struct {
	reg *registry.Registry
	ui  *cmdutil.UI
}

func newListCmd(deps *cmdutil.Deps, runF func(*listOptions) error) *cobra.Command {
	opts := &listOptions{reg: deps.Registry(), ui: deps.UI()}
	return &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the trusted projects",
		Long: `List the folders whose agents.yaml a hook may use, as config.yaml records
them. -f plain prints one folder per line.`,
		Example: `  $ agents project list -f json`,
		Args:    cmdutil.ExactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
}

func listRun(opts *listOptions) error {
	list, err := opts.reg.TrustedProjects()
	if err != nil {
		return err
	}
	return opts.ui.Render(render.Lines{Items: list})
}
