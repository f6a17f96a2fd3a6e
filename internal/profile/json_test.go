package profile_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/profiles"
)

// plainProfile has the profile's fields without its MarshalJSON: what
// encoding/json writes for it is the reference.
type plainProfile profile.AutomationProfile

// randomProfile fills every field of a profile, absent, empty or present,
// with strings that need escaping and numbers in every notation.
func randomProfile(r *rand.Rand) profile.AutomationProfile {
	strs := []string{"", "acme/guarded", `a "quoted" \ <tag> & more`, "line\nbreak\ttab\x01", "é 😀 \u2028 \u2029", "bad \xff utf-8"}
	str := func() string { return strs[r.IntN(len(strs))] }
	floats := []float64{0, 1, 0.5, 0.7, 0.1 + 0.2, 1e-7, 123456.789, 1e21, math.Copysign(0, -1)}
	num := func() float64 {
		if r.IntN(4) == 0 {
			return r.Float64()
		}
		return floats[r.IntN(len(floats))]
	}
	optNum := func() *float64 {
		if r.IntN(3) == 0 {
			return nil
		}
		f := num()
		return &f
	}
	list := func() []string {
		switch r.IntN(3) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		return []string{str(), str()}
	}
	p := profile.AutomationProfile{
		Name: str(), Description: str(), SchemaVersion: str(),
		AutoStrategize: num(), AutoExecute: num(), AutoApply: num(), AutoDecisionsStrategize: num(),
		AutoDecisionsExecute: num(), AutoValidationFix: num(), AutoStrategyRevision: num(),
		AutoReversionFromApply: num(), AutoChildPlans: num(), AutoRetryTransient: num(), AutoCheckpointRestore: num(),
		Safety: profile.SafetyProfile{
			RequireSandbox: r.IntN(2) == 0, RequireCheckpoints: r.IntN(2) == 0, AllowUnsafeTools: r.IntN(2) == 0,
			RequireHumanApproval: r.IntN(2) == 0, AllowedSkillCategories: list(), MaxCostPerPlan: optNum(),
			MaxTotalCost: optNum(), MaxRetriesPerStep: r.IntN(200) - 50,
		},
	}
	if r.IntN(3) > 0 {
		g := &profile.AutomationGuard{MaxTotalCost: optNum(), ToolAllowlist: list(), ToolDenylist: list(),
			RequireApprovalForWrites: r.IntN(2) == 0, RequireApprovalForApply: r.IntN(2) == 0}
		if r.IntN(2) == 0 {
			n := r.IntN(1000) - 10
			g.MaxToolCallsPerStep = &n
		}
		p.Guards = g
	}
	return p
}

// TestProfileJSONIsEncodingJSON: a profile's hand-written JSON is byte for
// byte what encoding/json writes for its fields, with HTML escaping off (as
// every document agents prints or stores) and on, by value and by pointer,
// for the built-ins and for random profiles.
func TestProfileJSONIsEncodingJSON(t *testing.T) {
	var ps []profile.AutomationProfile
	for _, name := range profile.BuiltinNames {
		ps = append(ps, *profiles.Decoded(name))
	}
	r := rand.New(rand.NewPCG(9, 10))
	for range 5000 {
		ps = append(ps, randomProfile(r))
	}
	for _, p := range ps {
		want, err := canon.CompactJSON(plainProfile(p))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []any{p, &p} {
			got, err := canon.CompactJSON(v)
			if err != nil || string(got) != string(want) {
				t.Fatalf("profile %q:\n got %s (%v)\nwant %s", p.Name, got, err, want)
			}
		}
		got, err1 := json.Marshal(p)
		want2, err2 := json.Marshal(plainProfile(p))
		if err1 != nil || err2 != nil || string(got) != string(want2) {
			t.Fatalf("profile %q, HTML escaped:\n got %s (%v)\nwant %s (%v)", p.Name, got, err1, want2, err2)
		}
	}
	nan := profile.AutomationProfile{AutoApply: math.NaN()}
	if _, err := canon.CompactJSON(nan); err == nil {
		t.Error("a NaN threshold was encoded")
	}
}
