package project

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
)

type trustOptions struct {
	cmdutil.Run
	dir   string
	trust bool
}

func newTrustCmd(deps *cmdutil.Deps, runF func(*trustOptions) error, trust bool) *cobra.Command {
	opts := &trustOptions{Run: deps.Run(), trust: trust}
	cmd := &cobra.Command{
		Use:   "trust [<dir>]",
		Short: "Let hooks use a project's agents.yaml",
		Long: `Record a project as trusted, so that a hook naming no profile uses its
agents.yaml. <dir> is the project's folder or any folder inside it (default:
the working directory); the folder recorded is the one holding the
agents.yaml found from there, or <dir> itself when there is none yet.

Read the agents.yaml first: once trusted, whatever it says applies to the
agent working in the project, until you run 'agents project untrust'.

EXIT STATUS
  0    trusted (or already trusted)
  3    config.yaml is invalid and was left alone
  4    the folder does not exist
  75   another command held the home's lock past --lock-timeout`,
		Example: `  $ agents project trust
  $ agents project trust ~/src/shop -f json`,
		Args: cmdutil.RangeArgs(0, 1, "at most one folder"),
		RunE: cmdutil.RunEArg(opts, runF, trustRun, &opts.dir),
	}
	if !trust {
		cmd.Use = "untrust [<dir>]"
		cmd.Short = "Stop hooks from using a project's agents.yaml"
		cmd.Long = `Remove a project from the trusted ones: a hook naming no profile then blocks
in it while it has an agents.yaml. <dir> is as for 'agents project trust'.

EXIT STATUS
  0    no longer trusted (or was not)
  3    config.yaml is invalid and was left alone
  75   another command held the home's lock past --lock-timeout`
		cmd.Example = `  $ agents project untrust ~/src/shop`
	}
	cmd.ValidArgsFunction = func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	}
	return cmd
}

func trustRun(opts *trustOptions) error {
	t, err := opts.Reg.TrustProject(opts.dir, opts.trust)
	if err != nil {
		return err
	}
	return opts.UI.RenderChange(trustView(t.Folder, t.File, opts.trust, t.Changed, t.Config))
}

func trustView(folder, file string, trust, changed bool, configFile string) render.Change {
	c := render.Change{Subject: "project " + folder}
	switch {
	case trust && changed:
		c.Verb = "trusted"
	case trust:
		c.Verb, c.Detail = render.Unchanged, "already trusted"
	case changed:
		c.Verb = "no longer trusted"
	default:
		c.Verb, c.Detail = render.Unchanged, "was not trusted"
	}
	shown := file
	if shown == "" {
		shown = "none yet"
	}
	if c.Detail != "" {
		c.Detail += "; "
	}
	c.Detail += "agents.yaml: " + shown
	var doc struct {
		Project    string  `json:"project"`
		AgentsYAML *string `json:"agents_yaml"`
		Trusted    bool    `json:"trusted"`
		Changed    bool    `json:"changed"`
		Config     string  `json:"config"`
	}
	doc.Project, doc.Trusted, doc.Changed, doc.Config = folder, trust, changed, configFile
	if file != "" {
		doc.AgentsYAML = &file
	}
	c.Doc = doc
	return c
}
