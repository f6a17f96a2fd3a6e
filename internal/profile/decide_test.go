package profile_test

import (
	"io/fs"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/profiles"
)

func ptr[T any](v T) *T { return &v }

func gate(t *testing.T, name string) profile.Gate {
	t.Helper()
	g, ok := profile.LookupGate(name)
	if !ok {
		t.Fatalf("no gate %q", name)
	}
	return g
}

func TestGateAutomatic(t *testing.T) {
	tests := []struct {
		name       string
		threshold  float64
		confidence float64
		want       bool
	}{
		{"threshold 0 with confidence 0", 0, 0, true},
		{"threshold 0 with NaN confidence", 0, math.NaN(), true},
		{"threshold 1 with confidence 1", 1, 1, false},
		{"threshold 1 with confidence 0", 1, 0, false},
		{"confidence equal to the threshold", 0.7, 0.7, false},
		{"confidence just above the threshold", 0.7, math.Nextafter(0.7, 1), true},
		{"confidence just below the threshold", 0.7, math.Nextafter(0.7, 0), false},
		{"confidence 1 with threshold 0.9", 0.9, 1, true},
		{"confidence 0 with threshold 0.1", 0.1, 0, false},
		{"NaN confidence with threshold 0.5", 0.5, math.NaN(), false},
		{"smallest threshold above 0, confidence 0", math.SmallestNonzeroFloat64, 0, false},
		{"largest threshold below 1, confidence 1", math.Nextafter(1, 0), 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := profile.GateAutomatic(tt.threshold, tt.confidence); got != tt.want {
				t.Errorf("GateAutomatic(%v, %v) = %v, want %v", tt.threshold, tt.confidence, got, tt.want)
			}
		})
	}
}

func TestDecideGate(t *testing.T) {
	p := &profile.AutomationProfile{Name: "acme/strict", AutoExecute: 0.9, AutoApply: 1, AutoStrategize: 0}
	tests := []struct {
		gate       string
		confidence float64
		automatic  bool
		verdict    profile.Verdict
		reason     string
	}{
		{"auto_execute", 0.95, true, profile.VerdictAllowed, ""},
		{"auto_execute", 0.9, false, profile.VerdictNeedsApproval, "confidence 0.9 does not exceed the auto_execute threshold of 0.9"},
		{"auto_execute", 0, false, profile.VerdictNeedsApproval, "confidence 0.0 does not exceed the auto_execute threshold of 0.9"},
		{"auto_apply", 1, false, profile.VerdictNeedsApproval, "the auto_apply threshold is 1.0, so this step always needs a person's approval"},
		{"auto_strategize", 0, true, profile.VerdictAllowed, ""},
	}
	for _, tt := range tests {
		d := decideGate(p, gate(t, tt.gate), tt.confidence)
		if d.Gate != tt.gate || d.Confidence != tt.confidence || d.Automatic != tt.automatic || d.Verdict() != tt.verdict {
			t.Errorf("DecideGate(%s, %v) = %+v (verdict %v), want automatic %v, verdict %v", tt.gate, tt.confidence, d, d.Verdict(), tt.automatic, tt.verdict)
		}
		if got := d.Reason(); got != tt.reason {
			t.Errorf("DecideGate(%s, %v).Reason() = %q, want %q", tt.gate, tt.confidence, got, tt.reason)
		}
	}
	if d := decideGate(p, gate(t, "auto_execute"), 0.5); d.Threshold != 0.9 {
		t.Errorf("threshold = %v, want the profile's 0.9", d.Threshold)
	}
}

// TestGateConditions: a gate that lets a step go ahead alone lists what
// the safety profile in force still asks of it; one that does not, and a
// gate a boundary blocks, list nothing.
func TestGateConditions(t *testing.T) {
	p := &profile.AutomationProfile{Name: "acme/x", AutoExecute: 0.5, AutoApply: 1}
	sandbox := profile.SafetyProfile{RequireSandbox: true}
	both := profile.SafetyProfile{RequireSandbox: true, RequireCheckpoints: true}
	checkpoints := profile.SafetyProfile{RequireCheckpoints: true}
	tests := []struct {
		safety     profile.SafetyProfile
		gate       string
		confidence float64
		want       []string
	}{
		{profile.SafetyProfile{}, "auto_execute", 0.9, []string{}},
		{sandbox, "auto_execute", 0.9, []string{"sandbox"}},
		{checkpoints, "auto_execute", 0.9, []string{"checkpoint_before_write"}},
		{both, "auto_execute", 0.9, []string{"sandbox", "checkpoint_before_write"}},
		{both, "auto_execute", 0.4, []string{}},
		{both, "auto_apply", 1, []string{}},
		{profile.SafetyProfile{RequireSandbox: true, RequireHumanApproval: true}, "auto_execute", 0.9, []string{}},
	}
	for _, tt := range tests {
		d := profile.DecideGateUnder(p, tt.safety, gate(t, tt.gate), tt.confidence)
		if got := d.Conditions.Names(); !slices.Equal(got, tt.want) {
			t.Errorf("%s at %v under %+v: conditions %v, want %v", tt.gate, tt.confidence, tt.safety, got, tt.want)
		}
	}
	d := profile.DecideGateUnder(p, both, gate(t, "auto_execute"), 0.9).Blocked("pack.x", "no")
	if got := d.Conditions.Names(); len(got) != 0 {
		t.Errorf("a blocked gate lists conditions %v", got)
	}
}

