package profile

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
)

// maxFuzzInput keeps fuzzing on the decoder's logic rather than on the
// parser's speed with large inputs.
const maxFuzzInput = 4 << 10

// The seed corpora live in testdata/fuzz/<FuzzName>/; Go's fuzzer has no
// dictionary, so tokens such as .nan or !custom are only tried because a
// seed holds them.

func FuzzDecodeProfile(f *testing.F) {
	f.Add([]byte("name: acme/x\nauto_apply: 0.5\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			t.Skip()
		}
		p, _, err := DecodeProfile(data, "fuzz.yaml")
		if err != nil {
			checkRefusal(t, err)
			if p != nil {
				t.Fatal("a profile returned with an error")
			}
			return
		}
		if why := CheckProfileName(p.Name); why != "" {
			t.Fatalf("accepted an invalid name %q: %s", p.Name, why)
		}
		for _, g := range Gates {
			if v := g.Value(p); math.IsNaN(v) || v < 0 || v > 1 || math.Signbit(v) || subnormal(v) {
				t.Fatalf("accepted %s = %v", g.Name, v)
			}
		}
		checkNumbers(t, p.Safety, p.Guards)
		if err := p.Validate(); err != nil {
			t.Fatalf("accepted a profile that does not validate: %v", err)
		}
		out, err := canon.YAML(p)
		if err != nil {
			t.Fatalf("canonical encoding: %v", err)
		}
		again, warnings, err := DecodeProfile(out, "canonical.yaml")
		if err != nil {
			t.Fatalf("canonical output refused: %v\n%s\n%s", err, problemText(err), out)
		}
		if len(warnings) != 0 {
			t.Fatalf("canonical output warns: %v", warnings)
		}
		if !reflect.DeepEqual(p, again) {
			t.Fatalf("decode, encode, decode changed the profile\n%s\n%s\n%s", dump(p), dump(again), out)
		}
	})
}

func FuzzDecodeSafetyProfile(f *testing.F) {
	f.Add([]byte("require_sandbox: true\nmax_retries_per_step: 3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			t.Skip()
		}
		s, _, err := DecodeSafetyProfile(data, "fuzz.yaml")
		if err != nil {
			checkRefusal(t, err)
			if !reflect.DeepEqual(s, DefaultSafetyProfile()) {
				t.Fatalf("value returned with an error is not the default: %s", safetyString(s))
			}
			return
		}
		checkNumbers(t, s, nil)
		if err := s.Validate(); err != nil {
			t.Fatalf("accepted a safety profile that does not validate: %v", err)
		}
		if s.AllowedSkillCategories == nil {
			t.Fatal("accepted nil categories")
		}
		out, err := canon.YAML(s)
		if err != nil {
			t.Fatalf("canonical encoding: %v", err)
		}
		again, _, err := DecodeSafetyProfile(out, "canonical.yaml")
		if err != nil {
			t.Fatalf("canonical output refused: %v\n%s\n%s", err, problemText(err), out)
		}
		if !reflect.DeepEqual(s, again) {
			t.Fatalf("decode, encode, decode changed the profile\n%s\n%s\n%s", safetyString(s), safetyString(again), out)
		}
	})
}

// checkRefusal checks that a refusal is invalid input with at least one
// problem, each naming the file.
func checkRefusal(t *testing.T, err error) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.KindInvalid {
		t.Fatalf("refusal is not invalid input: %v (%T)", err, err)
	}
	if len(e.Problems) == 0 {
		t.Fatalf("refusal without problems: %v", err)
	}
	for _, p := range e.Problems {
		if p.File != "fuzz.yaml" || p.Message == "" {
			t.Fatalf("problem without file or message: %+v", p)
		}
	}
}

// subnormal reports a number below the smallest normal float64 that is not
// 0: what a literal too small to represent (1e-400) would round to.
func subnormal(v float64) bool { return v != 0 && math.Abs(v) < 0x1p-1022 }

// checkNumbers checks the numbers of an accepted safety profile and guards
// directly, not through Validate: costs finite and not negative, with -0
// stored as 0 (its encoding would otherwise read "-0"), counts in range.
func checkNumbers(t *testing.T, s SafetyProfile, g *AutomationGuard) {
	t.Helper()
	costs := map[string]*float64{"safety.max_cost_per_plan": s.MaxCostPerPlan, "safety.max_total_cost": s.MaxTotalCost}
	if g != nil {
		costs["guards.max_total_cost"] = g.MaxTotalCost
		if c := g.MaxToolCallsPerStep; c != nil && *c < 0 {
			t.Fatalf("accepted guards.max_tool_calls_per_step = %d", *c)
		}
	}
	for field, c := range costs {
		if c != nil && (math.IsNaN(*c) || math.IsInf(*c, 0) || *c < 0 || math.Signbit(*c) || subnormal(*c)) {
			t.Fatalf("accepted %s = %v", field, *c)
		}
	}
	if s.MaxRetriesPerStep < 0 || s.MaxRetriesPerStep > MaxRetriesPerStep {
		t.Fatalf("accepted safety.max_retries_per_step = %d", s.MaxRetriesPerStep)
	}
}
