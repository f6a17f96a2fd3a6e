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
			if v := g.Value(p); math.IsNaN(v) || v < 0 || v > 1 || math.Signbit(v) {
				t.Fatalf("accepted %s = %v", g.Name, v)
			}
		}
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