// seedTable is the specification's table of built-in thresholds, written out
// here independently of the embedded files, gate by gate in the order
// manual, review, supervised, cautious, trusted, auto, ci, full-auto.
var seedTable = map[string][8]float64{
	"auto_strategize":           {1.0, 0.0, 0.0, 0.7, 0.0, 0.0, 0.0, 0.0},
	"auto_execute":              {1.0, 0.0, 1.0, 0.7, 0.0, 0.0, 0.0, 0.0},
	"auto_apply":                {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0},
	"auto_decisions_strategize": {1.0, 1.0, 0.0, 0.6, 0.0, 0.0, 0.0, 0.0},
	"auto_decisions_execute":    {1.0, 1.0, 1.0, 0.8, 0.0, 0.0, 0.0, 0.0},
	"auto_validation_fix":       {1.0, 1.0, 1.0, 0.7, 0.0, 0.0, 0.0, 0.0},
	"auto_strategy_revision":    {1.0, 1.0, 1.0, 0.8, 1.0, 0.0, 0.0, 0.0},
	"auto_reversion_from_apply": {1.0, 1.0, 1.0, 0.9, 1.0, 1.0, 0.0, 0.0},
	"auto_child_plans":          {1.0, 0.0, 1.0, 0.7, 0.0, 0.0, 0.0, 0.0},
	"auto_retry_transient":      {1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0},
	"auto_checkpoint_restore":   {1.0, 1.0, 1.0, 0.6, 1.0, 0.0, 0.0, 0.0},
}

var seedOrder = []string{"manual", "review", "supervised", "cautious", "trusted", "auto", "ci", "full-auto"}

