package automationprofile

import (
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/registry"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/suggest"
)

// profileOrPlan checks that a check command was given a profile name or
// --plan, not both and not neither, followed by rest more arguments (what
// names them; "" for none). It returns the profile name ("" with --plan)
// and the remaining arguments.
//
// optional allows neither: a hook that resolves its profile.
func profileOrPlan(cmd *cobra.Command, args []string, planID string, rest int, what string, optional bool) (string, []string, error) {
	hint := "usage: " + cmd.UseLine()
	expected := "a profile name"
	withPlan := "no argument"
	if what != "" {
		expected += " and " + what
		withPlan = what
	}
	if cmd.Flags().Changed("plan") {
		if planID == "" {
			return "", nil, errs.Usage("--plan must not be empty").WithHint("give a plan id: see 'agents plan list'")
		}
		switch {
		case len(args) == rest+1:
			return "", nil, errs.Usage("give a profile name or --plan, not both").
				WithHint("--plan decides under the plan's recorded profiles; drop %q", args[0])
		case len(args) != rest:
			return "", nil, errs.Usage("with --plan, expected %s, got %d arguments", withPlan, len(args)).WithHint("%s", hint)
		}
		return "", args, nil
	}
	if optional && len(args) == rest {
		return "", args, nil
	}
	switch {
	case len(args) == 1 && rest == 1:
		// One argument where a profile and a gate are wanted: say which
		// of the two is missing.
		if _, ok := profile.LookupGate(args[0]); ok {
			return "", nil, errs.Usage("missing a profile name before the gate %s", args[0]).
				WithHint("name the profile first, or give --plan <id>: %s %s %s --confidence 0.8",
					cmd.CommandPath(), "cautious", args[0])
		}
		return "", nil, errs.Usage("missing %s after the profile name %s", what, args[0]).
			WithHint("the gates are %s", strings.Join(profile.GateNames(), ", "))
	case len(args) < rest+1:
		return "", nil, errs.Usage("missing %s (or --plan <id>)", expected).WithHint("%s", hint)
	case len(args) > rest+1 && rest == 0 && cmd.Flags().Changed("hook"):
		// A hook reads the tool call from the agent's input.
		return "", nil, errs.Usage("too many arguments: expected %s, got %d arguments", expected, len(args)).
			WithHint("a hook reads the tool call from standard input: %s %s --hook AGENT", cmd.CommandPath(), args[0])
	case len(args) > rest+1 && rest == 0:
		// check-guard takes the tool call in flags, not arguments.
		return "", nil, errs.Usage("too many arguments: expected %s, got %d arguments", expected, len(args)).
			WithHint("the tool is given with --tool: %s %s --tool %s", cmd.CommandPath(), args[0], args[1])
	case len(args) > rest+1:
		return "", nil, errs.Usage("too many arguments: expected %s, got %d arguments", expected, len(args)).WithHint("%s", hint)
	}
	if args[0] == "" {
		// An empty name is a name that is not valid, never "no profile":
		// that would resolve from the working folder, as only a hook does.
		return "", nil, registry.CheckProfileName(args[0])
	}
	return args[0], args[1:], nil
}

type checkGateOptions struct {
	cmdutil.Run
	profile    string
	plan       string
	gate       profile.Gate
	confidence float64
}

