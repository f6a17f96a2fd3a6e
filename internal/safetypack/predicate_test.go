package safetypack

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
)

// testProfile returns a profile with the values the tests judge, written
// out here rather than taken from the built-ins.
func testProfile(name string, autoApply float64, unsafe, sandbox bool) *profile.AutomationProfile {
	p := &profile.AutomationProfile{Name: name, SchemaVersion: "1.0", AutoApply: autoApply, Safety: profile.DefaultSafetyProfile()}
	p.Safety.AllowUnsafeTools = unsafe
	p.Safety.RequireSandbox = sandbox
	return p
}

func ctxOf(p *profile.AutomationProfile) PolicyContext {
	return PolicyContext{Profile: p, Safety: p.Safety.Clone()}
}

// predicatePack returns a valid pack whose own boundaries carry the given
// predicates (in the order given) and modes.
func predicatePack(t *testing.T, preds [][2]string, modes map[string]Mode) *Pack {
	t.Helper()
	p := validPack("acme_lockdown_v1")
	p.BoundaryPredicates = map[string]string{}
	for _, kv := range preds {
		if !p.HasBoundary(kv[0]) {
			p.BoundaryIDs = append(p.BoundaryIDs, kv[0])
			p.BoundaryDescriptions[kv[0]] = "Why " + kv[0] + " matters."
		}
		p.BoundaryPredicates[kv[0]] = kv[1]
	}
	p.BoundaryEnforcement = modes
	parsed, err := ParsePack(p.Encode(), "acme_lockdown_v1.json")
	if err != nil {
		t.Fatalf("ParsePack: %v", err)
	}
	return parsed
}