func loadBuiltin(t *testing.T, name string) *profile.AutomationProfile {
	t.Helper()
	data, err := fs.ReadFile(profiles.Builtin, "builtin/"+name+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := profile.DecodeProfile(data, name+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBuiltinGates asks every built-in every gate at confidences 0, 0.5,
// 0.85 and 1, and checks the answer against the seed's thresholds.
func TestBuiltinGates(t *testing.T) {
	confidences := []float64{0, 0.5, 0.85, 1}
	for i, name := range seedOrder {
		p := loadBuiltin(t, name)
		for gateName, row := range seedTable {
			th := row[i]
			for _, c := range confidences {
				var want bool
				switch th {
				case 0:
					want = true
				case 1:
					want = false
				default:
					want = c > th
				}
				d := decideGate(p, gate(t, gateName), c)
				if d.Automatic != want || d.Threshold != th {
					t.Errorf("%s %s at confidence %v: automatic=%v threshold=%v, want automatic=%v threshold=%v",
						name, gateName, c, d.Automatic, d.Threshold, want, th)
				}
			}
		}
	}
}

// TestBuiltinGatesNamed spells out a few answers by hand, so that a wrong
// reading of the table above cannot hide a wrong decision.
func TestBuiltinGatesNamed(t *testing.T) {
	tests := []struct {
		profile, gate string
		confidence    float64
		automatic     bool
	}{
		{"manual", "auto_retry_transient", 1, false},
		{"review", "auto_execute", 0, true},
		{"review", "auto_apply", 1, false},
		{"supervised", "auto_strategize", 0.1, true},
		{"supervised", "auto_execute", 0.99, false},
		{"cautious", "auto_execute", 0.7, false},
		{"cautious", "auto_execute", 0.71, true},
		{"cautious", "auto_reversion_from_apply", 0.9, false},
		{"cautious", "auto_reversion_from_apply", 0.95, true},
		{"cautious", "auto_retry_transient", 0, true},
		{"trusted", "auto_apply", 0.99, false},
		{"trusted", "auto_validation_fix", 0, true},
		{"auto", "auto_reversion_from_apply", 1, false},
		{"auto", "auto_checkpoint_restore", 0, true},
		{"ci", "auto_apply", 0, true},
		{"full-auto", "auto_reversion_from_apply", 0, true},
	}
	for _, tt := range tests {
		p := loadBuiltin(t, tt.profile)
		if d := decideGate(p, gate(t, tt.gate), tt.confidence); d.Automatic != tt.automatic {
			t.Errorf("%s %s at %v: automatic=%v, want %v", tt.profile, tt.gate, tt.confidence, d.Automatic, tt.automatic)
		}
	}
}

// guarded is the seed's acme/guarded example.
func guarded() *profile.AutomationProfile {
	return &profile.AutomationProfile{
		Name:   "acme/guarded",
		Safety: profile.DefaultSafetyProfile(),
		Guards: &profile.AutomationGuard{
			MaxToolCallsPerStep:      ptr(10),
			MaxTotalCost:             ptr(5.0),
			ToolDenylist:             []string{"shell_exec", "file_delete"},
			RequireApprovalForWrites: true,
			RequireApprovalForApply:  true,
		},
	}
}

type guardCase struct {
	name       string
	profile    func() *profile.AutomationProfile
	safety     func(*profile.SafetyProfile)
	in         profile.GuardInput
	verdict    profile.Verdict
	rule       profile.Rule
	reason     string // a substring the reason must contain, if given
	conditions []string
}

func runGuardCases(t *testing.T, cases []guardCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			var p *profile.AutomationProfile
			if tt.profile != nil {
				p = tt.profile()
			} else {
				p = &profile.AutomationProfile{Name: "acme/plain", Safety: profile.DefaultSafetyProfile()}
			}
			s := p.Safety
			if tt.safety != nil {
				tt.safety(&s)
			}
			r := profile.CheckGuard(p, s, tt.in)
			if r.Verdict != tt.verdict || r.Rule != tt.rule {
				t.Fatalf("verdict %v rule %s, want %v %s (reason %q)", r.Verdict, r.Rule, tt.verdict, tt.rule, r.Reason())
			}
			if r.Allowed() != (tt.verdict == profile.VerdictAllowed) || r.RequiresApproval() != (tt.verdict == profile.VerdictNeedsApproval) {
				t.Errorf("Allowed()=%v RequiresApproval()=%v for verdict %v", r.Allowed(), r.RequiresApproval(), r.Verdict)
			}
			reason := r.Reason()
			if (reason == "") != (tt.verdict == profile.VerdictAllowed) {
				t.Errorf("reason = %q for verdict %v: only an allowed call has none", reason, r.Verdict)
			}
			if tt.reason != "" && !strings.Contains(reason, tt.reason) {
				t.Errorf("reason = %q, want it to contain %q", reason, tt.reason)
			}
			want := tt.conditions
			if want == nil {
				want = []string{}
			}
			if got := r.Conditions.Names(); !slices.Equal(got, want) {
				t.Errorf("conditions = %q, want %q", got, want)
			}
		})
	}
}