func newCheckGateCmd(deps *cmdutil.Deps, runF func(*checkGateOptions) error) *cobra.Command {
	opts := &checkGateOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "check-gate (<profile> | --plan <id>) <gate> --confidence <c>",
		Short: "Decide whether a gate lets a step proceed on its own",
		Long: `Decide whether one of a profile's eleven gates lets a step with the given
confidence proceed without a person.

A threshold of 0 is always automatic and a threshold of 1 always needs
approval; any other threshold is automatic when the confidence exceeds it
(a confidence equal to the threshold needs approval). A safety profile
that requires human approval needs it at every gate, whatever the
threshold (rule safety.require_human_approval). The safety pack in force
is verified first.

The gates: auto_strategize, auto_execute, auto_apply,
auto_decisions_strategize, auto_decisions_execute, auto_validation_fix,
auto_strategy_revision, auto_reversion_from_apply, auto_child_plans,
auto_retry_transient, auto_checkpoint_restore.

With --plan ID in place of a profile name, the gate is the one the plan
recorded: the snapshot of its automation profile taken when it was resolved,
whatever has changed since; "level" says which level that profile came from.

The answer names the rule (the gate), the threshold and the confidence;
-f json prints {"allowed", "reason", "requires_approval", "rule", "profile",
"level", "plan", "warnings", "safety_level", "safety_source", "conditions",
"threshold", "confidence"}, every key always present (null or [] where it
does not apply; safety_level and safety_source say, for a plan, where its
safety profile came from; conditions, when the step may proceed, are what
its safety profile still asks: sandbox, checkpoint_before_write).

EXIT STATUS
  0    automatic: the step may proceed
  10   the step needs a person's approval
  11   blocked by a boundary of the safety pack in enforce mode (rule
       pack.<boundary_id>); no approval unblocks it
  2    usage: an unknown gate, or a confidence missing, outside [0, 1]
       or given twice; a profile name and --plan together; a plan id
       prefix that more than one plan begins with
  3    a profile name that is neither a built-in nor namespace/name, or a
       --plan that is not a plan id nor the start of one; the plan's
       record does not match its snapshots (edited by hand); a store
       folder or file that another user owns or anyone can write
  4    the profile, the plan, or the plan's snapshot does not exist
  6    the safety pack in force was refused`,
		Example: `  # May a cautious plan enter execution at confidence 0.75?
  $ agents automation-profile check-gate cautious auto_execute --confidence 0.75

  # In a script: branch on the exit code
  $ agents automation-profile check-gate acme/strict auto_apply --confidence 0.99 -f json

  # Under what a plan recorded
  $ agents automation-profile check-gate --plan 01jq3v6m4x8b2c7d9e0f1g2h3k auto_apply --confidence 0.9`,
		Args: cobra.ArbitraryArgs,
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if cmd.Flags().Changed("plan") {
				return cmdutil.CompleteArgs(deps, cmdutil.GateNames)(cmd, args, toComplete)
			}
			return cmdutil.CompleteArgs(deps, cmdutil.ProfileNames, cmdutil.GateNames)(cmd, args, toComplete)
		},
		RunE: cmdutil.RunE(opts, runF, checkGateRun, func(opts *checkGateOptions, cmd *cobra.Command, args []string) error {
			name, rest, err := profileOrPlan(cmd, args, opts.plan, 1, "a gate", false)
			if err != nil {
				return err
			}
			opts.profile = name
			g, err := parseGate(rest[0])
			if err != nil {
				return err
			}
			opts.gate = g
			if !cmd.Flags().Changed("confidence") {
				return errs.Usage("missing --confidence").
					WithHint("give the step's confidence, a number from 0 to 1: --confidence 0.8")
			}
			return checkConfidence(opts.confidence)
		}),
	}
	cmd.Flags().Float64Var(&opts.confidence, "confidence", 0, "the step's confidence, from 0 to 1 (required)")
	cmdutil.NameFlag(cmd, deps, &opts.plan, "plan", "decide under a plan's recorded profiles instead of a named profile", cmdutil.PlanIDs)
	cmdutil.Decimal(cmd.Flags(), "confidence")
	cmdutil.Once(cmd.Flags(), "confidence", "plan")
	return cmd
}

// parseGate returns the gate called name, or a usage error that lists the
// gates and suggests the nearest one.
func parseGate(name string) (profile.Gate, error) {
	if g, ok := profile.LookupGate(name); ok {
		return g, nil
	}
	names := profile.GateNames()
	e := errs.Usage("unknown gate %q", name)
	if s := suggest.Key(name, names); s != "" {
		return profile.Gate{}, e.WithHint("did you mean %q? The gates are: %s", s, strings.Join(names, ", "))
	}
	return profile.Gate{}, e.WithHint("the gates are: %s", strings.Join(names, ", "))
}

func checkConfidence(c float64) error {
	if math.IsNaN(c) || c < 0 || c > 1 {
		return errs.Usage("--confidence must be a number from 0 to 1, got %s", strconv.FormatFloat(c, 'g', -1, 64)).
			WithHint("give the step's confidence as a fraction: 0.8, not 80")
	}
	return nil
}

func checkGateRun(opts *checkGateOptions) error {
	subj, err := opts.Reg.Subject(registry.Under{Profile: opts.profile, Plan: opts.plan})
	if err != nil {
		return err
	}
	// -0 is 0: the answer says 0, not a confidence below zero.
	d := subj.Gate(opts.gate, opts.confidence+0)
	view := render.GateDecisionView{Decision: d, Profile: subj.Profile.Name, Level: subj.Level, Plan: subj.Plan,
		SafetyLevel: subj.SafetyLevel, SafetySource: subj.SafetySource, Warnings: subj.Warnings()}
	if err := opts.UI.Render(view); err != nil {
		return err
	}
	return d.Verdict().Err()
}
