package profile

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
)

// Decisions are asked at run time, once per gate and once per tool call, so
// both are allocation-free: a result holds the figures it was decided on and
// formats its reason only when asked (Reason), which is when it is rendered.

// Verdict is the outcome of a decision.
type Verdict uint8

// The three verdicts. A verdict that needs approval can be unblocked by a
// person; a blocked one cannot.
const (
	VerdictAllowed Verdict = iota
	VerdictNeedsApproval
	VerdictBlocked
)

// String returns the verdict's lower-case name.
func (v Verdict) String() string {
	switch v {
	case VerdictAllowed:
		return "allowed"
	case VerdictNeedsApproval:
		return "needs approval"
	case VerdictBlocked:
		return "blocked"
	}
	return "unknown"
}

// Err is nil for an allowed verdict, and otherwise the errs.Decision a
// command returns after printing the answer, whose kind sets the exit
// status: KindApproval or KindBlocked.
func (v Verdict) Err() error {
	switch v {
	case VerdictNeedsApproval:
		return &errs.Decision{Kind: errs.KindApproval}
	case VerdictBlocked:
		return &errs.Decision{Kind: errs.KindBlocked}
	}
	return nil
}

// GateAutomatic reports whether a gate with the given threshold lets a step
// with the given confidence proceed on its own: a threshold of 0 always
// does, a threshold of 1 never does, and any other threshold does when the
// confidence exceeds it. A NaN confidence exceeds nothing.
func GateAutomatic(threshold, confidence float64) bool {
	switch {
	case threshold == 0:
		return true
	case threshold == 1:
		return false
	}
	return confidence > threshold
}

// GateDecision is the answer to "may this gate pass on its own?".
type GateDecision struct {
	// Gate is the threshold's name, which is also the rule that decided
	// unless the safety profile did (HumanApproval).
	Gate       string
	Threshold  float64
	Confidence float64
	// HumanApproval is true when the safety profile in force requires a
	// person's approval for every step, whatever the threshold says.
	HumanApproval bool
	// BlockRule and BlockReason are set when a rule outside the profile
	// (a boundary of the safety pack) refuses the step outright.
	BlockRule   string
	BlockReason string
	// Automatic is true when the step may proceed without a person.
	Automatic bool
	// Conditions are what the caller must still ensure when the step
	// goes ahead alone: a sandbox where the safety profile requires one,
	// and a checkpoint before any write where it requires checkpoints (a
	// gate cannot tell whether the step writes). None otherwise.
	Conditions Conditions
}

// DecideGateUnder decides gate under p's threshold and the safety profile
// in force, which a plan may have resolved from another level. A safety
// profile that requires human approval needs it at every gate: a
// threshold only says when a step may go ahead on its own, and the safety
// profile says it never may.
func DecideGateUnder(p *AutomationProfile, safety SafetyProfile, gate Gate, confidence float64) GateDecision {
	t := gate.Value(p)
	d := GateDecision{Gate: gate.Name, Threshold: t, Confidence: confidence, HumanApproval: safety.RequireHumanApproval}
	d.Automatic = !d.HumanApproval && GateAutomatic(t, confidence)
	if d.Automatic {
		if safety.RequireSandbox {
			d.Conditions |= ConditionSandbox
		}
		if safety.RequireCheckpoints {
			d.Conditions |= ConditionCheckpointBeforeWrite
		}
	}
	return d
}

// Blocked returns d refused outright by rule, for reason: a boundary of
// the safety pack that the profile violates. No approval unblocks it.
func (d GateDecision) Blocked(rule, reason string) GateDecision {
	d.BlockRule, d.BlockReason, d.Automatic, d.Conditions = rule, reason, false, 0
	return d
}

// Rule is the rule that decided: the blocking rule, or
// safety.require_human_approval when the safety profile decided, else the
// gate's name.
func (d GateDecision) Rule() string {
	if d.BlockRule != "" {
		return d.BlockRule
	}
	if d.HumanApproval {
		return string(RuleRequireHumanApproval)
	}
	return d.Gate
}

// Verdict returns VerdictAllowed or VerdictNeedsApproval: a gate that does
// not pass can always be passed by a person.
func (d GateDecision) Verdict() Verdict {
	switch {
	case d.BlockRule != "":
		return VerdictBlocked
	case d.Automatic:
		return VerdictAllowed
	}
	return VerdictNeedsApproval
}

// Reason explains why the gate needs approval, or returns "" when it passes.
func (d GateDecision) Reason() string {
	switch {
	case d.BlockRule != "":
		return d.BlockReason
	case d.Automatic:
		return ""
	case d.HumanApproval:
		return humanApprovalReason
	case d.Threshold == 1:
		return "the " + d.Gate + " threshold is 1.0, so this step always needs a person's approval"
	}
	return "confidence " + formatNumber(d.Confidence) + " does not exceed the " + d.Gate +
		" threshold of " + formatNumber(d.Threshold)
}

