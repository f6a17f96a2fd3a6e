package plan

import (
	"bytes"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
)

// FuzzDecodePlan checks that the stored-plan decoder never panics, refuses
// with problems, and that a plan it accepts encodes to a fixed point.
func FuzzDecodePlan(f *testing.F) {
	data, _, err := Encode(sample(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(bytes.Replace(data, []byte("source: composed"), []byte("source: standalone"), 1))
	f.Add([]byte("id: x\nlevels: [1, 2, 3, 4]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 8<<10 {
			t.Skip()
		}
		p, err := Decode(data, "fuzz.yaml")
		if err != nil {
			if !errs.Is(err, errs.KindInvalid) {
				t.Fatalf("refusal is not invalid input: %v", err)
			}
			return
		}
		if CheckID(p.ID) != "" || len(p.Levels) != len(Levels) {
			t.Fatalf("accepted a plan with id %q and %d levels", p.ID, len(p.Levels))
		}
		out, stored, err := Encode(p)
		if err != nil {
			t.Fatalf("an accepted plan does not encode: %v", err)
		}
		again, _, err := Encode(stored)
		if err != nil || !bytes.Equal(out, again) {
			t.Fatalf("encoding is not a fixed point: %v\n%s\n%s", err, out, again)
		}
	})
}
