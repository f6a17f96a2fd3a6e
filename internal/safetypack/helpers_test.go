package safetypack

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
)

// shippedIDs are the shipped pack's boundaries, written out here rather than
// read from the pack so a test notices if the shipped pack loses one.
var shippedIDs = []string{NoFabricatedSource, NoHotPathRepair, NoIdentityOverride, NoSilentCorrection, PreserveVersorClosure}

// validPack returns a well-formed, unratified pack stricter than the
// shipped one.
func validPack(id string) *Pack {
	p := &Pack{
		PackID:               id,
		Version:              "1.0.0",
		Description:          "A test pack.",
		SchemaVersion:        SchemaVersion,
		BoundaryIDs:          append(append([]string{}, shippedIDs...), "no_friday_deploys"),
		BoundaryDescriptions: map[string]string{},
	}
	if m := p.Major(); m != "" {
		p.Version = m + ".0.0"
	}
	for _, b := range p.BoundaryIDs {
		p.BoundaryDescriptions[b] = "Why " + b + " matters."
	}
	return p
}

// packJSON returns the pack as a generic JSON object, to be edited by a
// test and encoded with encodeJSON.
func packJSON(t *testing.T, p *Pack) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(p.Encode(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func encodeJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantKind fails unless err is an *errs.Error of kind k whose text (message
// and problems) contains every one of wants.
func wantKind(t *testing.T, err error, k errs.Kind, wants ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s error containing %q", k.Code(), wants)
	}
	if got := errs.KindOf(err); got != k {
		t.Fatalf("error kind = %s, want %s: %v", got.Code(), k.Code(), err)
	}
	text := errorText(err)
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("error does not mention %q:\n%s", w, text)
		}
	}
}

func errorText(err error) string {
	var b strings.Builder
	b.WriteString(err.Error())
	var e *errs.Error
	if errorsAs(err, &e) {
		for _, p := range e.Problems {
			b.WriteString("\n")
			b.WriteString(p.String())
		}
		b.WriteString("\nhint: " + e.Hint)
	}
	return b.String()
}

func readTestFile(path string) ([]byte, error) { return os.ReadFile(path) }
