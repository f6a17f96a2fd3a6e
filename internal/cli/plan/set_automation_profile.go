package plan

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
)

type setAutomationProfileOptions struct {
	cmdutil.Run
	id      string
	profile string
	// project is the folder to look for agents.yaml from, trusted
	// explicitly; "" looks where the plan was made.
	project string
}

func newSetAutomationProfileCmd(deps *cmdutil.Deps, runF func(*setAutomationProfileOptions) error) *cobra.Command {
	opts := &setAutomationProfileOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "set-automation-profile <id> <profile>",
		Short: "Choose a plan's automation profile and resolve it again",
		Long: `Set the automation profile at the plan's own level, the most specific, then
resolve the plan again, as 'plan use' did, and record the new answer and
snapshots. The plan keeps its own --safety-profile, if it had one; the
action, the project (looked for where the plan was made) and the global
configuration are read as they are now, so any drift is taken up. A plan
that resolves to exactly what it records is left as it is, and the line
says unchanged. --project DIR looks for agents.yaml from DIR instead, and
trusts the one in DIR itself whoever owns it, as 'plan use --project'
does; DIR becomes the plan's project folder. The plan resolved is the
version the store last wrote (an edited record is put back); a plan with
no history is refused until 'agents plan record <id> --yes' vouches for it.

EXIT STATUS
  0    the plan was resolved again
  2    usage: a plan id prefix that more than one plan begins with; an
       empty profile name or --project
  3    invalid input: what is not a plan id, nor the start of one; a
       profile name that is neither a built-in nor namespace/name;
       agents.yaml or config.yaml; a store folder or file
       that another user owns or anyone can write; a plan with no history
  4    not found: the plan, the profile, the plan's action
  6    the safety pack in force was refused`,
		Example:           `  $ agents plan set-automation-profile 01jq3v6m4x8b2c7d9e0f1g2h3k cautious`,
		Args:              cmdutil.NamedArgs("a plan id", "a profile name"),
		ValidArgsFunction: cmdutil.CompleteArgs(deps, cmdutil.PlanIDs, cmdutil.ProfileNames),
		RunE: cmdutil.RunE(opts, runF, setAutomationProfileRun, func(opts *setAutomationProfileOptions, cmd *cobra.Command, args []string) error {
			opts.id, opts.profile = args[0], args[1]
			if opts.profile == "" {
				return errs.Usage("the profile name must not be empty")
			}
			return cmdutil.NonEmpty(cmd, "project")
		}),
	}
	projectFlag(cmd, &opts.project)
	return cmd
}

// projectFlag adds --project to a command that resolves a plan again.
func projectFlag(cmd *cobra.Command, dir *string) {
	cmd.Flags().StringVar(dir, "project", "", "look for agents.yaml from this folder, and trust the one in it explicitly, instead of where the plan was made")
	_ = cmd.MarkFlagDirname("project")
}

func setAutomationProfileRun(opts *setAutomationProfileOptions) error {
	res, err := opts.Reg.SetPlanProfile(opts.id, opts.profile, opts.project)
	if err != nil {
		return err
	}
	return renderResolution(opts.UI, "updated", res)
}