const humanApprovalReason = "the safety profile requires a person's approval for every step"

// Rule identifies the rule that decided a guard question. The identifiers
// are stable: scripts and hooks may match on them.
type Rule string

// The guard rules, in the order CheckGuard evaluates them.
const (
	RuleRequireSandbox         Rule = "safety.require_sandbox"
	RuleAllowUnsafeTools       Rule = "safety.allow_unsafe_tools"
	RuleAllowedSkillCategories Rule = "safety.allowed_skill_categories"
	RuleMaxRetriesPerStep      Rule = "safety.max_retries_per_step"
	RuleRequireCheckpoints     Rule = "safety.require_checkpoints"
	RuleMaxCostPerPlan         Rule = "safety.max_cost_per_plan"
	RuleSafetyMaxTotalCost     Rule = "safety.max_total_cost"
	RuleToolDenylist           Rule = "guards.tool_denylist"
	RuleToolAllowlist          Rule = "guards.tool_allowlist"
	RuleMaxToolCallsPerStep    Rule = "guards.max_tool_calls_per_step"
	RuleGuardMaxTotalCost      Rule = "guards.max_total_cost"
	RuleApprovalForWrites      Rule = "guards.require_approval_for_writes"
	RuleApprovalForApply       Rule = "guards.require_approval_for_apply"
	RuleRequireHumanApproval   Rule = "safety.require_human_approval"
	RuleDefault                Rule = "default"
)

// GuardRules lists every guard rule in evaluation order.
var GuardRules = []Rule{
	RuleRequireSandbox, RuleAllowUnsafeTools, RuleAllowedSkillCategories, RuleMaxRetriesPerStep,
	RuleRequireCheckpoints, RuleMaxCostPerPlan, RuleSafetyMaxTotalCost,
	RuleToolDenylist, RuleToolAllowlist, RuleMaxToolCallsPerStep, RuleGuardMaxTotalCost,
	RuleApprovalForWrites, RuleApprovalForApply,
	RuleRequireHumanApproval, RuleDefault,
}

// ApplyTool is the tool name that stands for the apply phase; guards'
// require_approval_for_apply gates it.
const ApplyTool = "__apply__"

// GuardInput describes one tool call. The zero value of each field means
// the caller stated nothing about it, and is the harmless reading: no calls
// made yet, nothing spent, no write, a safe tool, the first attempt.
type GuardInput struct {
	// Tool is the name of the tool to be called, matched exactly.
	Tool string
	// Calls is how many tool calls the step has made before this one.
	Calls int
	// Cost is what this invocation has spent so far, in USD.
	Cost float64
	// PlanCost is what the plan has spent so far, in USD. It includes Cost,
	// so it is never taken as less than Cost; when HasPlanCost is false it
	// is taken as Cost.
	PlanCost    float64
	HasPlanCost bool
	// TotalCost is what all plans have spent, in USD. It includes the plan's
	// cost, so it is never taken as less than that; when HasTotalCost is
	// false it is taken as the plan's cost.
	TotalCost    float64
	HasTotalCost bool
	// Write is true when the call writes (files, state, anything outside).
	Write bool
	// Unsafe is true when the tool is flagged unsafe.
	Unsafe bool
	// Category is the skill category of the call; "" when none is stated.
	Category string
	// Attempt counts tries of the step, the first being 1; 0 means 1.
	Attempt int
	// NoSandbox is true when the call would run outside a sandbox.
	NoSandbox bool
	// NoCheckpoint is true when no checkpoint would be taken before a write.
	NoCheckpoint bool
}

// EffectivePlanCost is the plan cost the decision uses: the stated plan
// cost, but never less than the invocation's cost, which it includes.
func (in GuardInput) EffectivePlanCost() float64 {
	if in.HasPlanCost {
		return math.Max(in.PlanCost, in.Cost)
	}
	return in.Cost
}

// EffectiveTotalCost is the cost of all plans the decision uses: the stated
// total, but never less than the plan's cost, which it includes.
func (in GuardInput) EffectiveTotalCost() float64 {
	plan := in.EffectivePlanCost()
	if in.HasTotalCost {
		return math.Max(in.TotalCost, plan)
	}
	return plan
}

// EffectiveAttempt is the attempt number the decision uses: 1 when unstated.
func (in GuardInput) EffectiveAttempt() int {
	if in.Attempt < 1 {
		return 1
	}
	return in.Attempt
}

