// Package automationprofile implements the 'agents automation-profile'
// command group.
package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
)

// NewCmd returns the automation-profile command group.
func NewCmd(deps *cmdutil.Deps) *cobra.Command {
	return cmdutil.Group(deps, "automation-profile", &cobra.Command{
		Aliases: []string{"profile", "ap"},
		Short:   "Manage automation profiles",
		Long: `Automation profiles set how much autonomy a plan gets: eleven thresholds in
[0, 1] (0 = automatic, 1 = always ask a person), a composed safety profile of
hard constraints, and optional guards on tool calls. The eight built-ins are
always present; custom profiles are named namespace/name.`,
		Example: `  # Compare the built-ins, then register a custom profile
  $ agents automation-profile diff --builtin
  $ agents automation-profile add -c strict.yaml

  # May a step at confidence 0.8 execute automatically?
  $ agents automation-profile check-gate cautious auto_execute --confidence 0.8`,
	},
		cmdutil.V(deps, "add", newAddCmd),
		cmdutil.V(deps, "remove", newRemoveCmd),
		cmdutil.V(deps, "list", newListCmd),
		cmdutil.V(deps, "show", newShowCmd),
		cmdutil.V(deps, "history", newHistoryCmd),
		cmdutil.V(deps, "validate", newValidateCmd),
		cmdutil.V(deps, "migrate", newMigrateCmd),
		cmdutil.V(deps, "check-gate", newCheckGateCmd),
		cmdutil.V(deps, "check-guard", newCheckGuardCmd),
		cmdutil.V(deps, "diff", newDiffCmd),
		cmdutil.V(deps, "schema", newSchemaCmd),
		cmdutil.V(deps, "resolve", newResolveCmd),
	)
}
