// Package safetyprofile implements the 'agents safety-profile' command
// group: check and show standalone safety profiles, the files that actions,
// projects, the global configuration and 'plan use --safety-profile' carry.
package safetyprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
)

// NewCmd returns the safety-profile command group.
func NewCmd(deps *cmdutil.Deps) *cobra.Command {
	return cmdutil.Group(deps, "safety-profile", &cobra.Command{
		Short: "Check and show standalone safety profiles",
		Long: `A safety profile holds the hard constraints of a plan: sandbox and checkpoint
requirements, unsafe tools, human approval, the skill categories allowed, and
limits on cost and retries. Every automation profile composes one under
safety:. A standalone safety profile (a YAML mapping of those eight fields, on
an action, in agents.yaml or config.yaml, or given to 'plan use
--safety-profile') beats the composed one.

A field a file leaves out takes its default: require_sandbox true,
require_checkpoints true, allow_unsafe_tools false, require_human_approval
false, allowed_skill_categories [] (all), max_cost_per_plan null,
max_total_cost null, max_retries_per_step 3.`,
		Example: `  $ agents safety-profile validate examples/safety-profiles/*.yaml
  $ agents safety-profile show examples/safety-profiles/deploy.yaml -f json`,
	},
		cmdutil.V(deps, "validate", newValidateCmd),
		cmdutil.V(deps, "show", newShowCmd),
	)
}
