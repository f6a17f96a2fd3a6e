package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
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
	if profile.IsBuiltinName(opts.name) {
		return errs.Conflict("%q is a built-in profile and cannot be removed", opts.name).
			WithHint("built-in profiles are part of agents; register a custom profile instead")
	}
	if err := cmdutil.CheckProfileArg(opts.name); err != nil {
		return errs.DidYouMean(err, nearestCustom(deps, opts.name))
	}
	if ok, err := cmdutil.ConfirmRemoval(deps, "profile", opts.name, opts.yes); !ok || err != nil {
		return err
	}
	st, err := deps.Store()
	if err != nil {
		return err
	}
	res, err := st.Profiles().Remove(deps.Ctx(), opts.name)
	if errs.Is(err, errs.KindNotFound) {
		return errs.DidYouMean(err, nearestCustom(deps, opts.name))
	}
	if err != nil {
		return err
	}
	// The profile is gone; what could not be done after that is told, not
	// failed on.
	for _, w := range res.Warnings {
		deps.Warn("%s", w)
	}
	removed := res.Removed
	return deps.RenderChange(render.Change{Verb: "removed", Subject: removed.Name, Doc: removed})
}

// nearestCustom is the stored profile name nearest to name: only custom
// profiles can be removed.
func nearestCustom(deps *cmdutil.Deps, name string) string {
	if s := cmdutil.NearestProfile(deps, name); !profile.IsBuiltinName(s) {
		return s
	}
	return ""
}
