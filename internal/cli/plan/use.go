package plan

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/registry"
	"github.com/agentsctl/agents/internal/render"
)

type useOptions struct {
	cmdutil.Run
	// choices are the registry's input: the plan's own profiles, its
	// action and its project folder.
	choices registry.Choices
}

func newUseCmd(deps *cmdutil.Deps, runF func(*useOptions) error) *cobra.Command {
	opts := &useOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "use <action> [--automation-profile <name>] [--safety-profile <file>] [--project <dir>]",
		Short: "Make a plan from an action and record its profiles",
		Long: `Make a plan from an action: resolve its automation profile and safety profile
now, record both with a snapshot of each (sha256), and print the plan's id
and its resolution.

--automation-profile and --safety-profile are the plan level, the most
specific: they beat what the action, the project and the global configuration
set. The plan stores the content of --safety-profile, not its path ("-" reads
it from standard input). The project level is the agents.yaml in the working
directory or its nearest ancestor; --project DIR looks from DIR instead.

--automation-level L is deprecated: it maps
` + levelMapping() + `and warns on stderr.

EXIT STATUS
  0    the plan was made
  2    usage: --automation-level with --automation-profile, an unknown
       level, a flag given an empty value
  3    invalid input: the safety profile file (or a FIFO, device or folder
       in its place), agents.yaml or config.yaml; an invalid action or
       profile name; a store folder or file that another user owns or
       anyone can write
  4    not found: the action, a profile a level names, the safety profile file
  6    the safety pack in force was refused`,
		Example: `  # Resolve from the action, the project and the global configuration
  $ agents plan use local/secure-deploy

  # Choose the automation profile for this plan alone; the action's
  # standalone safety profile still applies
  $ agents plan use local/secure-deploy --automation-profile full-auto

  # The new plan's id, in a script
  $ id=$(agents plan use local/secure-deploy -f json | jq -r .id)`,
		Args:              cmdutil.ExactArgs(1, "an action name"),
		ValidArgsFunction: cmdutil.CompleteFromList(deps, cmdutil.ActionNames),
		RunE: cmdutil.RunE(opts, runF, useRun, func(opts *useOptions, cmd *cobra.Command, args []string) error {
			opts.choices.Action = args[0]
			if cmd.Flags().Changed("automation-level") {
				if cmd.Flags().Changed("automation-profile") {
					return errs.Usage("--automation-level cannot be combined with --automation-profile").
						WithHint("--automation-level is deprecated: give --automation-profile alone")
				}
				level, _ := cmd.Flags().GetString("automation-level")
				name, err := profileForLevel(level, "better, name a profile with --automation-profile (see 'agents automation-profile list')")
				if err != nil {
					return err
				}
				warnDeprecated(opts.UI, "--automation-level", "--automation-profile "+name)
				opts.choices.AutomationProfile = name
			}
			return cmdutil.NonEmpty(cmd, "automation-profile", "safety-profile", "project")
		}),
	}
	cmdutil.ChoiceFlags(cmd, deps, &opts.choices,
		"the plan's automation profile (beats every other level)",
		"a standalone safety profile file for the plan (beats every other level)")
	cmd.Flags().String("automation-level", "", "deprecated: "+levelNames()+"; use --automation-profile")
	_ = cmd.RegisterFlagCompletionFunc("automation-level", cmdutil.CompleteFlag(deps, levelList))
	return cmd
}

func useRun(opts *useOptions) error {
	res, err := cmdutil.ResolveChoices(opts.UI, &opts.choices, opts.Reg.UsePlan)
	if err != nil {
		return err
	}
	return renderResolution(opts.UI, "created", res)
}

// renderResolution prints what a verb that resolves a plan did to it: done
// ("created", "updated"), or unchanged when the plan resolved again to
// exactly what it records and nothing was written.
func renderResolution(ui *cmdutil.UI, done string, res registry.Resolution) error {
	verb := done
	if res.Unchanged {
		verb = render.Unchanged
	}
	return ui.RenderChange(render.PlanChange(verb, res.Plan, res.Loosened))
}
