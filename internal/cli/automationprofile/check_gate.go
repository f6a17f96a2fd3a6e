package automationprofile

import (
	"github.com/agentsctl/agents/internal/strictyaml"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
)

// Exit codes of the check commands, as in the table in internal/cli: they
// are set here through cmdutil.ExitCodeError after the answer is printed.
const (
	exitApproval = 10
	exitBlocked  = 11
)

// decisionExit ends a check command with the exit code of its verdict.
func decisionExit(v profile.Verdict) error {
	switch v {
	case profile.VerdictNeedsApproval:
		return &cmdutil.ExitCodeError{Code: exitApproval}
	case profile.VerdictBlocked:
		return &cmdutil.ExitCodeError{Code: exitBlocked}
	}
	return nil
}

// decisionSubject is what a decision is taken under: an automation profile,
// the safety profile in force, and the level the profile came from. Naming
// a profile gives its composed safety and no level; a plan supplies all
// three from its recorded resolution.
type decisionSubject struct {
	Profile *profile.AutomationProfile
	Safety  profile.SafetyProfile
	Level   string
}

// subjectForProfile looks up a built-in or stored profile by name.
func subjectForProfile(deps *cmdutil.Deps, name string) (decisionSubject, error) {
	p, err := deps.LookupProfile(name)
	if err != nil {
		return decisionSubject{}, err
	}
	return decisionSubject{Profile: p, Safety: p.Safety}, nil
}

type checkGateOptions struct {
	deps       *cmdutil.Deps
	profile    string
	gate       profile.Gate
	confidence float64
}

func newCheckGateCmd(deps *cmdutil.Deps, runF func(*checkGateOptions) error) *cobra.Command {
	opts := &checkGateOptions{deps: deps}
	var confidence float64
	cmd := &cobra.Command{
		Use:   "check-gate <profile> <gate> --confidence <c>",
		Short: "Decide whether a gate lets a step proceed on its own",
		Long: `Decide whether one of a profile's eleven gates lets a step with the given
confidence proceed without a person.

A threshold of 0 is always automatic and a threshold of 1 always needs
approval; any other threshold is automatic when the confidence exceeds it
(a confidence equal to the threshold needs approval).

The gates: ` + strings.Join(profile.GateNames(), ", ") + `.

The answer names the rule (the gate), the threshold and the confidence;
-f json prints {"allowed", "reason", "requires_approval", "rule", "profile",
"level", "conditions", "threshold", "confidence"}.

EXIT STATUS
  0    automatic: the step may proceed
  10   the step needs a person's approval
  2    usage: an unknown gate, or a confidence missing or outside [0, 1]
  4    the profile does not exist`,
		Example: `  # May a cautious plan enter execution at confidence 0.75?
  $ agents automation-profile check-gate cautious auto_execute --confidence 0.75

  # In a script: branch on the exit code
  $ agents automation-profile check-gate acme/strict auto_apply --confidence 0.99 -f json`,
		Args:              cmdutil.ExactArgs(2, "a profile name and a gate"),
		ValidArgsFunction: cmdutil.CompleteArgs(deps, cmdutil.ProfileNames, cmdutil.GateNames),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.profile = args[0]
			g, err := parseGate(args[1])
			if err != nil {
				return err
			}
			opts.gate = g
			if !cmd.Flags().Changed("confidence") {
				return errs.Usage("missing --confidence").
					WithHint("give the step's confidence, a number from 0 to 1: --confidence 0.8")
			}
			if err := checkConfidence(confidence); err != nil {
				return err
			}
			opts.confidence = confidence
			if runF != nil {
				return runF(opts)
			}
			return checkGateRun(opts)
		},
	}
	cmd.Flags().Float64Var(&confidence, "confidence", 0, "the step's confidence, from 0 to 1 (required)")
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
	if s := strictyaml.Suggest(name, names); s != "" {
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
	subj, err := subjectForProfile(opts.deps, opts.profile)
	if err != nil {
		return err
	}
	d := profile.DecideGate(subj.Profile, opts.gate, opts.confidence)
	if err := opts.deps.Render(render.GateDecisionView{Decision: d, Profile: subj.Profile.Name, Level: subj.Level}); err != nil {
		return err
	}
	return decisionExit(d.Verdict())
}
