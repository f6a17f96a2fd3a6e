package project

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/registry"
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

Read the agents.yaml first: trust is pinned to what it says now (its
sha256 is recorded). Once it changes (an edit, a pull, an agent rewriting
it), a hook there blocks until you read it and trust the project again. A
folder trusted with no agents.yaml yet blocks once one appears.

EXIT STATUS
  0    trusted (or already trusted)
  3    config.yaml is invalid and was left alone, the project's
       agents.yaml is invalid (a hook could not use it), or the path
       is not a folder
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
	return opts.UI.RenderChange(trustView(t, opts.trust))
}

func trustView(t registry.Trust, trust bool) render.Change {
	folder, file, changed := t.Folder, t.File, t.Changed
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
		// SHA256 is the digest of agents.yaml that trust is pinned to.
		SHA256  *string `json:"sha256"`
		Trusted bool    `json:"trusted"`
		Changed bool    `json:"changed"`
		Config  string  `json:"config"`
	}
	doc.Project, doc.Trusted, doc.Changed, doc.Config = folder, trust, changed, t.Config
	if file != "" {
		doc.AgentsYAML = &file
	}
	if trust && file != "" {
		doc.SHA256 = &t.SHA256
	}
	c.Doc = doc
	return c
}
