package hook

import (
	"slices"

	"github.com/agentsctl/agents/internal/profile"
)

// Kind is what a hook answers.
type Kind uint8

// The answers. Abstain gives no answer at all, which leaves the call to
// the agent's own permission rules.
const (
	Deny Kind = iota
	Ask
	Allow
	Abstain
)

// String returns the answer's name in the agents' protocols.
func (k Kind) String() string {
	switch k {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Abstain:
		return "abstain"
	}
	return "deny"
}

// Options change how a decision becomes an answer.
type Options struct {
	// Abstain gives no answer, instead of ask, when the only thing that
	// stands between the call and an allow is the profile's
	// auto_decisions_execute threshold, and the agent's own mode still
	// asks a person (ModeAsks). Nothing else ever abstains.
	Abstain bool
	// ModeAsks is true when the agent's permission mode, as its input
	// stated, still asks a person about calls it has no rule for.
	ModeAsks bool
}

// Answer is what a hook answers for one call, before the protocol
// encodes it.
type Answer struct {
	Kind Kind
	// Rule is the rule that decided: a guard rule, or
	// ThresholdRule when the threshold asked.
	Rule string
	// Why is the reason, in words, without the rule and the profile.
	Why string
}

// ThresholdRule is the rule of an ask that comes from the profile's
// auto_decisions_execute threshold: a hook has no confidence to compare
// with it, so only a threshold of 0 lets a call go ahead alone.
const ThresholdRule = "auto_decisions_execute"

// Decide turns a guard decision under p into a hook's answer:
//
//   - blocked by the safety profile: deny;
//   - a guard or require_human_approval asks: ask;
//   - nothing blocks or asks, but p's auto_decisions_execute is above 0:
//     ask (or, with Options.Abstain where the agent itself still asks, no
//     answer);
//   - otherwise: allow.
func Decide(r profile.GuardResult, p *profile.AutomationProfile, opts Options) Answer {
	switch r.Verdict {
	case profile.VerdictAllowed:
	case profile.VerdictNeedsApproval:
		return Answer{Kind: Ask, Rule: string(r.Rule), Why: r.Reason()}
	default:
		// Blocked, and any verdict this code does not know: only an
		// explicit allowed goes further.
		return Answer{Kind: Deny, Rule: string(r.Rule), Why: r.Reason()}
	}
	if t := p.AutoDecisionsExecute; t > 0 {
		a := Answer{Kind: Ask, Rule: ThresholdRule,
			Why: "the profile's auto_decisions_execute threshold is " + profile.FormatNumber(t) +
				", and a hook has no confidence that could exceed it"}
		if opts.Abstain && opts.ModeAsks {
			a.Kind = Abstain
		}
		return a
	}
	return Answer{Kind: Allow, Rule: string(r.Rule), Why: "nothing in the profile stops or questions this call"}
}

// Encode writes the answer as agent's protocol carries it, for a call
// made in the permission mode the input stated (mode), or returns nil for
// no output (exit 0 with nothing on stdout). See Effective.
func Encode(agent, mode string, a Answer, reason string) ([]byte, error) {
	kind := Effective(agent, mode, a.Kind)
	if kind == Abstain {
		return nil, nil
	}
	return protocols[agent].encode(kind, reason)
}

// Effective returns the answer agent's protocol actually gives for a in
// permission mode mode: what the agent will do. An ask the mode cannot
// put to a person is a deny that says a person's approval is needed; an
// allow a protocol does not understand is no answer.
func Effective(agent, mode string, a Kind) Kind {
	p := protocols[agent]
	switch {
	case a == Ask && !AskReaches(agent, mode):
		return Deny
	case a == Allow && !p.sendsAllow:
		return Abstain
	}
	return a
}

// AskReaches reports whether an ask, answered to agent in permission mode
// mode, reaches a person. A missing or unknown mode does not.
func AskReaches(agent, mode string) bool {
	p := protocols[agent]
	return p != nil && mode != "" && slices.Contains(p.askReaches, mode)
}

