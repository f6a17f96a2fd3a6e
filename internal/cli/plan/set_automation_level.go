package plan

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
)

func newSetAutomationLevelCmd(deps *cmdutil.Deps, runF func(*setAutomationProfileOptions) error) *cobra.Command {
	opts := &setAutomationProfileOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "set-automation-level <id> <level>",
		Short: "Deprecated: use set-automation-profile",
		Long: `Deprecated: use 'agents plan set-automation-profile'. The legacy automation
levels map to built-in profiles:
` + levelMapping() + `
The command then does exactly what set-automation-profile does with that
profile, after a deprecation warning on stderr.`,
		Example: `  # Deprecated
  $ agents plan set-automation-level 01jq3v6m4x8b2c7d9e0f1g2h3k full_auto
  # Instead
  $ agents plan set-automation-profile 01jq3v6m4x8b2c7d9e0f1g2h3k full-auto`,
		Args:              cmdutil.NamedArgs("a plan id", "an automation level"),
		ValidArgsFunction: cmdutil.CompleteArgs(deps, cmdutil.PlanIDs, levelList),
		RunE: cmdutil.RunE(opts, runF, setAutomationProfileRun, func(opts *setAutomationProfileOptions, cmd *cobra.Command, args []string) error {
			if err := cmdutil.NonEmpty(cmd, "project"); err != nil {
				return err
			}
			name, err := profileForLevel(args[1], "better, name a profile: agents plan set-automation-profile "+args[0]+" NAME (see 'agents automation-profile list')")
			if err != nil {
				return err
			}
			warnDeprecated(opts.UI, "'agents plan set-automation-level'", "'agents plan set-automation-profile "+args[0]+" "+name+"'")
			opts.id, opts.profile = args[0], name
			return nil
		}),
	}
	projectFlag(cmd, &opts.project)
	return cmd
}
