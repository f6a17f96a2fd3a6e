package safetypack

import (
	"io/fs"
	"reflect"
	"testing"

	"github.com/agentsctl/agents/packs/safety"
)

// TestShippedGenerated: the values compiled in for the shipped pack are
// exactly what the embedded files parse to, their seal verifies, and the
// digests the fast path compares are those of the embedded files. Run
// 'go generate ./internal/safetypack' when it fails.
func TestShippedGenerated(t *testing.T) {
	slow, err := LoadShippedSlow(safety.FS)
	if err != nil || !slow.Ratified {
		t.Fatalf("the embedded pack does not verify: %v", err)
	}
	p, r := shippedValues()
	if !reflect.DeepEqual(p, slow.Pack) || !reflect.DeepEqual(r, slow.Report) {
		t.Errorf("shipped_gen.go is stale: the embedded files parse to\n%#v\n%#v", slow.Pack, slow.Report)
	}
	for name, want := range map[string]string{
		ShippedPackID + ".json":       shippedPackFileSHA256,
		ReportFileName(ShippedPackID): shippedReportFileSHA256,
	} {
		data, err := fs.ReadFile(safety.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		if got := sha256Hex(data); got != want {
			t.Errorf("%s hashes to %s, shipped_gen.go has %s", name, got, want)
		}
	}
	fast, ok := shippedFast()
	if !ok {
		t.Fatal("the fast path refused the embedded files")
	}
	if !reflect.DeepEqual(fast.Pack, slow.Pack) || !reflect.DeepEqual(fast.Report, slow.Report) ||
		fast.Ratified != slow.Ratified || fast.Source != slow.Source || fast.ReportFile != slow.ReportFile || fast.Level != slow.Level {
		t.Errorf("the fast path gives\n%+v\nthe full one\n%+v", fast, slow)
	}
	// Each call hands out its own copy.
	a, _ := shippedValues()
	a.BoundaryIDs[0] = "changed"
	a.BoundaryDescriptions["x"] = "y"
	if b, _ := shippedValues(); b.BoundaryIDs[0] == "changed" || b.BoundaryDescriptions["x"] != "" {
		t.Error("shippedValues shares its slices or maps between calls")
	}
}
