package action

import (
	"errors"
	"reflect"
	"testing"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

// maxFuzzInput keeps fuzzing on the decoder's logic rather than on the
// parser's speed with large inputs.
const maxFuzzInput = 4 << 10

// The seed corpus lives in testdata/fuzz/FuzzDecodeAction/.

func FuzzDecodeAction(f *testing.F) {
	f.Add([]byte(secureDeploy))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			t.Skip()
		}
		a, err := Decode(data, "fuzz.yaml")
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || e.Kind != errs.KindInvalid || len(e.Problems) == 0 {
				t.Fatalf("refusal is not invalid input with problems: %v (%T)", err, err)
			}
			for _, p := range e.Problems {
				if p.File != "fuzz.yaml" || p.Message == "" {
					t.Fatalf("problem without file or message: %+v", p)
				}
			}
			if a != nil {
				t.Fatal("an action returned with an error")
			}
			return
		}
		if err := ValidateName(a.Name); err != nil {
			t.Fatalf("accepted an invalid name %q: %v", a.Name, err)
		}
		if a.AutomationProfile != nil && profile.CheckProfileName(*a.AutomationProfile) != "" {
			t.Fatalf("accepted an invalid profile name %q", *a.AutomationProfile)
		}
		if err := a.Validate(); err != nil {
			t.Fatalf("accepted an action that does not validate: %v", err)
		}
		out, err := canon.YAML(a)
		if err != nil {
			t.Fatalf("canonical encoding: %v", err)
		}
		again, err := Decode(out, "canonical.yaml")
		if err != nil {
			t.Fatalf("canonical output refused: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(a, again) {
			t.Fatalf("decode, encode, decode changed the action\n%+v\n%+v\n%s", a, again, out)
		}
	})
}
