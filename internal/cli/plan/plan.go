// Package plan implements the 'agents plan' command group: make a plan from
// an action, resolving and recording its profiles; show, list and re-resolve
// plans; and the deprecated automation-level shims.
package plan

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
)

// NewCmd returns the plan command group.
func NewCmd(deps *cmdutil.Deps) *cobra.Command {
	return cmdutil.Group(deps, "plan", &cobra.Command{
		Short: "Make plans from actions and see how their profiles resolved",
		Long: `A plan is an action put to use. When it is made, its automation profile and
safety profile are resolved, walking the levels plan > action > project >
global, and recorded with a snapshot (sha256) of each, so the plan's
constraints never change under it. 'plan show' prints the record, the trace
of what each level set, and the drift: how resolving again now would answer
otherwise.

The automation profile is the one named at the first level that names one,
else the system default, review. The safety profile is the first standalone
safety_profile on the way; where no level has one, it is the safety composed
in the automation profile, at that profile's level.

Plans are stored in $AGENTS_HOME/plans/<id>.yaml; ids sort by creation time.
Making or showing a plan needs the safety pack in force: if it is refused,
so is the command (exit 6).`,
		Example: `  # Make a plan from an action, choosing a profile for it alone
  $ agents plan use local/secure-deploy --automation-profile cautious

  # What did each level set, and has anything changed since?
  $ agents plan show 01jq3v6m4x8b2c7d9e0f1g2h3k`,
	},
		cmdutil.V(deps, "use", newUseCmd),
		cmdutil.V(deps, "show", newShowCmd),
		cmdutil.V(deps, "list", newListCmd),
		cmdutil.V(deps, "set-automation-profile", newSetAutomationProfileCmd),
		cmdutil.V(deps, "record", newRecordCmd),
		cmdutil.V(deps, "set-automation-level", newSetAutomationLevelCmd),
	)
}
