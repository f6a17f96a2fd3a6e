package safetypack

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/safetypack/jcs"
	"github.com/agentsctl/agents/packs/safety"
)

// canonicalByFileForm is what the seal covers, by its definition: the
// pack's file form, less mastery_report_sha256, in RFC 8785's encoding.
func canonicalByFileForm(t *testing.T, p *Pack) []byte {
	t.Helper()
	b, err := canon.JSON(p.fileForm())
	if err != nil {
		t.Fatal(err)
	}
	var content map[string]json.RawMessage
	if err := json.Unmarshal(b, &content); err != nil {
		t.Fatal(err)
	}
	delete(content, "mastery_report_sha256")
	out, err := jcs.Marshal(content)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCanonicalContentIsTheFileForm: the canonical content, written field
// by field, is the file form's, for the shipped and example packs and for
// packs whose strings and keys stress the encoding: HTML characters,
// control characters, invalid UTF-8, keys outside the Basic Multilingual
// Plane (ordered by UTF-16 code units, not code points), empty and absent
// maps and lists, every field set.
func TestCanonicalContentIsTheFileForm(t *testing.T) {
	var packs []*Pack
	for _, file := range []string{"../../examples/packs/acme_lockdown_v1.json", "../../bench/testdata/bench_safety_v1.json"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParsePack(data, filepath.Base(file))
		if err != nil {
			t.Fatal(err)
		}
		packs = append(packs, p)
	}
	shipped, err := LoadShippedSlow(safety.FS)
	if err != nil {
		t.Fatal(err)
	}
	packs = append(packs, shipped.Pack,
		&Pack{},
		&Pack{PackID: "a_v1", BoundaryIDs: []string{}, BoundaryDescriptions: map[string]string{}, BoundaryPredicates: map[string]string{}, BoundaryEnforcement: map[string]Mode{}},
		&Pack{
			PackID: "acme_x_v2", Version: "2.0.0-rc.1+b5", SchemaVersion: "1", MasteryReportSHA256: "ab",
			Description: "<tag> & \"quotes\" \\ \b\f\n\r\t \x01\x1f \u2028 é 😀 bad:\xff\xfe end",
			BoundaryIDs: []string{"z", "a", "😀", "\uffff", "\x7f"},
			BoundaryDescriptions: map[string]string{
				"z": "last", "a": "first", "😀": "astral", "\uffff": "bmp end", "\ue000": "private", "A": "upper", "": "empty key", "\x00": "nul",
			},
			BoundaryPredicates:  map[string]string{"z": `tool.name == "rm" && cost > 1`, "😀": "<script>"},
			BoundaryEnforcement: map[string]Mode{"z": ModeWarn, "😀": ModeEnforce, "a": Mode("audit")},
		},
	)
	for i, p := range packs {
		want := canonicalByFileForm(t, p)
		if got := p.CanonicalContent(); !bytes.Equal(got, want) {
			t.Errorf("pack %d (%s):\n got %s\nwant %s", i, p.PackID, got, want)
		}
	}
}

// TestSelfSealIsTheCanonicalReport: the report's self-seal is the sha256 of
// its RFC 8785 encoding without report_sha256.
func TestSelfSealIsTheCanonicalReport(t *testing.T) {
	for _, r := range []Report{
		{},
		{PackID: "core_safety_axes_v1", PackSHA256: strings.Repeat("ab", 32), ReportSHA256: "x"},
		{PackID: "<a> & \"b\" \\ \n \x01 é 😀 \xff", PackSHA256: "\u2028"},
	} {
		b, err := jcs.Marshal(map[string]string{"pack_id": r.PackID, "pack_sha256": r.PackSHA256})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := r.SelfSeal(), sha256Hex(b); got != want {
			t.Errorf("SelfSeal of %+v = %s, want %s (of %s)", r, got, want, b)
		}
	}
}
