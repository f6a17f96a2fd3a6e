package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
)

type historyOptions struct {
	cmdutil.Run
	name string
}

func newHistoryCmd(deps *cmdutil.Deps, runF func(*historyOptions) error) *cobra.Command {
	opts := &historyOptions{Run: deps.Run()}
	return &cobra.Command{
		Use:   "history <name>",
		Short: "List every version of a profile the store has written",
		Long: `List the versions of a profile, oldest first: the sha256 of each version's
canonical content, when it was written or removed, and which version is in
the store now.

Every version stays in the store's objects, even after the profile is
removed, so a plan that cites a digest can always be checked against what the
registry really held ('agents safety-pack check --plan'). A built-in profile
has one version, the one compiled into agents.`,
		Example: `  $ agents automation-profile history acme/strict
  $ agents automation-profile history acme/strict -f json | jq -r '.versions[].digest'`,
		Args:              cmdutil.ExactArgs(1, "a profile name"),
		ValidArgsFunction: cmdutil.CompleteProfileNames(deps, true),
		RunE:              cmdutil.RunEArg(opts, runF, historyRun, &opts.name),
	}
}

func historyRun(opts *historyOptions) error {
	versions, builtin, err := opts.Reg.ProfileHistory(opts.name)
	if err != nil {
		return err
	}
	return opts.UI.Render(render.HistoryView{Name: opts.name, Builtin: builtin, Versions: versions})
}