// Conditions is a set of things the caller must still ensure when a call is
// allowed.
type Conditions uint8

// The conditions an allowed call can carry.
const (
	// ConditionSandbox: run the call in a sandbox.
	ConditionSandbox Conditions = 1 << iota
	// ConditionCheckpointBeforeWrite: take a checkpoint before the write.
	ConditionCheckpointBeforeWrite
)

// Has reports whether c includes every condition in x.
func (c Conditions) Has(x Conditions) bool { return c&x == x }

// Names returns the conditions' stable names (sandbox,
// checkpoint_before_write) in that order; an empty, non-nil slice when
// there are none.
func (c Conditions) Names() []string {
	out := []string{}
	if c.Has(ConditionSandbox) {
		out = append(out, "sandbox")
	}
	if c.Has(ConditionCheckpointBeforeWrite) {
		out = append(out, "checkpoint_before_write")
	}
	return out
}

// GuardResult is the answer to "may this tool call proceed?", naming the
// rule that decided it.
type GuardResult struct {
	Verdict Verdict
	// Rule is the first rule that matched, or RuleDefault.
	Rule Rule
	// Conditions are what the caller must still ensure; set only when the
	// call is allowed.
	Conditions Conditions

	// The figures the reason is written from; external is the reason of
	// a rule outside the profile (BlockedBy).
	external   string
	in         GuardInput
	limit      float64
	limitCount int
	categories []string
}

// Allowed reports whether the call may proceed on its own.
func (r GuardResult) Allowed() bool { return r.Verdict == VerdictAllowed }

// RequiresApproval reports whether a person can unblock the call (it is not
// allowed, but approval would allow it).
func (r GuardResult) RequiresApproval() bool { return r.Verdict == VerdictNeedsApproval }

// Input returns the call the result was decided for.
func (r GuardResult) Input() GuardInput { return r.in }

// CheckGuard decides whether one tool call may proceed under the automation
// profile p and the safety profile in force. The safety profile is separate
// because a plan can carry a standalone one that beats p.Safety.
//
// Rules are evaluated in a fixed order and the first that matches decides:
// first the safety profile's hard constraints (blocked), then p's guards in
// the specification's order (approval), then require_human_approval
// (approval); otherwise the call is allowed. A limit is reached when the
// figure equals or exceeds it.
func CheckGuard(p *AutomationProfile, safety SafetyProfile, in GuardInput) (r GuardResult) {
	r.in = in

	if safety.RequireSandbox && in.NoSandbox {
		r.Verdict, r.Rule = VerdictBlocked, RuleRequireSandbox
		return r
	}
	if in.Unsafe && !safety.AllowUnsafeTools {
		r.Verdict, r.Rule = VerdictBlocked, RuleAllowUnsafeTools
		return r
	}
	if cats := safety.AllowedSkillCategories; len(cats) > 0 && (in.Category == "" || !slices.Contains(cats, in.Category)) {
		r.categories = cats
		r.Verdict, r.Rule = VerdictBlocked, RuleAllowedSkillCategories
		return r
	}
	if in.EffectiveAttempt() > safety.MaxRetriesPerStep+1 {
		r.limitCount = safety.MaxRetriesPerStep
		r.Verdict, r.Rule = VerdictBlocked, RuleMaxRetriesPerStep
		return r
	}
	if safety.RequireCheckpoints && in.Write && in.NoCheckpoint {
		r.Verdict, r.Rule = VerdictBlocked, RuleRequireCheckpoints
		return r
	}
	if c := safety.MaxCostPerPlan; c != nil && in.EffectivePlanCost() >= *c {
		r.limit = *c
		r.Verdict, r.Rule = VerdictBlocked, RuleMaxCostPerPlan
		return r
	}
	if c := safety.MaxTotalCost; c != nil && in.EffectiveTotalCost() >= *c {
		r.limit = *c
		r.Verdict, r.Rule = VerdictBlocked, RuleSafetyMaxTotalCost
		return r
	}

	if p != nil && p.Guards != nil {
		g := p.Guards
		if slices.Contains(g.ToolDenylist, in.Tool) {
			r.Verdict, r.Rule = VerdictNeedsApproval, RuleToolDenylist
			return r
		}
		if g.ToolAllowlist != nil && !slices.Contains(g.ToolAllowlist, in.Tool) {
			r.Verdict, r.Rule = VerdictNeedsApproval, RuleToolAllowlist
			return r
		}
		if c := g.MaxToolCallsPerStep; c != nil && in.Calls >= *c {
			r.limitCount = *c
			r.Verdict, r.Rule = VerdictNeedsApproval, RuleMaxToolCallsPerStep
			return r
		}
		if c := g.MaxTotalCost; c != nil && in.Cost >= *c {
			r.limit = *c
			r.Verdict, r.Rule = VerdictNeedsApproval, RuleGuardMaxTotalCost
			return r
		}
		if g.RequireApprovalForWrites && in.Write {
			r.Verdict, r.Rule = VerdictNeedsApproval, RuleApprovalForWrites
			return r
		}
		if g.RequireApprovalForApply && in.Tool == ApplyTool {
			r.Verdict, r.Rule = VerdictNeedsApproval, RuleApprovalForApply
			return r
		}
	}

	if safety.RequireHumanApproval {
		r.Verdict, r.Rule = VerdictNeedsApproval, RuleRequireHumanApproval
		return r
	}

	r.Verdict, r.Rule = VerdictAllowed, RuleDefault
	if safety.RequireSandbox {
		r.Conditions |= ConditionSandbox
	}
	if safety.RequireCheckpoints && in.Write {
		r.Conditions |= ConditionCheckpointBeforeWrite
	}
	return r
}

