// Package action implements the 'agents action' command group: register,
// remove, list and show actions, the templates plans are made from.
package action

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
)

// NewCmd returns the action command group.
func NewCmd(deps *cmdutil.Deps) *cobra.Command {
	return cmdutil.Group(deps, "action", &cobra.Command{
		Short: "Manage actions, the templates plans are made from",
		Long: `An action is a template for plans: what is to be done (definition_of_done),
who plans it (strategy_actor) and who carries it out (execution_actor). It may
name the automation profile of its plans and carry a standalone safety
profile, which beats the safety composed in any automation profile, so a plan
that chooses a more autonomous profile keeps the action's safety constraints.

Actions are named namespace/name and stored in
$AGENTS_HOME/actions/<namespace>/<name>.yaml.`,
		Example: `  # Register the example action, then make a plan from it
  $ agents action add -c examples/actions/secure-deploy.yaml
  $ agents plan use local/secure-deploy`,
	},
		cmdutil.V(deps, "add", newAddCmd),
		cmdutil.V(deps, "remove", newRemoveCmd),
		cmdutil.V(deps, "list", newListCmd),
		cmdutil.V(deps, "show", newShowCmd),
	)
}
