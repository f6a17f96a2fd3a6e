package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
)

type removeOptions struct {
	cmdutil.Run
	name string
	yes  bool
}

func newRemoveCmd(deps *cmdutil.Deps, runF func(*removeOptions) error) *cobra.Command {
	opts := &removeOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "remove <name> [--yes]",
		Short: "Remove a custom profile",
		Long: `Remove a custom profile and print what was removed. Built-in profiles cannot
be removed.

At a terminal the command asks for confirmation; answering anything but y
keeps it, says so on stderr and ends with exit status 0, since nothing
failed. Elsewhere (a script, a pipe, or CI set in the environment) it needs
--yes and otherwise refuses with exit status 2.

It prints one line saying what was removed (nothing with -q); -f json and
-f yaml print the removed document instead, which add --config accepts to
restore it.`,
		Example: `  $ agents automation-profile remove acme/strict
  $ agents automation-profile remove acme/strict --yes -f json`,
		Aliases:           []string{"rm"},
		Args:              cmdutil.ExactArgs(1, "a profile name"),
		ValidArgsFunction: cmdutil.CompleteProfileNames(deps, false),
		RunE: cmdutil.RunE(opts, runF, removeRun, func(opts *removeOptions, cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			return nil
		}),
	}
	cmd.Flags().BoolVarP(&opts.yes, "yes", "y", false, "remove without asking for confirmation")
	return cmd
}

func removeRun(opts *removeOptions) error {
	removed, err := opts.Reg.RemoveProfile(opts.name, opts.UI.ConfirmRemoval("profile", opts.name, opts.yes))
	if removed == nil || err != nil {
		return err
	}
	return opts.UI.RenderChange(render.Change{Verb: "removed", Subject: removed.Name, Doc: removed})
}
