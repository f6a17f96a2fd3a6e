package render

import (
	"math/rand/v2"
	"testing"

	"github.com/agentsctl/agents/internal/canon"
)

// plainGuard and plainGate have the documents' fields without their
// MarshalJSON: what encoding/json writes for them (canon.CompactJSON) is
// the reference.
type (
	plainGuard guardDoc
	plainGate  gateDoc
)

func encodeJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := canon.CompactJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDecisionJSONIsEncodingJSON: the hand-written encodings of the
// decision documents are byte for byte what encoding/json writes, for
// every combination of absent, empty and present fields.
func TestDecisionJSONIsEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	strs := []string{"", "auto_apply", "a \"quoted\" <reason> & \n tab\t", "é 😀 \u2028", "bad \xff"}
	pick := func() string { return strs[r.IntN(len(strs))] }
	opt := func() *string {
		if r.IntN(3) == 0 {
			return nil
		}
		s := pick()
		return &s
	}
	list := func() []string {
		switch r.IntN(4) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		out := make([]string, 1+r.IntN(3))
		for i := range out {
			out[i] = pick()
		}
		return out
	}
	floats := []float64{0, 1, 0.7, 0.1 + 0.2, 1e-7, 0.123456789}
	for range 5000 {
		d := decisionDoc{
			Allowed: r.IntN(2) == 0, Reason: opt(), RequiresApproval: r.IntN(2) == 0, Rule: pick(),
			Profile: pick(), Level: opt(), Plan: opt(), Warnings: list(),
		}
		guard := guardDoc{decisionDoc: d, decisionSafety: decisionSafety{SafetyLevel: opt(), SafetySource: opt(), Conditions: list()}}
		if got, want := encodeJSON(t, guard), encodeJSON(t, plainGuard(guard)); got != want {
			t.Fatalf("guard decision:\n got %s\nwant %s", got, want)
		}
		gate := gateDoc{decisionDoc: d, decisionSafety: decisionSafety{Conditions: list()}, Threshold: floats[r.IntN(len(floats))], Confidence: floats[r.IntN(len(floats))]}
		if got, want := encodeJSON(t, gate), encodeJSON(t, plainGate(gate)); got != want {
			t.Fatalf("gate decision:\n got %s\nwant %s", got, want)
		}
	}
}