// TestCheckGuardRules makes each rule match on its own, once, and checks its
// verdict, identifier and reason.
func TestCheckGuardRules(t *testing.T) {
	runGuardCases(t, []guardCase{
		{name: "require_sandbox", in: profile.GuardInput{Tool: "read", NoSandbox: true},
			verdict: profile.VerdictBlocked, rule: profile.RuleRequireSandbox, reason: "requires a sandbox"},
		{name: "no sandbox is fine when none is required", safety: func(s *profile.SafetyProfile) { s.RequireSandbox = false },
			in:      profile.GuardInput{Tool: "read", NoSandbox: true},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault},
		{name: "allow_unsafe_tools", in: profile.GuardInput{Tool: "rm", Unsafe: true},
			verdict: profile.VerdictBlocked, rule: profile.RuleAllowUnsafeTools, reason: `tool "rm" is flagged unsafe`},
		{name: "unsafe tool when unsafe tools are allowed", safety: func(s *profile.SafetyProfile) { s.AllowUnsafeTools = true },
			in:      profile.GuardInput{Tool: "rm", Unsafe: true},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "category outside the list", safety: func(s *profile.SafetyProfile) { s.AllowedSkillCategories = []string{"coding", "docs"} },
			in:      profile.GuardInput{Tool: "t", Category: "deploy"},
			verdict: profile.VerdictBlocked, rule: profile.RuleAllowedSkillCategories, reason: `skill category "deploy" is not allowed; the safety profile allows only "coding", "docs"`},
		{name: "no category against a list", safety: func(s *profile.SafetyProfile) { s.AllowedSkillCategories = []string{"coding"} },
			in:      profile.GuardInput{Tool: "t"},
			verdict: profile.VerdictBlocked, rule: profile.RuleAllowedSkillCategories, reason: "no skill category was stated"},
		{name: "category matching is case-sensitive", safety: func(s *profile.SafetyProfile) { s.AllowedSkillCategories = []string{"coding"} },
			in:      profile.GuardInput{Tool: "t", Category: "Coding"},
			verdict: profile.VerdictBlocked, rule: profile.RuleAllowedSkillCategories},
		{name: "category on the list", safety: func(s *profile.SafetyProfile) { s.AllowedSkillCategories = []string{"coding"} },
			in:      profile.GuardInput{Tool: "t", Category: "coding"},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "empty category list allows any", in: profile.GuardInput{Tool: "t", Category: "anything"},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "attempt at the limit", in: profile.GuardInput{Tool: "t", Attempt: 4},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "attempt beyond the limit", in: profile.GuardInput{Tool: "t", Attempt: 5},
			verdict: profile.VerdictBlocked, rule: profile.RuleMaxRetriesPerStep, reason: "attempt 5 is beyond the limit of 3 retries per step (4 attempts in all)"},
		{name: "no retries: the first attempt runs", safety: func(s *profile.SafetyProfile) { s.MaxRetriesPerStep = 0 },
			in:      profile.GuardInput{Tool: "t", Attempt: 1},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "no retries: the second attempt is blocked", safety: func(s *profile.SafetyProfile) { s.MaxRetriesPerStep = 0 },
			in:      profile.GuardInput{Tool: "t", Attempt: 2},
			verdict: profile.VerdictBlocked, rule: profile.RuleMaxRetriesPerStep, reason: "limit of 0 retries per step (1 attempt in all)"},
		{name: "unstated attempt is the first", safety: func(s *profile.SafetyProfile) { s.MaxRetriesPerStep = 0 },
			in:      profile.GuardInput{Tool: "t"},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "write without checkpoint", in: profile.GuardInput{Tool: "t", Write: true, NoCheckpoint: true},
			verdict: profile.VerdictBlocked, rule: profile.RuleRequireCheckpoints, reason: "requires a checkpoint before a write"},
		{name: "no checkpoint without a write", in: profile.GuardInput{Tool: "t", NoCheckpoint: true},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "write with checkpoint", in: profile.GuardInput{Tool: "t", Write: true},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox", "checkpoint_before_write"}},
		{name: "plan cost exactly at the cap", safety: func(s *profile.SafetyProfile) { s.MaxCostPerPlan = ptr(50.0) },
			in:      profile.GuardInput{Tool: "t", PlanCost: 50, HasPlanCost: true},
			verdict: profile.VerdictBlocked, rule: profile.RuleMaxCostPerPlan, reason: "the plan's cost of 50.0 USD reached the safety limit of 50.0 USD per plan"},
		{name: "plan cost just under the cap", safety: func(s *profile.SafetyProfile) { s.MaxCostPerPlan = ptr(50.0) },
			in:      profile.GuardInput{Tool: "t", PlanCost: 49.99, HasPlanCost: true},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "total cost exactly at the cap", safety: func(s *profile.SafetyProfile) { s.MaxTotalCost = ptr(100.0) },
			in:      profile.GuardInput{Tool: "t", TotalCost: 100, HasTotalCost: true},
			verdict: profile.VerdictBlocked, rule: profile.RuleSafetyMaxTotalCost, reason: "the total cost of 100.0 USD across all plans reached the safety limit of 100.0 USD"},
		{name: "total cost just under the cap", safety: func(s *profile.SafetyProfile) { s.MaxTotalCost = ptr(100.0) },
			in:      profile.GuardInput{Tool: "t", TotalCost: 99.5, HasTotalCost: true},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "denylisted tool", profile: guarded, in: profile.GuardInput{Tool: "shell_exec"},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleToolDenylist, reason: `tool "shell_exec" is on the profile's denylist`},
		{name: "denylist matching is case-sensitive", profile: guarded, in: profile.GuardInput{Tool: "Shell_exec"},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "tool off the allowlist", profile: withGuards(profile.AutomationGuard{ToolAllowlist: []string{"read", "grep"}}),
			in:      profile.GuardInput{Tool: "write"},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleToolAllowlist, reason: `tool "write" is not on the profile's allowlist`},
		{name: "tool on the allowlist", profile: withGuards(profile.AutomationGuard{ToolAllowlist: []string{"read", "grep"}}),
			in:      profile.GuardInput{Tool: "grep"},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "empty allowlist lets nothing run alone", profile: withGuards(profile.AutomationGuard{ToolAllowlist: []string{}}),
			in:      profile.GuardInput{Tool: "read"},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleToolAllowlist},
		{name: "absent allowlist lets any tool run", profile: withGuards(profile.AutomationGuard{}),
			in:      profile.GuardInput{Tool: "read"},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "calls exactly at the limit", profile: guarded, in: profile.GuardInput{Tool: "read", Calls: 10},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleMaxToolCallsPerStep, reason: "10 calls reached the limit of 10 per step"},
		{name: "calls one under the limit", profile: guarded, in: profile.GuardInput{Tool: "read", Calls: 9},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "a call limit of 0 needs approval for the first call", profile: withGuards(profile.AutomationGuard{MaxToolCallsPerStep: ptr(0)}),
			in:      profile.GuardInput{Tool: "read"},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleMaxToolCallsPerStep, reason: "0 calls reached the limit of 0 per step"},
		{name: "cost exactly at the guard's budget", profile: guarded, in: profile.GuardInput{Tool: "read", Cost: 5},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleGuardMaxTotalCost, reason: "a cost of 5.0 USD reached the profile's budget of 5.0 USD"},
		{name: "cost just under the guard's budget", profile: guarded, in: profile.GuardInput{Tool: "read", Cost: 4.99},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "write needs approval", profile: guarded, in: profile.GuardInput{Tool: "edit", Write: true},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleApprovalForWrites, reason: "requires approval for writes"},
		{name: "apply needs approval", profile: guarded, in: profile.GuardInput{Tool: profile.ApplyTool},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleApprovalForApply, reason: `before apply (tool "__apply__")`},
		{name: "apply without the apply guard", profile: withGuards(profile.AutomationGuard{RequireApprovalForWrites: true}),
			in:      profile.GuardInput{Tool: profile.ApplyTool},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "require_human_approval", safety: func(s *profile.SafetyProfile) { s.RequireHumanApproval = true },
			in:      profile.GuardInput{Tool: "read"},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleRequireHumanApproval, reason: "requires a person's approval for every step"},
		{name: "default with nothing required", safety: func(s *profile.SafetyProfile) { s.RequireSandbox, s.RequireCheckpoints = false, false },
			in:      profile.GuardInput{Tool: "read", Write: true},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault},
	})
}

func withGuards(g profile.AutomationGuard) func() *profile.AutomationProfile {
	return func() *profile.AutomationProfile {
		return &profile.AutomationProfile{Name: "acme/g", Safety: profile.DefaultSafetyProfile(), Guards: &g}
	}
}

// everything is a profile where every rule would match the call below, so
// that switching rules off one by one walks the evaluation order.
func everything() *profile.AutomationProfile {
	p := guarded()
	p.Guards.ToolAllowlist = []string{"other"}
	p.Guards.ToolDenylist = append(p.Guards.ToolDenylist, profile.ApplyTool)
	p.Guards.MaxToolCallsPerStep = ptr(1)
	p.Guards.MaxTotalCost = ptr(1.0)
	p.Safety = profile.SafetyProfile{
		RequireSandbox: true, RequireCheckpoints: true, AllowUnsafeTools: false, RequireHumanApproval: true,
		AllowedSkillCategories: []string{"coding"}, MaxCostPerPlan: ptr(1.0), MaxTotalCost: ptr(1.0), MaxRetriesPerStep: 0,
	}
	return p
}

// TestCheckGuardOrder starts from a call that every rule would stop and
// removes the cause of the first matching rule one at a time: each step
// must be decided by the next rule in GuardRules.
func TestCheckGuardOrder(t *testing.T) {
	p := everything()
	s := p.Safety
	in := profile.GuardInput{
		Tool: profile.ApplyTool, Calls: 5, Cost: 5, Write: true, Unsafe: true, Category: "deploy",
		Attempt: 3, NoSandbox: true, NoCheckpoint: true,
	}
	fixes := []func(){
		func() { in.NoSandbox = false },
		func() { in.Unsafe = false },
		func() { in.Category = "coding" },
		func() { in.Attempt = 1 },
		func() { in.NoCheckpoint = false },
		func() { s.MaxCostPerPlan = nil },
		func() { s.MaxTotalCost = nil },
		func() { p.Guards.ToolDenylist = nil },
		func() { p.Guards.ToolAllowlist = nil },
		func() { p.Guards.MaxToolCallsPerStep = nil },
		func() { p.Guards.MaxTotalCost = nil },
		func() { p.Guards.RequireApprovalForWrites = false },
		func() { p.Guards.RequireApprovalForApply = false },
		func() { s.RequireHumanApproval = false },
	}
	if len(fixes)+1 != len(profile.GuardRules) {
		t.Fatalf("%d fixes for %d rules", len(fixes), len(profile.GuardRules))
	}
	for i, want := range profile.GuardRules {
		r := profile.CheckGuard(p, s, in)
		if r.Rule != want {
			t.Fatalf("step %d: rule %s, want %s", i, r.Rule, want)
		}
		wantVerdict := profile.VerdictNeedsApproval
		switch {
		case strings.HasPrefix(string(want), "safety.") && want != profile.RuleRequireHumanApproval:
			wantVerdict = profile.VerdictBlocked
		case want == profile.RuleDefault:
			wantVerdict = profile.VerdictAllowed
		}
		if r.Verdict != wantVerdict {
			t.Errorf("step %d (%s): verdict %v, want %v", i, want, r.Verdict, wantVerdict)
		}
		if want != profile.RuleDefault && r.Reason() == "" {
			t.Errorf("step %d (%s): empty reason", i, want)
		}
		if i < len(fixes) {
			fixes[i]()
		}
	}
}

func TestCheckGuardPrecedence(t *testing.T) {
	both := func() *profile.AutomationProfile {
		p := guarded()
		p.Guards.ToolAllowlist = []string{"shell_exec", "read"}
		return p
	}
	runGuardCases(t, []guardCase{
		{name: "a tool on both lists: the denylist wins", profile: both, in: profile.GuardInput{Tool: "shell_exec"},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleToolDenylist},
		{name: "safety blocks before a guard asks", profile: guarded, in: profile.GuardInput{Tool: "shell_exec", Unsafe: true},
			verdict: profile.VerdictBlocked, rule: profile.RuleAllowUnsafeTools},
		{name: "a guard asks before require_human_approval", profile: func() *profile.AutomationProfile {
			p := guarded()
			p.Safety.RequireHumanApproval = true
			return p
		}, in: profile.GuardInput{Tool: "read", Calls: 10},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleMaxToolCallsPerStep},
		{name: "the calls limit comes before the budget", profile: guarded, in: profile.GuardInput{Tool: "read", Calls: 10, Cost: 5},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleMaxToolCallsPerStep},
		{name: "the budget comes before the write guard", profile: guarded, in: profile.GuardInput{Tool: "read", Cost: 5, Write: true},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleGuardMaxTotalCost},
		{name: "sandbox comes before retries", profile: guarded, in: profile.GuardInput{Tool: "read", NoSandbox: true, Attempt: 99},
			verdict: profile.VerdictBlocked, rule: profile.RuleRequireSandbox},
	})
}

// TestCheckGuardStandaloneSafety checks that the safety profile passed in is
// the one applied, not the profile's composed one.
func TestCheckGuardStandaloneSafety(t *testing.T) {
	p := loadBuiltin(t, "full-auto")
	strict := profile.DefaultSafetyProfile()
	r := profile.CheckGuard(p, strict, profile.GuardInput{Tool: "rm", Unsafe: true})
	if r.Rule != profile.RuleAllowUnsafeTools || r.Verdict != profile.VerdictBlocked {
		t.Errorf("standalone safety ignored: %s %v", r.Rule, r.Verdict)
	}
	if r := profile.CheckGuard(p, p.Safety, profile.GuardInput{Tool: "rm", Unsafe: true}); !r.Allowed() {
		t.Errorf("full-auto's own safety should allow an unsafe tool, got %s", r.Rule)
	}
	if r := profile.CheckGuard(nil, strict, profile.GuardInput{Tool: "rm"}); !r.Allowed() || !r.Conditions.Has(profile.ConditionSandbox) {
		t.Errorf("a nil profile means no guards: got %s %v", r.Rule, r.Conditions)
	}
}

// TestCheckGuardCostNesting covers the nesting invocation ⊆ plan ⊆ all
// plans: unstated outer costs are at least the inner ones, and whichever
// cap is tighter binds first.
func TestCheckGuardCostNesting(t *testing.T) {
	planCap := func(v float64) func(*profile.SafetyProfile) {
		return func(s *profile.SafetyProfile) { s.MaxCostPerPlan = ptr(v) }
	}
	totalCap := func(v float64) func(*profile.SafetyProfile) {
		return func(s *profile.SafetyProfile) { s.MaxTotalCost = ptr(v) }
	}
	budget := func(v float64) func() *profile.AutomationProfile {
		return withGuards(profile.AutomationGuard{MaxTotalCost: ptr(v)})
	}
	runGuardCases(t, []guardCase{
		{name: "unstated plan cost is at least --cost", safety: planCap(10), in: profile.GuardInput{Tool: "t", Cost: 10},
			verdict: profile.VerdictBlocked, rule: profile.RuleMaxCostPerPlan, reason: "the plan's cost of at least 10.0 USD"},
		{name: "unstated total is at least --cost", safety: totalCap(10), in: profile.GuardInput{Tool: "t", Cost: 12},
			verdict: profile.VerdictBlocked, rule: profile.RuleSafetyMaxTotalCost, reason: "total cost of at least 12.0 USD"},
		{name: "unstated total is at least the plan cost", safety: totalCap(10), in: profile.GuardInput{Tool: "t", PlanCost: 10, HasPlanCost: true},
			verdict: profile.VerdictBlocked, rule: profile.RuleSafetyMaxTotalCost},
		{name: "a stated plan cost below --cost is raised to it", safety: planCap(10), in: profile.GuardInput{Tool: "t", Cost: 10, PlanCost: 1, HasPlanCost: true},
			verdict: profile.VerdictBlocked, rule: profile.RuleMaxCostPerPlan, reason: "at least 10.0 USD"},
		{name: "a stated total below the plan cost is raised to it", safety: totalCap(10), in: profile.GuardInput{Tool: "t", PlanCost: 10, HasPlanCost: true, TotalCost: 3, HasTotalCost: true},
			verdict: profile.VerdictBlocked, rule: profile.RuleSafetyMaxTotalCost},
		{name: "the plan cost says nothing about the invocation's", profile: budget(5), in: profile.GuardInput{Tool: "t", PlanCost: 50, HasPlanCost: true},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "a stated total above the plan cap passes the plan cap", safety: planCap(10), in: profile.GuardInput{Tool: "t", PlanCost: 5, HasPlanCost: true, TotalCost: 500, HasTotalCost: true},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},

		// Guard budget 5 (approval) is tighter than the safety plan cap 10
		// (block): the budget binds first, the cap only later.
		{name: "tighter guard budget: under both", profile: budget(5), safety: planCap(10), in: profile.GuardInput{Tool: "t", Cost: 4},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "tighter guard budget: between the caps", profile: budget(5), safety: planCap(10), in: profile.GuardInput{Tool: "t", Cost: 7},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleGuardMaxTotalCost},
		{name: "tighter guard budget: past both", profile: budget(5), safety: planCap(10), in: profile.GuardInput{Tool: "t", Cost: 10},
			verdict: profile.VerdictBlocked, rule: profile.RuleMaxCostPerPlan},

		// Safety plan cap 5 is tighter than the guard budget 10: the block
		// comes first and the budget is never what decides.
		{name: "tighter plan cap: under both", profile: budget(10), safety: planCap(5), in: profile.GuardInput{Tool: "t", Cost: 4},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "tighter plan cap: between the caps", profile: budget(10), safety: planCap(5), in: profile.GuardInput{Tool: "t", Cost: 7},
			verdict: profile.VerdictBlocked, rule: profile.RuleMaxCostPerPlan},
		{name: "tighter plan cap: past both", profile: budget(10), safety: planCap(5), in: profile.GuardInput{Tool: "t", Cost: 10},
			verdict: profile.VerdictBlocked, rule: profile.RuleMaxCostPerPlan},

		// The same between the two safety caps: a total cap tighter than
		// the plan cap (a stated figure), and the reverse.
		{name: "tighter total cap binds first", safety: func(s *profile.SafetyProfile) { s.MaxCostPerPlan, s.MaxTotalCost = ptr(10.0), ptr(8.0) },
			in:      profile.GuardInput{Tool: "t", PlanCost: 9, HasPlanCost: true},
			verdict: profile.VerdictBlocked, rule: profile.RuleSafetyMaxTotalCost},
		{name: "tighter plan cap binds first", safety: func(s *profile.SafetyProfile) { s.MaxCostPerPlan, s.MaxTotalCost = ptr(8.0), ptr(100.0) },
			in:      profile.GuardInput{Tool: "t", PlanCost: 9, HasPlanCost: true, TotalCost: 50, HasTotalCost: true},
			verdict: profile.VerdictBlocked, rule: profile.RuleMaxCostPerPlan},
		{name: "a zero cap is reached with nothing spent", safety: planCap(0), in: profile.GuardInput{Tool: "t"},
			verdict: profile.VerdictBlocked, rule: profile.RuleMaxCostPerPlan},
	})
}

// TestSeedExamples runs the seed's two custom profiles through calls the
// specification describes.
func TestSeedExamples(t *testing.T) {
	strict := func() *profile.AutomationProfile {
		return &profile.AutomationProfile{Name: "acme/strict", AutoExecute: 0.9, AutoApply: 1, Safety: profile.DefaultSafetyProfile()}
	}
	if d := decideGate(strict(), gate(t, "auto_execute"), 0.95); !d.Automatic {
		t.Errorf("acme/strict auto_execute at 0.95 should be automatic")
	}
	if d := decideGate(strict(), gate(t, "auto_apply"), 1); d.Automatic {
		t.Errorf("acme/strict auto_apply should always need approval")
	}
	runGuardCases(t, []guardCase{
		{name: "acme/strict without a sandbox", profile: strict, in: profile.GuardInput{Tool: "read", NoSandbox: true},
			verdict: profile.VerdictBlocked, rule: profile.RuleRequireSandbox},
		{name: "acme/strict plain call", profile: strict, in: profile.GuardInput{Tool: "read"},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
		{name: "acme/guarded file_delete", profile: guarded, in: profile.GuardInput{Tool: "file_delete"},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleToolDenylist},
		{name: "acme/guarded eleventh call", profile: guarded, in: profile.GuardInput{Tool: "read", Calls: 10},
			verdict: profile.VerdictNeedsApproval, rule: profile.RuleMaxToolCallsPerStep},
		{name: "acme/guarded read", profile: guarded, in: profile.GuardInput{Tool: "read", Calls: 3, Cost: 1.5},
			verdict: profile.VerdictAllowed, rule: profile.RuleDefault, conditions: []string{"sandbox"}},
	})
}

func TestVerdictString(t *testing.T) {
	for v, want := range map[profile.Verdict]string{
		profile.VerdictAllowed: "allowed", profile.VerdictNeedsApproval: "needs approval", profile.VerdictBlocked: "blocked", 9: "unknown",
	} {
		if got := v.String(); got != want {
			t.Errorf("Verdict(%d).String() = %q, want %q", v, got, want)
		}
	}
}

func TestGuardRulesAreUnique(t *testing.T) {
	seen := map[profile.Rule]bool{}
	for _, r := range profile.GuardRules {
		if seen[r] {
			t.Errorf("rule %s listed twice", r)
		}
		seen[r] = true
	}
	if len(seen) != 15 {
		t.Errorf("%d rules, want 15", len(seen))
	}
}

// TestDecisionsDoNotAllocate counts allocations (not time) of both
// decisions, on paths that reach the last rules.
func TestDecisionsDoNotAllocate(t *testing.T) {
	p := guarded()
	p.Guards.ToolAllowlist = []string{"read", "grep", "edit"}
	s := p.Safety
	s.AllowedSkillCategories = []string{"coding"}
	s.MaxCostPerPlan, s.MaxTotalCost = ptr(100.0), ptr(1000.0)
	in := profile.GuardInput{Tool: "edit", Calls: 3, Cost: 1, Write: true, Category: "coding", Attempt: 2}
	g := gate(t, "auto_execute")
	var sink profile.GuardResult
	if n := testing.AllocsPerRun(200, func() { sink = profile.CheckGuard(p, s, in) }); n != 0 {
		t.Errorf("CheckGuard allocates %v times per call", n)
	}
	if sink.Rule != profile.RuleApprovalForWrites {
		t.Errorf("benchmark path decided by %s, want %s", sink.Rule, profile.RuleApprovalForWrites)
	}
	in.Write = false
	if n := testing.AllocsPerRun(200, func() { sink = profile.CheckGuard(p, s, in) }); n != 0 {
		t.Errorf("CheckGuard (allowed) allocates %v times per call", n)
	}
	var gd profile.GateDecision
	if n := testing.AllocsPerRun(200, func() { gd = decideGate(p, g, 0.8) }); n != 0 {
		t.Errorf("DecideGate allocates %v times per call", n)
	}
	_ = gd
}

// decideGate decides a gate under the profile's own composed safety.
func decideGate(p *profile.AutomationProfile, g profile.Gate, c float64) profile.GateDecision {
	return profile.DecideGateUnder(p, p.Safety, g, c)
}
