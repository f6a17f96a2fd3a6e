package project

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
)

type listOptions struct {
	cmdutil.Run
}

func newListCmd(deps *cmdutil.Deps, runF func(*listOptions) error) *cobra.Command {
	opts := &listOptions{Run: deps.Run()}
	return &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the trusted projects",
		Long: `List the folders whose agents.yaml a hook may use, as config.yaml records
them. -f plain prints one folder per line.`,
		Example: `  $ agents project list -f json`,
		Args:    cmdutil.ExactArgs(0, "no arguments"),
		RunE:    cmdutil.RunE(opts, runF, listRun, nil),
	}
}

func listRun(opts *listOptions) error {
	list, err := opts.Reg.TrustedProjects()
	if err != nil {
		return err
	}
	return opts.UI.Render(render.Lines{Items: list})
}
