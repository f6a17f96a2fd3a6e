package safetypack

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

func f64(v float64) *float64 { return &v }
func boolp(v bool) *bool     { return &v }
func strp(v string) *string  { return &v }

// TestDefaultPredicates checks each default predicate with its evidence
// upheld, violated, and absent.
func TestDefaultPredicates(t *testing.T) {
	tests := []struct {
		name      string
		pred      Predicate
		ctx       *Context
		upheld    bool
		checkable bool
		reason    string
		evidence  []string
	}{
		{"versor closed", CheckPreserveVersorClosure, &Context{FieldState: &FieldState{VersorCondition: f64(1e-7)}}, true, true, "below 1e-6", []string{"versor_condition: 1e-07"}},
		{"versor zero", CheckPreserveVersorClosure, &Context{FieldState: &FieldState{VersorCondition: f64(0)}}, true, true, "below 1e-6", nil},
		{"versor at tolerance", CheckPreserveVersorClosure, &Context{FieldState: &FieldState{VersorCondition: f64(1e-6)}}, false, true, "not below 1e-6", []string{"versor_condition: 1e-06"}},
		{"versor open", CheckPreserveVersorClosure, &Context{FieldState: &FieldState{VersorCondition: f64(0.5)}}, false, true, "0.5 is not below", nil},
		{"versor absent", CheckPreserveVersorClosure, &Context{}, true, false, "no versor condition supplied", nil},
		{"versor field state empty", CheckPreserveVersorClosure, &Context{FieldState: &FieldState{}}, true, false, "no versor condition supplied", nil},

		{"sources allowed", CheckNoFabricatedSource, &Context{CitedSourceSHAs: []string{"a", "b"}, AllowedSourceSHAs: []string{"b", "a", "c"}}, true, true, "all 2 cited sources are allowed", nil},
		{"nothing cited", CheckNoFabricatedSource, &Context{CitedSourceSHAs: []string{}, AllowedSourceSHAs: []string{"a"}}, true, true, "no source is cited", nil},
		{"one cited twice", CheckNoFabricatedSource, &Context{CitedSourceSHAs: []string{"a", "a"}, AllowedSourceSHAs: []string{"a"}}, true, true, "the one cited source is allowed", nil},
		{"one of two fabricated", CheckNoFabricatedSource, &Context{CitedSourceSHAs: []string{"a", "b"}, AllowedSourceSHAs: []string{"a"}}, false, true, "1 of 2 cited sources is not allowed", []string{"not allowed: b"}},
		{"source fabricated", CheckNoFabricatedSource, &Context{CitedSourceSHAs: []string{"z", "a", "y", "z"}, AllowedSourceSHAs: []string{"a"}}, false, true, "2 of 3 cited sources are not allowed", []string{"not allowed: y", "not allowed: z"}},
		{"empty allowlist", CheckNoFabricatedSource, &Context{CitedSourceSHAs: []string{"a"}, AllowedSourceSHAs: []string{}}, false, true, "the one cited source is not allowed", []string{"not allowed: a"}},
		{"no allowlist", CheckNoFabricatedSource, &Context{CitedSourceSHAs: []string{"a"}}, true, false, "no allowed sources supplied", nil},
		{"no citations", CheckNoFabricatedSource, &Context{AllowedSourceSHAs: []string{"a"}}, true, false, "no cited sources supplied", nil},

		{"refusal typed", CheckNoSilentCorrection, &Context{LastRefusalWasTyped: boolp(true)}, true, true, "carried a typed error", []string{"last_refusal_was_typed: true"}},
		{"refusal untyped", CheckNoSilentCorrection, &Context{LastRefusalWasTyped: boolp(false)}, false, true, "carried no typed error", []string{"last_refusal_was_typed: false"}},
		{"refusal absent", CheckNoSilentCorrection, &Context{}, true, false, "was not supplied", nil},

		{"identity same", CheckNoIdentityOverride, &Context{IdentityManifoldHashBefore: strp("h1"), IdentityManifoldHashAfter: strp("h1")}, true, true, "unchanged", []string{"before: h1", "after: h1"}},
		{"identity changed", CheckNoIdentityOverride, &Context{IdentityManifoldHashBefore: strp("h1"), IdentityManifoldHashAfter: strp("h2")}, false, true, "changed", []string{"before: h1", "after: h2"}},
		{"identity only before", CheckNoIdentityOverride, &Context{IdentityManifoldHashBefore: strp("h1")}, true, false, "not both supplied", nil},
		{"identity only after", CheckNoIdentityOverride, &Context{IdentityManifoldHashAfter: strp("h1")}, true, false, "not both supplied", nil},

		{"hot path, empty context", CheckNoHotPathRepair, &Context{}, true, false, "static analysis and review", nil},
		{"hot path, full context", CheckNoHotPathRepair, &Context{LastRefusalWasTyped: boolp(false), FieldState: &FieldState{VersorCondition: f64(9)}}, true, false, "cannot judge it", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.pred(tt.ctx)
			if r.Upheld != tt.upheld || r.RuntimeCheckable != tt.checkable {
				t.Errorf("upheld=%v checkable=%v, want %v %v (%s)", r.Upheld, r.RuntimeCheckable, tt.upheld, tt.checkable, r.Reason)
			}
			if !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("reason %q does not contain %q", r.Reason, tt.reason)
			}
			if tt.evidence != nil && !slices.Equal(r.Evidence, tt.evidence) {
				t.Errorf("evidence = %q, want %q", r.Evidence, tt.evidence)
			}
			if r.Evidence == nil {
				t.Error("evidence is nil, want a list")
			}
		})
	}
}

