package plan

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
)

type recordOptions struct {
	cmdutil.Run
	id  string
	yes bool
}

func newRecordCmd(deps *cmdutil.Deps, runF func(*recordOptions) error) *cobra.Command {
	opts := &recordOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "record <id> [--yes]",
		Short: "Record a plan afresh from its own choices, same id",
		Long: `Resolve the plan again as 'plan use' did, from its own choices as recorded
(the plan level: its own automation profile and safety profile, if any),
its action, and the project and global configuration as they are now, and
record the answer under the same id. A plan that resolves to exactly what
it records is left as it is, and the line says unchanged.

Decisions under a plan hold its record to the version the store last
wrote (its history), and refuse one edited by hand or made by an earlier
agents, which kept no history for plans. This command mends both. The
action, project folder and own choices come from the version the store
last wrote, so an edited record is put back as it was. A plan with no
history has them only from its record, which nobody vouches for: check
action, project_dir and levels with 'agents plan show <id>', then pass
--yes to vouch for them.

EXIT STATUS
  0    the plan was recorded (or left as it was)
  2    usage: a plan id prefix that more than one plan begins with; own
       choices to vouch for without --yes
  3    invalid input: what is not a plan id, nor the start of one;
       agents.yaml or config.yaml; a store folder or file that another
       user owns or anyone can write
  4    not found: the plan, a profile it names, its action
  6    the safety pack in force was refused`,
		Example: `  $ agents plan record 01jq3v6m4x8b2c7d9e0f1g2h3k
  $ agents plan show 01jq3v6m4x8b2c7d9e0f1g2h3k -f json | jq '.levels[0]'
  $ agents plan record 01jq3v6m4x8b2c7d9e0f1g2h3k --yes`,
		Args:              cmdutil.ExactArgs(1, "a plan id"),
		ValidArgsFunction: cmdutil.CompleteFromList(deps, cmdutil.PlanIDs),
		RunE:              cmdutil.RunEArg(opts, runF, recordRun, &opts.id),
	}
	cmd.Flags().BoolVarP(&opts.yes, "yes", "y", false, "vouch for the record of a plan with no history")
	return cmd
}

func recordRun(opts *recordOptions) error {
	res, err := opts.Reg.RecordPlan(opts.id, opts.yes)
	if err != nil {
		return err
	}
	return renderResolution(opts.UI, "recorded", res)
}
