// Package automationprofile implements the 'agents automation-profile'
// command group.
package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
)

// NewCmd returns the automation-profile command group.
func NewCmd(deps *cmdutil.Deps) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "automation-profile <command>",
		Aliases: []string{"profile", "ap"},
		Short:   "Manage automation profiles",
		Long: `Automation profiles set how much autonomy a plan gets: eleven thresholds in
[0, 1] (0 = automatic, 1 = always ask a person), a composed safety profile of
hard constraints, and optional guards on tool calls. The eight built-ins are
always present; custom profiles are named namespace/name.`,
	}
	cmd.AddCommand(newListCmd(deps, nil))
	cmd.AddCommand(newSchemaCmd(deps, nil))
	return cmd
}