func TestCompilePredicateAccepts(t *testing.T) {
	for _, src := range []string{
		`!(safety.allow_unsafe_tools && !safety.require_sandbox)`,
		`profile.auto_apply >= 0.5`,
		`profile.name != "full-auto"`,
		`plan == nil || plan.safety_profile.require_sandbox`,
		`action == nil || action.safety_profile == nil || action.safety_profile.require_checkpoints`,
		`safety.max_total_cost != nil && safety.max_total_cost <= 100`,
		`profile.guards == nil || "shell_exec" in profile.guards.tool_denylist`,
		`all(safety.allowed_skill_categories, # != "deploy")`,
		`len(safety.allowed_skill_categories) > 0`,
		`plan == nil || none(plan.levels, .level == "plan" && .automation_profile == "full-auto")`,
		`lower(profile.name) matches "^acme/"`,
	} {
		if _, err := compilePredicate(src); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// TestCompilePredicateRefuses: each predicate is refused when the pack
// loads, for the reason named.
func TestCompilePredicateRefuses(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{``, "must not be blank"},
		{`   `, "must not be blank"},
		{`profile.auto_apply >=`, "does not compile"},
		{`profile.auto_aply >= 0.5`, "profile has no field auto_aply"},
		{`safety.require_sandbx`, "safety profile has no field require_sandbx"},
		{`plan.idd == "x"`, "plan has no field idd"},
		{`prof.auto_apply > 0`, "unknown name prof"},
		{`profile.name`, "expected bool"},
		{`profile.auto_apply + 1`, "expected bool"},
		{`profile.name > 1`, "invalid operation"},
		{`now() > now()`, "unknown name now"},
		{`len(split(profile.name, "/")) == 2`, "unknown name split"},
		{`all(1..10, # > 0)`, "range"},
		{`profile.name matches profile.description`, "not a string literal"},
		{`sortBy(safety.allowed_skill_categories, #)[0] == "a"`, "calls sortBy"},
		{`reduce(safety.allowed_skill_categories, #acc) == ""`, "calls reduce"},
		{strings.Repeat("x", MaxPredicateLength+1), "at most 2048"},
		{strings.TrimSuffix(strings.Repeat("profile.auto_apply > 0 && ", 60), " && "), "more than 200 syntax nodes"},
	} {
		_, err := compilePredicate(tc.src)
		if err == nil {
			t.Errorf("%.60q: compiled, want an error containing %q", tc.src, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.60q: error %q does not contain %q", tc.src, err, tc.want)
		}
		if strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "safetypack.") {
			t.Errorf("%.60q: error is not one plain line: %q", tc.src, err)
		}
	}
}

func TestCompilePredicateNodeLimit(t *testing.T) {
	// Each term is 5 nodes (member, member, identifier, float, compare)
	// plus the and: count how many fit.
	term := "profile.auto_apply > 0.1"
	fits := func(n int) bool {
		_, err := compilePredicate(strings.TrimSuffix(strings.Repeat(term+" && ", n), " && "))
		return err == nil
	}
	if !fits(10) {
		t.Fatal("ten terms refused")
	}
	if fits(MaxPredicateNodes) {
		t.Fatalf("%d terms accepted; the node limit is %d", MaxPredicateNodes, MaxPredicateNodes)
	}
}

func TestJudgeModesAndOrder(t *testing.T) {
	p := predicatePack(t, [][2]string{
		{"cap_auto_apply", `profile.auto_apply >= 0.5`},
		{"no_unsafe_outside_sandbox", `!(safety.allow_unsafe_tools && !safety.require_sandbox)`},
		{"named_profiles_only", `profile.name != "full-auto"`},
		{"always", `true`},
	}, map[string]Mode{"no_unsafe_outside_sandbox": ModeWarn, "named_profiles_only": ModeAudit})

	v := p.Judge(ctxOf(testProfile("full-auto", 0, true, false)))
	var got []string
	for _, j := range v.Judgements {
		got = append(got, fmt.Sprintf("%s:%s:%v", j.BoundaryID, j.Mode, j.Upheld))
	}
	want := "cap_auto_apply:enforce:false no_unsafe_outside_sandbox:warn:false named_profiles_only:audit:false always:enforce:true"
	if strings.Join(got, " ") != want {
		t.Errorf("judgements = %v\nwant        %v", got, want)
	}
	if !v.Refused() || v.Rule() != "pack.cap_auto_apply" {
		t.Errorf("Refused = %v, Rule = %q", v.Refused(), v.Rule())
	}
	if w := v.Warnings(); len(w) != 1 || !strings.Contains(w[0], "no_unsafe_outside_sandbox") || !strings.Contains(w[0], "warn") {
		t.Errorf("Warnings = %q", w)
	}
	wantKind(t, v.Err(), errs.KindSafetyPack, "rule pack.cap_auto_apply", "acme_lockdown_v1", "Why cap_auto_apply matters")

	// The same pack upholds a cautious profile: nothing refused, nothing
	// to warn about.
	v = p.Judge(ctxOf(testProfile("acme/careful", 1, false, true)))
	if v.Refused() || v.Err() != nil || len(v.Warnings()) != 0 || v.Rule() != "" {
		t.Errorf("a profile that upholds every boundary: %+v", v)
	}
	for _, j := range v.Judgements {
		if !j.Upheld {
			t.Errorf("%s violated: %s", j.BoundaryID, j.Reason)
		}
	}
}

// TestJudgeEveryEnforcedViolation: every violated enforced boundary is
// reported; the first in the pack's order names the rule.
func TestJudgeEveryEnforcedViolation(t *testing.T) {
	p := predicatePack(t, [][2]string{
		{"second", `profile.auto_apply >= 0.5`},
		{"first", `!safety.allow_unsafe_tools`},
	}, nil)
	v := p.Judge(ctxOf(testProfile("full-auto", 0, true, false)))
	if len(v.Violated(ModeEnforce)) != 2 || v.Rule() != "pack.second" {
		t.Fatalf("violated = %+v, rule %q", v.Violated(ModeEnforce), v.Rule())
	}
	wantKind(t, v.Err(), errs.KindSafetyPack, "rule pack.second", "also violated: first", "pack.first")
}

// TestJudgeUsesSafetyInForce: a standalone safety profile is what safety
// means, so loosening it cannot hide behind a strict composed one.
func TestJudgeUsesSafetyInForce(t *testing.T) {
	p := predicatePack(t, [][2]string{{"sandboxed", `safety.require_sandbox`}, {"composed_sandboxed", `profile.safety.require_sandbox`}}, nil)
	prof := testProfile("acme/strict", 1, false, true)
	standalone := profile.DefaultSafetyProfile()
	standalone.RequireSandbox = false
	v := p.Judge(PolicyContext{Profile: prof, Safety: standalone})
	if j := v.Judgements; j[0].Upheld || !j[1].Upheld {
		t.Errorf("judgements = %+v", j)
	}
}

// TestJudgeFailsClosed: an evaluation error, a missing document or a
// missing profile violates the boundary and names the cause.
func TestJudgeFailsClosed(t *testing.T) {
	p := predicatePack(t, [][2]string{
		{"needs_plan", `plan.safety_profile.require_sandbox`},
		{"needs_guards", `profile.guards.max_tool_calls_per_step < 10`},
		{"nil_cost", `safety.max_total_cost <= 10`},
		{"guarded", `plan == nil || plan.safety_profile.require_sandbox`},
	}, nil)
	v := p.Judge(ctxOf(testProfile("acme/x", 1, false, true)))
	for i, want := range []string{"cannot get safety_profile from plan", "cannot get max_tool_calls_per_step from guards", "invalid operation", ""} {
		j := v.Judgements[i]
		if want == "" {
			if !j.Upheld {
				t.Errorf("%s: %s", j.BoundaryID, j.Reason)
			}
			continue
		}
		if j.Upheld || !strings.Contains(j.Reason, "the predicate failed: ") || !strings.Contains(j.Reason, want) {
			t.Errorf("%s: upheld %v, reason %q, want a failure naming %q", j.BoundaryID, j.Upheld, j.Reason, want)
		}
	}

	v = p.Judge(PolicyContext{})
	for _, j := range v.Judgements {
		if j.Upheld || !strings.Contains(j.Reason, "no automation profile") {
			t.Errorf("without a profile: %+v", j)
		}
	}
	if v.Rule() != "pack.needs_plan" {
		t.Errorf("rule = %q", v.Rule())
	}
}

// TestJudgeCostBudget: a predicate whose worst case over the context is
// above the budget is not run and violates its boundary; the same
// predicate over a small context runs.
func TestJudgeCostBudget(t *testing.T) {
	src := `all(safety.allowed_skill_categories, all(safety.allowed_skill_categories, all(safety.allowed_skill_categories, # != "x")))`
	p := predicatePack(t, [][2]string{{"nested", src}}, nil)

	small := testProfile("acme/x", 1, false, true)
	small.Safety.AllowedSkillCategories = []string{"a", "b", "c"}
	if j := p.Judge(ctxOf(small)).Judgements[0]; !j.Upheld {
		t.Fatalf("small context: %s", j.Reason)
	}

	big := testProfile("acme/x", 1, false, true)
	for i := range 500 {
		big.Safety.AllowedSkillCategories = append(big.Safety.AllowedSkillCategories, fmt.Sprintf("c%d", i))
	}
	start := time.Now()
	j := p.Judge(ctxOf(big)).Judgements[0]
	if j.Upheld || !strings.Contains(j.Reason, "above the budget") {
		t.Fatalf("big context: upheld %v, %s", j.Upheld, j.Reason)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("refusing over budget took %v: the predicate ran", d)
	}

	// A long string scanned in a loop counts too.
	long := testProfile("acme/x", 1, false, true)
	long.Description = strings.Repeat("d", 400_000)
	long.Safety.AllowedSkillCategories = make([]string, 100)
	for i := range long.Safety.AllowedSkillCategories {
		long.Safety.AllowedSkillCategories[i] = fmt.Sprint(i)
	}
	p = predicatePack(t, [][2]string{{"scan", `all(safety.allowed_skill_categories, !(profile.description contains #))`}}, nil)
	if j := p.Judge(ctxOf(long)).Judgements[0]; j.Upheld || !strings.Contains(j.Reason, "above the budget") {
		t.Errorf("scanning a long string in a loop: upheld %v, %s", j.Upheld, j.Reason)
	}
}

// TestJudgeMemoryBudget: what the evaluator allocates is bounded too.
func TestJudgeMemoryBudget(t *testing.T) {
	many := make([]string, 200)
	for i := range many {
		many[i] = fmt.Sprint(i)
	}
	prof := testProfile("acme/x", 1, false, true)
	prof.Safety.AllowedSkillCategories = many
	// map over map: 200 × 200 results, within the cost budget but
	// beyond the memory budget.
	p := predicatePack(t, [][2]string{{"alloc", `len(map(safety.allowed_skill_categories, map(safety.allowed_skill_categories, #))) > 0`}}, nil)
	j := p.Judge(ctxOf(prof)).Judgements[0]
	if j.Upheld || !strings.Contains(j.Reason, "memory budget") {
		t.Errorf("upheld %v, reason %q", j.Upheld, j.Reason)
	}
}

// TestPolicyDocumentsCoverCanonicalJSON: each document a predicate sees
// decodes from the canonical JSON with no key left over, for values with
// every optional part set, so a field added to a profile, plan or action
// is added here too (or every predicate fails closed).
func TestPolicyDocumentsCoverCanonicalJSON(t *testing.T) {
	prof := testProfile("acme/x", 0.5, false, true)
	calls, cost := 3, 2.5
	prof.Guards = &profile.AutomationGuard{MaxToolCallsPerStep: &calls, MaxTotalCost: &cost, ToolAllowlist: []string{"a"}, ToolDenylist: []string{"b"}}
	prof.Safety.MaxCostPerPlan, prof.Safety.MaxTotalCost = &cost, &cost
	name, src := "acme/x", "agents.yaml"
	safety := prof.Safety.Clone()
	pl := &plan.Plan{
		ID: "01jq3v6m4x8b2c7d9e0f1g2h3k", Action: "local/a", CreatedAt: time.Unix(1, 0).UTC(),
		AutomationProfile: plan.AutomationRef{Name: name, Provenance: "plan", SHA256: "aa"},
		SafetyProfile:     plan.SafetyRef{Provenance: "action", Source: "composed", FromProfile: &name, SafetyProfile: safety, SHA256: "bb"},
		Levels:            []plan.Setting{{Level: "plan", AutomationProfile: &name, SafetyProfile: &safety, Source: &src}},
		ProjectDir:        "/p",
	}
	act := &action.Action{Name: "local/a", AutomationProfile: &name, SafetyProfile: &safety}
	env, err := PolicyContext{Profile: prof, Safety: safety, Plan: pl, Action: act}.env()
	if err != nil {
		t.Fatal(err)
	}
	if env.Plan.SafetyProfile.FromProfile == nil || *env.Plan.SafetyProfile.FromProfile != name || env.Plan.SafetyProfile.MaxTotalCost == nil ||
		env.Action.SafetyProfile == nil || env.Profile.Guards.ToolDenylist[0] != "b" || env.Plan.Levels[0].Source == nil {
		t.Errorf("documents lost values: %+v", env)
	}
	p := predicatePack(t, [][2]string{
		{"all_there", `plan.safety_profile.from_profile == "acme/x" && action.automation_profile == "acme/x" && profile.guards.max_tool_calls_per_step == 3 && plan.levels[0].safety_profile.max_total_cost == 2.5 && plan.created_at != ""`},
	}, nil)
	if j := p.Judge(PolicyContext{Profile: prof, Safety: safety, Plan: pl, Action: act}).Judgements[0]; !j.Upheld {
		t.Errorf("%s", j.Reason)
	}
}

func TestModeOfAndHasPredicates(t *testing.T) {
	p := predicatePack(t, [][2]string{{"a", `true`}, {"b", `true`}}, map[string]Mode{"b": ModeAudit})
	if p.ModeOf("a") != ModeEnforce || p.ModeOf("b") != ModeAudit || p.ModeOf(NoHotPathRepair) != "" || !p.HasPredicates() {
		t.Errorf("modes: a %q b %q shipped %q", p.ModeOf("a"), p.ModeOf("b"), p.ModeOf(NoHotPathRepair))
	}
	if validPack("acme_safety_v1").HasPredicates() {
		t.Error("a pack without predicates has predicates")
	}
	if v := validPack("acme_safety_v1").Judge(PolicyContext{}); len(v.Judgements) != 0 || v.Refused() {
		t.Errorf("a pack without predicates judged: %+v", v)
	}
}

// TestPlanSafetyFieldsFlattened: the plan's safety reference shares the
// safety profile's fields, and a predicate reads them beside the
// reference's own, as the plan's JSON has them.
func TestPlanSafetyFieldsFlattened(t *testing.T) {
	prof := testProfile("acme/x", 0.5, false, true)
	safety := prof.Safety.Clone()
	pl := &plan.Plan{ID: "01jq3v6m4x8b2c7d9e0f1g2h3k", Action: "local/a", CreatedAt: time.Unix(1, 0).UTC(),
		SafetyProfile: plan.SafetyRef{Provenance: "action", Source: "composed", SafetyProfile: safety, SHA256: "bb"}}
	p := predicatePack(t, [][2]string{
		{"flat", `plan.safety_profile.require_sandbox && !plan.safety_profile.allow_unsafe_tools && plan.safety_profile.provenance == "action" && plan.safety_profile.sha256 == "bb"`},
	}, nil)
	if j := p.Judge(PolicyContext{Profile: prof, Safety: safety, Plan: pl}).Judgements[0]; !j.Upheld {
		t.Errorf("%s", j.Reason)
	}
	if _, err := compilePredicate(`plan.safety_profile.require_sandbx`); err == nil || !strings.Contains(err.Error(), "plan.safety_profile has no field require_sandbx") {
		t.Errorf("error %v", err)
	}
}

// TestJudgeCostBudgetMadeUp: lists and strings the predicate makes itself
// count as the context's do: a let-bound list longer than any in the
// context, looped over in depth, and a string doubled by + over and over,
// are not run, and violate their boundary at once.
func TestJudgeCostBudgetMadeUp(t *testing.T) {
	nest := "true"
	for range 7 {
		nest = "all(a, " + nest + ")"
	}
	double := "let a0 = profile.name + profile.name;"
	for i := 1; i <= 22; i++ {
		double += fmt.Sprintf(" let a%d = a%d + a%d;", i, i-1, i-1)
	}
	double += " len(a22) > 0"
	prof := testProfile("acme/x", 1, false, true)
	for name, src := range map[string]string{
		"nested loops over a let list": "let a = [1,1,1,1,1,1,1,1,1,1]; " + nest,
		"a string doubled 23 times":    double,
	} {
		p := predicatePack(t, [][2]string{{"made_up", src}}, nil)
		start := time.Now()
		j := p.Judge(ctxOf(prof)).Judgements[0]
		if j.Upheld || !strings.Contains(j.Reason, "above the budget") {
			t.Errorf("%s: upheld %v, %s", name, j.Upheld, j.Reason)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: refusing it took %v: the predicate ran", name, d)
		}
	}
	// Adding numbers is no join: a sum in a loop stays within budget.
	p := predicatePack(t, [][2]string{{"sum", `all(safety.allowed_skill_categories, safety.max_retries_per_step + 1 > 0)`}}, nil)
	if j := p.Judge(ctxOf(prof)).Judgements[0]; strings.Contains(j.Reason, "above the budget") {
		t.Errorf("a sum: %s", j.Reason)
	}
}