func packWith(ids ...string) *Pack {
	p := &Pack{PackID: "test_v1", BoundaryIDs: ids, BoundaryDescriptions: map[string]string{}}
	return p
}

func TestCheckUnknownBoundaryFallback(t *testing.T) {
	v := NewSafetyCheck().Check(&Context{}, packWith("no_friday_deploys"))
	if len(v.Results) != 1 {
		t.Fatalf("results = %+v", v.Results)
	}
	r := v.Results[0]
	if r.BoundaryID != "no_friday_deploys" || !r.Upheld || r.RuntimeCheckable || r.Reason != "no predicate registered for boundary" || r.Evidence == nil || len(r.Evidence) != 0 {
		t.Errorf("fallback result = %+v", r)
	}
	if !v.Upheld || v.RuntimeCheckableCount != 0 || len(v.ViolatedBoundaries) != 0 {
		t.Errorf("verdict = %+v", v)
	}
}

func TestCheckCustomRegistration(t *testing.T) {
	c := NewSafetyCheck()
	calls := 0
	err := c.Register("no_friday_deploys", func(ctx *Context) Result {
		calls++
		return Result{BoundaryID: "no_friday_deploys", Upheld: false, RuntimeCheckable: true, Reason: "it is Friday", Evidence: []string{"day: friday"}}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(c.Registered(), "no_friday_deploys") || len(c.Registered()) != 6 {
		t.Errorf("Registered = %v", c.Registered())
	}
	v := c.Check(nil, packWith("no_friday_deploys", NoHotPathRepair))
	if calls != 1 {
		t.Errorf("custom predicate ran %d times", calls)
	}
	if v.Upheld || !slices.Equal(v.ViolatedBoundaries, []string{"no_friday_deploys"}) || v.RuntimeCheckableCount != 1 {
		t.Errorf("verdict = %+v", v)
	}
	if r := v.Results[0]; r.Reason != "it is Friday" || !slices.Equal(r.Evidence, []string{"day: friday"}) {
		t.Errorf("custom result = %+v", r)
	}

	// A registration replaces the default.
	_ = c.Register(NoHotPathRepair, func(*Context) Result { return Result{Upheld: true, RuntimeCheckable: true, Reason: "linted"} })
	v = c.Check(nil, packWith(NoHotPathRepair))
	if r := v.Results[0]; r.Reason != "linted" || !r.RuntimeCheckable {
		t.Errorf("replaced default = %+v", r)
	}
	if err := c.Register("", CheckNoHotPathRepair); err == nil {
		t.Error("registering an empty boundary id succeeded")
	}
	if err := c.Register("x", nil); err == nil {
		t.Error("registering a nil predicate succeeded")
	}
	var zero SafetyCheck
	if err := zero.Register("x", CheckNoHotPathRepair); err != nil || !slices.Equal(zero.Registered(), []string{"x"}) {
		t.Errorf("zero-value SafetyCheck: %v %v", err, zero.Registered())
	}
}

func TestCheckPanickingPredicate(t *testing.T) {
	c := NewSafetyCheck()
	_ = c.Register("fragile", func(*Context) Result { panic("index out of range") })
	v := c.Check(&Context{}, packWith("fragile", NoHotPathRepair))
	var r Result
	for _, x := range v.Results {
		if x.BoundaryID == "fragile" {
			r = x
		}
	}
	if r.Upheld || !strings.Contains(r.Reason, "index out of range") || !strings.Contains(r.Reason, "panicked") {
		t.Errorf("panicking result = %+v", r)
	}
	if v.Upheld || !slices.Equal(v.ViolatedBoundaries, []string{"fragile"}) || len(v.Results) != 2 {
		t.Errorf("verdict = %+v", v)
	}
}

func TestCheckRebindsBoundaryID(t *testing.T) {
	c := NewSafetyCheck()
	// This predicate claims to judge another boundary, which it could use
	// to make a violation look like some other boundary's.
	_ = c.Register("mine", func(*Context) Result {
		return Result{BoundaryID: NoHotPathRepair, Upheld: false, RuntimeCheckable: true, Reason: "broken"}
	})
	v := c.Check(&Context{}, packWith("mine", NoHotPathRepair))
	ids := []string{v.Results[0].BoundaryID, v.Results[1].BoundaryID}
	if !slices.Equal(ids, []string{"mine", NoHotPathRepair}) {
		t.Fatalf("result ids = %v", ids)
	}
	if !slices.Equal(v.ViolatedBoundaries, []string{"mine"}) {
		t.Errorf("violated = %v, want [mine]", v.ViolatedBoundaries)
	}
	if hot := v.Results[1]; !hot.Upheld || hot.RuntimeCheckable {
		t.Errorf("no_hot_path_repair was corrupted: %+v", hot)
	}
	if ev := v.Results[0].Evidence; len(ev) != 1 || !strings.Contains(ev[0], `reported boundary "no_hot_path_repair"`) {
		t.Errorf("rebinding not recorded in evidence: %q", ev)
	}
}

func TestCheckPredicatesCannotChangeTheContext(t *testing.T) {
	c := &SafetyCheck{}
	_ = c.Register("a_mutator", func(ctx *Context) Result {
		ctx.LastRefusalWasTyped = boolp(true)
		*ctx.FieldState.VersorCondition = 0
		ctx.CitedSourceSHAs[0] = "allowed"
		return Result{Upheld: true}
	})
	for id, p := range DefaultPredicates() {
		_ = c.Register(id, p)
	}
	ctx := &Context{FieldState: &FieldState{VersorCondition: f64(1)}, LastRefusalWasTyped: boolp(false),
		CitedSourceSHAs: []string{"forged"}, AllowedSourceSHAs: []string{"allowed"}}
	v := c.Check(ctx, packWith("a_mutator", NoSilentCorrection, PreserveVersorClosure, NoFabricatedSource))
	want := []string{NoFabricatedSource, NoSilentCorrection, PreserveVersorClosure}
	if !slices.Equal(v.ViolatedBoundaries, want) {
		t.Errorf("violated = %v, want %v", v.ViolatedBoundaries, want)
	}
	if *ctx.FieldState.VersorCondition != 1 || *ctx.LastRefusalWasTyped || ctx.CitedSourceSHAs[0] != "forged" {
		t.Error("a predicate changed the caller's context")
	}
}

func TestVerdictOrderingAndAggregation(t *testing.T) {
	pack := packWith(PreserveVersorClosure, "zz_custom", NoSilentCorrection, NoFabricatedSource, "aa_custom", NoIdentityOverride, NoHotPathRepair)
	ctx := &Context{
		FieldState:                 &FieldState{VersorCondition: f64(0.1)},
		CitedSourceSHAs:            []string{"x"},
		AllowedSourceSHAs:          []string{"x"},
		LastRefusalWasTyped:        boolp(false),
		IdentityManifoldHashBefore: strp("a"),
		IdentityManifoldHashAfter:  strp("a"),
	}
	v := NewSafetyCheck().Check(ctx, pack)
	var ids []string
	for _, r := range v.Results {
		ids = append(ids, r.BoundaryID)
	}
	wantIDs := []string{"aa_custom", NoFabricatedSource, NoHotPathRepair, NoIdentityOverride, NoSilentCorrection, PreserveVersorClosure, "zz_custom"}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("result order = %v, want %v", ids, wantIDs)
	}
	if v.PackID != "test_v1" || v.Upheld {
		t.Errorf("pack_id %q upheld %v", v.PackID, v.Upheld)
	}
	if want := []string{NoSilentCorrection, PreserveVersorClosure}; !slices.Equal(v.ViolatedBoundaries, want) {
		t.Errorf("violated = %v, want %v", v.ViolatedBoundaries, want)
	}
	if v.RuntimeCheckableCount != 4 {
		t.Errorf("runtime_checkable_count = %d, want 4", v.RuntimeCheckableCount)
	}
	if v2 := NewSafetyCheck().Check(nil, pack); !v2.Upheld || v2.ViolatedBoundaries == nil || len(v2.ViolatedBoundaries) != 0 || v2.RuntimeCheckableCount != 0 {
		t.Errorf("empty context verdict = %+v", v2)
	}
	if v3 := NewSafetyCheck().Check(nil, packWith("b", "a", "b")); len(v3.Results) != 2 {
		t.Errorf("duplicate boundary judged twice: %+v", v3.Results)
	}
}

func TestCheckConcurrentUse(t *testing.T) {
	c := NewSafetyCheck()
	pack := packWith(shippedIDs...)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.Register(fmt.Sprintf("custom_%d", i), CheckNoHotPathRepair)
			if v := c.Check(&Context{}, pack); len(v.Results) != 5 {
				t.Errorf("results = %d", len(v.Results))
			}
		}()
	}
	wg.Wait()
}

