package project

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/atomicfile"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
	filestore "github.com/agentsctl/agents/internal/store/file"
)

type trustOptions struct {
	deps  *cmdutil.Deps
	dir   string
	trust bool
}

func newTrustCmd(deps *cmdutil.Deps, runF func(*trustOptions) error, trust bool) *cobra.Command {
	opts := &trustOptions{deps: deps, trust: trust}
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
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.dir = args[0]
			}
			if runF != nil {
				return runF(opts)
			}
			return trustRun(opts)
		},
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
	deps := opts.deps
	folder, file, err := projectFolder(opts.dir, opts.trust)
	if err != nil {
		return err
	}
	home := deps.Config.Home
	unlock, err := filestore.LockHome(deps.Ctx(), home, deps.Config.LockTimeout)
	if err != nil {
		return err
	}
	defer unlock()
	path := config.GlobalPath(home)
	data, err := config.ReadGlobal(home)
	if err != nil {
		return err
	}
	out, changed, err := config.SetTrusted(data, path, folder, opts.trust)
	if err != nil {
		return err
	}
	if changed {
		if err := atomicfile.WriteFile(path, out, 0o600); err != nil {
			return errs.Wrap(errs.KindInternal, err, "writing %s", path)
		}
	}
	return deps.RenderChange(trustView(folder, file, opts.trust, changed, path))
}

// projectFolder returns the folder to record for dir: the one holding the
// agents.yaml that applies there, or dir itself, with links resolved.
func projectFolder(dir string, mustExist bool) (folder, file string, err error) {
	start, err := cmdutil.ProjectDir(dir)
	if err != nil {
		return "", "", err
	}
	real, err := filepath.EvalSymlinks(start)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !mustExist:
		// Untrusting a folder that is gone: remove it as written.
		return filepath.Clean(start), "", nil
	case errors.Is(err, fs.ErrNotExist):
		return "", "", errs.NotFound("folder %s not found", start)
	case err != nil:
		return "", "", errs.Wrap(errs.KindInternal, err, "resolving %s", start)
	}
	if fi, err := os.Stat(real); err == nil && !fi.IsDir() {
		return "", "", errs.Usage("%s is not a folder", start).WithHint("give the project's folder")
	}
	file, err = config.FindProject(real)
	if err != nil {
		return "", "", err
	}
	if file == "" {
		return real, "", nil
	}
	return filepath.Dir(file), file, nil
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
