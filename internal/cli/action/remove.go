package action

import (
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

At a terminal the command asks for confirmation; answering anything but y
keeps it, says so on stderr and ends with exit status 0, since nothing
failed. Elsewhere (a script, a pipe, or CI set in the environment) it needs
--yes and otherwise refuses with exit status 2.

It prints one line saying what was removed (nothing with -q); -f json and
-f yaml print the removed document instead, which add --config accepts to
restore it.`,
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
		return errs.DidYouMean(err, cmdutil.NearestAction(deps, opts.name))
	}
	if ok, err := cmdutil.ConfirmRemoval(deps, "action", opts.name, opts.yes); !ok || err != nil {
		return err
	}
	st, err := deps.Store()
	if err != nil {
		return err
	}
	removed, err := st.Actions().Remove(deps.Ctx(), opts.name)
	if errs.Is(err, errs.KindNotFound) {
		return errs.DidYouMean(err, cmdutil.NearestAction(deps, opts.name))
	}
	if err != nil {
		return err
	}
	return deps.RenderChange(render.Change{Verb: "removed", Subject: removed.Removed.Name, Doc: removed.Removed})
}
