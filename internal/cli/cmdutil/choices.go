package cmdutil

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/registry"
)

// ChoiceFlags gives cmd the flags of a plan's own choices, into c:
// --automation-profile (completed with the profile names), --safety-profile
// (a YAML file) and --project (a folder). 'plan use' and 'automation-profile
// resolve' take the same choices; only what the two profile flags mean to
// each differs, so their help texts are given.
func ChoiceFlags(cmd *cobra.Command, deps *Deps, c *registry.Choices, profileHelp, safetyHelp string) {
	NameFlag(cmd, deps, &c.AutomationProfile, "automation-profile", profileHelp, ProfileNames)
	cmd.Flags().StringVar(&c.SafetyProfileFile, "safety-profile", "", safetyHelp)
	cmd.Flags().StringVar(&c.Project, "project", "", "look for agents.yaml from this folder instead of the working directory")
	_ = cmd.MarkFlagFilename("safety-profile", "yaml", "yml")
	_ = cmd.MarkFlagDirname("project")
}