// BlockedBy returns the result of a call refused outright by a rule
// outside the profile, such as a boundary of the safety pack that the
// profile violates, with that rule's reason.
func BlockedBy(rule Rule, reason string, in GuardInput) GuardResult {
	return GuardResult{Verdict: VerdictBlocked, Rule: rule, external: reason, in: in}
}

// Reason explains, naming the figures, why the call is blocked or needs
// approval; it returns "" when the call is allowed.
func (r GuardResult) Reason() string {
	if r.external != "" {
		return r.external
	}
	in := r.in
	switch r.Rule {
	case RuleRequireSandbox:
		return "the safety profile requires a sandbox, and this call would run without one"
	case RuleAllowUnsafeTools:
		return "tool " + strconv.Quote(in.Tool) + " is flagged unsafe, and the safety profile does not allow unsafe tools"
	case RuleAllowedSkillCategories:
		allowed := quoteAll(r.categories)
		if in.Category == "" {
			return "no skill category was stated, and the safety profile allows only " + allowed
		}
		return "skill category " + strconv.Quote(in.Category) + " is not allowed; the safety profile allows only " + allowed
	case RuleMaxRetriesPerStep:
		return "attempt " + strconv.Itoa(in.EffectiveAttempt()) + " is beyond the limit of " +
			plural(r.limitCount, "retry", "retries") + " per step (" +
			plural(r.limitCount+1, "attempt", "attempts") + " in all)"
	case RuleRequireCheckpoints:
		return "the safety profile requires a checkpoint before a write, and this write would have none"
	case RuleMaxCostPerPlan:
		return "the plan's cost of " + costPhrase(in.EffectivePlanCost(), !in.HasPlanCost || in.PlanCost < in.Cost) +
			" reached the safety limit of " + usd(r.limit) + " per plan"
	case RuleSafetyMaxTotalCost:
		derived := !in.HasTotalCost || in.TotalCost < in.EffectivePlanCost()
		return "the total cost of " + costPhrase(in.EffectiveTotalCost(), derived) +
			" across all plans reached the safety limit of " + usd(r.limit)
	case RuleToolDenylist:
		return "tool " + strconv.Quote(in.Tool) + " is on the profile's denylist"
	case RuleToolAllowlist:
		return "tool " + strconv.Quote(in.Tool) + " is not on the profile's allowlist"
	case RuleMaxToolCallsPerStep:
		return plural(in.Calls, "call", "calls") + " reached the limit of " + strconv.Itoa(r.limitCount) + " per step"
	case RuleGuardMaxTotalCost:
		return "a cost of " + usd(in.Cost) + " reached the profile's budget of " + usd(r.limit)
	case RuleApprovalForWrites:
		return "the profile requires approval for writes, and this call writes"
	case RuleApprovalForApply:
		return "the profile requires approval before apply (tool " + strconv.Quote(ApplyTool) + ")"
	case RuleRequireHumanApproval:
		return humanApprovalReason
	}
	return ""
}

func costPhrase(v float64, atLeast bool) string {
	if atLeast {
		return "at least " + usd(v)
	}
	return usd(v)
}

func usd(v float64) string { return formatNumber(v) + " USD" }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// FormatNumber writes a number as profiles show it: in its shortest form
// with at least one decimal (1.0, 0.7, 12.5).
func FormatNumber(f float64) string { return formatNumber(f) }

// formatNumber writes a number in its shortest form with at least one
// decimal (1.0, 0.7, 12.5), the way thresholds and costs read in profiles.
func formatNumber(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if strings.ContainsAny(s, ".NI") {
		return s
	}
	return s + ".0"
}
