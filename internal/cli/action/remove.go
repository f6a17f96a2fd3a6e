package action

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
)

type removeOptions struct {
	deps *cmdutil.Deps
	name string
	yes  bool
}

func newRemoveCmd(deps *cmdutil.Deps, runF func(*removeOptions) error) *cobra.Command {
	opts := &removeOptions{deps: deps}
	cmd := &cobra.Command{
		Use:   "remove <name> [--yes]",
		Short: "Remove an action",
		Long: `Remove an action and print what was removed. Plans already made from it keep
their recorded profiles; 'agents plan show' reports that their action is gone.

At a terminal the command asks for confirmation; elsewhere (a script, a pipe,
or CI set in the environment) it needs --yes and otherwise refuses with exit
status 2.`,
		Example: `  $ agents action remove local/secure-deploy
  $ agents action remove local/secure-deploy --yes -f json`,
		Aliases:           []string{"rm"},
		Args:              cmdutil.ExactArgs(1, "an action name"),
		ValidArgsFunction: cmdutil.CompleteFromList(deps, cmdutil.ActionNames),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			if runF != nil {
				return runF(opts)
			}
			return removeRun(opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.yes, "yes", "y", false, "remove without asking for confirmation")
	return cmd
}

func removeRun(opts *removeOptions) error {
	deps := opts.deps
	if err := action.ValidateName(opts.name); err != nil {
		return err
	}
	if !opts.yes {
		if !deps.IO.CanPrompt() {
			return errs.Usage("refusing to remove %q without confirmation", opts.name).
				WithHint("pass --yes to remove it when not at a terminal")
		}
		ok, err := confirm(deps, fmt.Sprintf("Remove action %s? [y/N] ", render.Escape(opts.name)))
		if err != nil {
			return err
		}
		if !ok {
			return errs.Usage("not removed: %q", opts.name)
		}
	}
	st, err := deps.Store()
	if err != nil {
		return err
	}
	removed, err := st.RemoveAction(deps.Ctx(), opts.name)
	if err != nil {
		return err
	}
	return deps.Render(render.ActionRemovedView{Action: removed})
}

// confirm asks a yes/no question on stderr and reads the answer from stdin.
func confirm(deps *cmdutil.Deps, question string) (bool, error) {
	fmt.Fprint(deps.IO.ErrOut, question)
	line, err := bufio.NewReader(deps.IO.In).ReadString('\n')
	if err != nil && line == "" {
		return false, errs.Usage("no answer given")
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}