// KnownMode reports whether mode is one of the permission modes agent's
// protocol documents.
func KnownMode(agent, mode string) bool {
	p := protocols[agent]
	return p != nil && slices.Contains(p.modes, mode)
}

// PersonTool reports whether tool's permission prompt is itself the
// question its call puts to a person, so that an allow would answer it for
// them.
func PersonTool(agent, tool string) bool {
	p := protocols[agent]
	return p != nil && slices.Contains(p.personTools, tool)
}

// DenyAnswer encodes a deny for a failure that left no decision, where
// the protocol carries one; the caller also exits 2 with the reason on
// stderr, which is what blocks.
func DenyAnswer(agent, reason string) []byte {
	p := protocols[agent]
	if p == nil {
		return nil
	}
	b, err := p.encode(Deny, reason)
	if err != nil {
		return nil
	}
	return b
}

// Unprovable is the answer a hook must give, beyond what the guard
// decided, for the limits of safety and guards that count what a hook
// cannot see: what the plan and the session have spent, and how many
// calls the step has made. A hook is handed one call, with no figures, and
// what it cannot prove counts as reached: a safety cost limit denies every
// call (it is a hard constraint), a guard's limit asks a person. ok is
// false when the profile sets none of them.
func Unprovable(safety profile.SafetyProfile, guards *profile.AutomationGuard) (a Answer, ok bool) {
	switch {
	case safety.MaxCostPerPlan != nil:
		return Answer{Kind: Deny, Rule: string(profile.RuleMaxCostPerPlan),
			Why: "the safety profile limits the plan's cost, and a hook cannot tell what the plan has spent"}, true
	case safety.MaxTotalCost != nil:
		return Answer{Kind: Deny, Rule: string(profile.RuleSafetyMaxTotalCost),
			Why: "the safety profile limits the total cost, and a hook cannot tell what has been spent"}, true
	case guards != nil && guards.MaxToolCallsPerStep != nil:
		return Answer{Kind: Ask, Rule: string(profile.RuleMaxToolCallsPerStep),
			Why: "the profile's guards limit the tool calls of a step, and a hook cannot count them"}, true
	case guards != nil && guards.MaxTotalCost != nil:
		return Answer{Kind: Ask, Rule: string(profile.RuleGuardMaxTotalCost),
			Why: "the profile's guards limit the total cost, and a hook cannot tell what has been spent"}, true
	}
	return Answer{}, false
}

// Supersedes reports whether u, an Unprovable answer, replaces a, the
// answer decided from the call: when it lets less through, or as much but
// by a rule check-guard evaluates before a's, so that the reason names
// the rule the order says decides (a limit a hook cannot count before the
// write approval, the human approval or the threshold that would ask as
// well). A rule outside the guard order (a pack boundary) comes first.
func Supersedes(u, a Answer) bool {
	if Stricter(u.Kind, a.Kind) {
		return true
	}
	if u.Kind != a.Kind {
		return false
	}
	return ruleIndex(u.Rule) < ruleIndex(a.Rule)
}

// ruleIndex is a rule's place in check-guard's order; the threshold a
// hook asks by comes after every guard rule, and a rule outside the order
// before them all.
func ruleIndex(rule string) int {
	if rule == ThresholdRule {
		return len(profile.GuardRules)
	}
	if i := slices.Index(profile.GuardRules, profile.Rule(rule)); i >= 0 {
		return i
	}
	return -1
}

// Stricter reports whether a answers less than b lets through: a deny
// before an ask, an ask before no answer or an allow.
func Stricter(a, b Kind) bool { return rank(a) < rank(b) }

func rank(k Kind) int {
	switch k {
	case Deny:
		return 0
	case Ask:
		return 1
	case Abstain:
		return 2
	}
	return 3
}