// TestVerdictWithPolicy: the pack's own predicates replace the "no
// predicate registered" results of their boundaries, with their modes;
// totals, warnings and what a refusal counts follow.
func TestVerdictWithPolicy(t *testing.T) {
	p := predicatePack(t, [][2]string{
		{"enforced", `!safety.allow_unsafe_tools`},
		{"warned", `profile.auto_apply >= 0.5`},
		{"audited", `profile.name != "full-auto"`},
	}, map[string]Mode{"warned": ModeWarn, "audited": ModeAudit})
	ctx := &Context{LastRefusalWasTyped: ptr(false)} // violates no_silent_correction
	base := NewSafetyCheck().Check(ctx, p)
	for _, r := range base.Results {
		if r.BoundaryID == "enforced" && r.Reason != ReasonNoPredicate {
			t.Fatalf("before: %+v", r)
		}
	}

	v := base.WithPolicy(p.Judge(ctxOf(testProfile("full-auto", 0, true, false))))
	got := map[string]Result{}
	for _, r := range v.Results {
		got[r.BoundaryID] = r
	}
	for id, mode := range map[string]Mode{"enforced": ModeEnforce, "warned": ModeWarn, "audited": ModeAudit} {
		r := got[id]
		if r.Upheld || !r.RuntimeCheckable || r.Mode == nil || *r.Mode != mode || len(r.Evidence) != 1 || !strings.HasPrefix(r.Evidence[0], "predicate: ") {
			t.Errorf("%s: %+v", id, r)
		}
	}
	if got[NoSilentCorrection].Mode != nil || got[NoSilentCorrection].Upheld {
		t.Errorf("a shipped boundary: %+v", got[NoSilentCorrection])
	}
	if want := []string{"audited", "enforced", NoSilentCorrection, "warned"}; !slices.Equal(v.ViolatedBoundaries, want) {
		t.Errorf("violated = %v, want %v", v.ViolatedBoundaries, want)
	}
	if want := []string{"enforced", NoSilentCorrection}; !slices.Equal(v.Enforced(), want) {
		t.Errorf("enforced = %v, want %v", v.Enforced(), want)
	}
	if !slices.Equal(v.Warnings, []string{"warned"}) || v.Upheld {
		t.Errorf("warnings = %v, upheld %v", v.Warnings, v.Upheld)
	}
	if v.RuntimeCheckableCount != base.RuntimeCheckableCount+3 {
		t.Errorf("runtime-checkable = %d, was %d", v.RuntimeCheckableCount, base.RuntimeCheckableCount)
	}
	// The verdict it came from is unchanged.
	for _, r := range base.Results {
		if r.Mode != nil {
			t.Errorf("WithPolicy changed the verdict it was given: %+v", r)
		}
	}
}
