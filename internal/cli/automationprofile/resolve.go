package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/registry"
	"github.com/agentsctl/agents/internal/render"
)

type resolveOptions struct {
	cmdutil.Run
	// choices are the registry's input: the plan's own profiles, its
	// action and its project folder.
	choices registry.Choices
}

func newResolveCmd(deps *cmdutil.Deps, runF func(*resolveOptions) error) *cobra.Command {
	opts := &resolveOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "resolve [--action <name>] [--project <dir>] [--automation-profile <name>] [--safety-profile <file>]",
		Short: "Show which profiles a plan would get here, and why",
		Long: `Resolve the automation profile and the safety profile as 'plan use' would,
without making a plan, and print the answer with the trace of what each level
set: plan > action > project > global, then the system default, review.

--automation-profile and --safety-profile stand for the plan's own choices
(--safety-profile - reads standard input); --action names the action (without
it, the action level sets nothing). The project level is the agents.yaml in
the working directory or its nearest ancestor, or from --project DIR; the
global level is $AGENTS_HOME/config.yaml.

A standalone safety profile replaces the safety composed in the automation
profile whole. When it is looser on any field (a requirement dropped, unsafe
tools allowed, skill categories widened, a cost limit raised or removed,
more retries), the output says so (safety_loosened) and a warning names
each field.

EXIT STATUS
  0    resolved
  2    usage: a flag given an empty value
  3    invalid input: a profile or action name that is not valid; the
       safety profile file (or a FIFO, device or folder in its place),
       agents.yaml or config.yaml,
       or one of them owned or writable by someone else; a store folder or
       file that another user owns or anyone can write
  4    not found: the action, a profile a level names, a file
  6    the safety pack in force was refused, or refuses what resolved
       (as plan use would)`,
		Example: `  # Why would a plan made here get the profile it gets?
  $ agents automation-profile resolve

  # For an action, from another project
  $ agents automation-profile resolve --action local/secure-deploy --project ~/src/shop`,
		Args:              cmdutil.ExactArgs(0, "no arguments"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: cmdutil.RunE(opts, runF, resolveRun, func(_ *resolveOptions, cmd *cobra.Command, _ []string) error {
			return cmdutil.NonEmpty(cmd, "automation-profile", "safety-profile", "project", "action")
		}),
	}
	cmdutil.ChoiceFlags(cmd, deps, &opts.choices, "the plan's own automation profile", "the plan's own standalone safety profile file")
	cmdutil.NameFlag(cmd, deps, &opts.choices.Action, "action", "the action a plan would be made from", cmdutil.ActionNames)
	return cmd
}

func resolveRun(opts *resolveOptions) error {
	res, err := cmdutil.ResolveChoices(opts.UI, &opts.choices, opts.Reg.Resolve)
	if err != nil {
		return err
	}
	return opts.UI.Render(render.ResolutionView{Action: opts.choices.Action, Result: res.Plan, Loosened: res.Loosened})
}
