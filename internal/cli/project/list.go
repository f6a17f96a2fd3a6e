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
them, with the content each is pinned to: trust holds only while the file
has the sha256 recorded when it was trusted. An entry written into
config.yaml by hand as a plain path is not pinned and is warned about.

-f plain prints one folder per line; -f json prints documents with
project, pinned and sha256 (null when not pinned, or pinned to a folder
that had no agents.yaml).`,
		Example:           `  $ agents project list -f json`,
		Args:              cmdutil.ExactArgs(0, "no arguments"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              cmdutil.RunE(opts, runF, listRun, nil),
	}
}

func listRun(opts *listOptions) error {
	list, err := opts.Reg.TrustedProjects()
	if err != nil {
		return err
	}
	view := render.ProjectListView{Projects: make([]render.TrustedProject, 0, len(list))}
	for _, p := range list {
		row := render.TrustedProject{Project: p.Folder, Pinned: p.Pinned}
		if p.Pinned && p.SHA256 != "" {
			row.SHA256 = &p.SHA256
		}
		view.Projects = append(view.Projects, row)
	}
	return opts.UI.Render(view)
}
