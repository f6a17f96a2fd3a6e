// Package automationprofile implements the 'agents automation-profile'
// command group.
package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
)

// NewCmd returns the automation-profile command group.
func NewCmd(deps *cmdutil.Deps) *cobra.Command {
	return cmdutil.Group("automation-profile", &cobra.Command{
		Aliases: []string{"profile", "ap"},
		Short:   "Manage automation profiles",
		Long: `Automation profiles set how much autonomy a plan gets: eleven thresholds in
[0, 1] (0 = automatic, 1 = always ask a person), a composed safety profile of
hard constraints, and optional guards on tool calls. The eight built-ins are
always present; custom profiles are named namespace/name.`,
	},
		newAddCmd(deps, nil),
		newRemoveCmd(deps, nil),
		newListCmd(deps, nil),
		newShowCmd(deps, nil),
		newHistoryCmd(deps, nil),
		newValidateCmd(deps, nil),
		newMigrateCmd(deps, nil),
		newCheckGateCmd(deps, nil),
		newCheckGuardCmd(deps, nil),
		newDiffCmd(deps, nil),
		newSchemaCmd(deps, nil),
		newResolveCmd(deps, nil),
	)
}
