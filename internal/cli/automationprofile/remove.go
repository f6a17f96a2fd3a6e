package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/profile"
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

` + cmdutil.RemoveHelp,
		Example: `  $ agents automation-profile remove acme/strict
  $ agents automation-profile remove acme/strict --yes -f json`,
		Aliases:           []string{"rm"},
		Args:              cmdutil.ExactArgs(1, "a profile name"),
		ValidArgsFunction: cmdutil.CompleteProfileNames(deps, false),
		RunE:              cmdutil.RunEArg(opts, runF, removeRun, &opts.name),
	}
	cmdutil.YesFlag(cmd, &opts.yes)
	return cmd
}

func removeRun(opts *removeOptions) error {
	return cmdutil.Remove(opts.UI, "profile", opts.name, opts.yes, opts.Reg.RemoveProfile, func(d *profile.AutomationProfile) string { return d.Name })
}
