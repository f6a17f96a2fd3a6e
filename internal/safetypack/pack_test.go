package safetypack

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
)

var errorsAs = errors.As

func TestParsePackValid(t *testing.T) {
	want := validPack("acme_safety_v1")
	p, err := ParsePack(want.Encode(), "acme_safety_v1.json")
	if err != nil {
		t.Fatalf("ParsePack: %v", err)
	}
	if p.PackID != "acme_safety_v1" || p.Version != "1.0.0" || p.SchemaVersion != "1.0.0" || p.MasteryReportSHA256 != "" {
		t.Errorf("fields = %+v", p)
	}
	if strings.Join(p.BoundaryIDs, ",") != strings.Join(want.BoundaryIDs, ",") {
		t.Errorf("boundary_ids = %v, want %v", p.BoundaryIDs, want.BoundaryIDs)
	}
	if p.BoundaryDescriptions["no_friday_deploys"] != "Why no_friday_deploys matters." {
		t.Errorf("descriptions = %v", p.BoundaryDescriptions)
	}
	if !bytes.Equal(p.Encode(), want.Encode()) {
		t.Error("encoding a parsed pack does not give the bytes it was parsed from")
	}
}

// TestParsePackEditorForms accepts what editors write around the same
// content: a UTF-8 byte order mark and CRLF line ends.
func TestParsePackEditorForms(t *testing.T) {
	want := validPack("acme_safety_v1")
	enc := want.Encode()
	for name, data := range map[string][]byte{
		"bom":      append([]byte("\ufeff"), enc...),
		"crlf":     bytes.ReplaceAll(enc, []byte("\n"), []byte("\r\n")),
		"bom crlf": append([]byte("\ufeff"), bytes.ReplaceAll(enc, []byte("\n"), []byte("\r\n"))...),
	} {
		p, err := ParsePack(data, "acme_safety_v1.json")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(p.Encode(), enc) || p.ContentSHA256() != want.ContentSHA256() {
			t.Errorf("%s: parsed to another pack", name)
		}
	}
	// A mark anywhere else is not whitespace.
	if _, err := ParsePack(append(append([]byte(" "), "\ufeff"...), enc...), "x.json"); err == nil {
		t.Error("a byte order mark after the start was accepted")
	}
}

// TestParsePackBounds covers every loader bound: each case breaks exactly
// one rule of a valid pack and names what the problem must say.
func TestParsePackBounds(t *testing.T) {
	tests := []struct {
		name string
		edit func(m map[string]any)
		raw  string // used instead of edit when set
		want []string
	}{
		{name: "missing pack_id", edit: func(m map[string]any) { delete(m, "pack_id") }, want: []string{"pack_id: is required"}},
		{name: "missing version", edit: func(m map[string]any) { delete(m, "version") }, want: []string{"version: is required"}},
		{name: "missing description", edit: func(m map[string]any) { delete(m, "description") }, want: []string{"description: is required"}},
		{name: "missing schema_version", edit: func(m map[string]any) { delete(m, "schema_version") }, want: []string{"schema_version: is required"}},
		{name: "missing seal field", edit: func(m map[string]any) { delete(m, "mastery_report_sha256") }, want: []string{"mastery_report_sha256: is required"}},
		{name: "missing boundary_ids", edit: func(m map[string]any) { delete(m, "boundary_ids") }, want: []string{"boundary_ids: is required"}},
		{name: "missing descriptions", edit: func(m map[string]any) { delete(m, "boundary_descriptions") }, want: []string{"boundary_descriptions: is required"}},
		{name: "empty boundary list", edit: func(m map[string]any) { m["boundary_ids"] = []any{}; m["boundary_descriptions"] = map[string]any{} }, want: []string{"boundary_ids: must not be empty"}},
		{name: "boundary list not a list", edit: func(m map[string]any) { m["boundary_ids"] = "no_hot_path_repair" }, want: []string{"boundary_ids: must be a list of strings, got a string"}},
		{name: "duplicate boundary id", edit: func(m map[string]any) { m["boundary_ids"] = append(m["boundary_ids"].([]any), "no_hot_path_repair") }, want: []string{`duplicate boundary id "no_hot_path_repair"`}},
		{name: "empty boundary id", edit: func(m map[string]any) { m["boundary_ids"] = append(m["boundary_ids"].([]any), "") }, want: []string{"boundary_ids[6]: must not be blank"}},
		{name: "blank boundary id", edit: func(m map[string]any) { m["boundary_ids"] = append(m["boundary_ids"].([]any), "  ") }, want: []string{"boundary_ids[6]: must not be blank"}},
		{name: "non-string boundary id", edit: func(m map[string]any) { m["boundary_ids"] = append(m["boundary_ids"].([]any), 7) }, want: []string{"boundary_ids[6]: must be a string, got a number"}},
		{name: "undescribed boundary", edit: func(m map[string]any) { delete(m["boundary_descriptions"].(map[string]any), "no_hot_path_repair") }, want: []string{`boundary "no_hot_path_repair" has no description`}},
		{name: "description of unknown boundary", edit: func(m map[string]any) { m["boundary_descriptions"].(map[string]any)["ghost"] = "boo" }, want: []string{`describes "ghost", which is not in boundary_ids`}},
		{name: "blank description", edit: func(m map[string]any) { m["boundary_descriptions"].(map[string]any)["no_hot_path_repair"] = " " }, want: []string{"boundary_descriptions.no_hot_path_repair: must not be blank"}},
		{name: "non-string description", edit: func(m map[string]any) { m["boundary_descriptions"].(map[string]any)["no_hot_path_repair"] = true }, want: []string{"boundary_descriptions.no_hot_path_repair: must be a string, got a boolean"}},
		{name: "descriptions not an object", edit: func(m map[string]any) { m["boundary_descriptions"] = []any{"x"} }, want: []string{"boundary_descriptions: must be a JSON object, got an array"}},
		{name: "pack id with slash", edit: func(m map[string]any) { m["pack_id"] = "acme/safety_v1" }, want: []string{"must not contain a path separator"}},
		{name: "pack id with backslash", edit: func(m map[string]any) { m["pack_id"] = `acme\safety_v1` }, want: []string{"must not contain a path separator"}},
		{name: "pack id with dot-dot", edit: func(m map[string]any) { m["pack_id"] = "acme..safety_v1" }, want: []string{`must not contain ".."`}},
		{name: "pack id without major", edit: func(m map[string]any) { m["pack_id"] = "acme_safety" }, want: []string{"must have the form <slug>_v<major>"}},
		{name: "pack id upper case", edit: func(m map[string]any) { m["pack_id"] = "Acme_safety_v1" }, want: []string{"must have the form"}},
		{name: "pack id empty", edit: func(m map[string]any) { m["pack_id"] = "" }, want: []string{`pack_id: "" is empty`}},
		{name: "pack id too long", edit: func(m map[string]any) { m["pack_id"] = strings.Repeat("a", 99) + "_v1" }, want: []string{"at most 100 are allowed"}},
		{name: "pack id not a string", edit: func(m map[string]any) { m["pack_id"] = 1 }, want: []string{"pack_id: must be a string, got a number"}},
		{name: "version with v", edit: func(m map[string]any) { m["version"] = "v1.0.0" }, want: []string{`without a leading "v"`}},
		{name: "version not semver", edit: func(m map[string]any) { m["version"] = "1.0" }, want: []string{"is not a semantic version"}},
		{name: "version leading zero", edit: func(m map[string]any) { m["version"] = "01.0.0" }, want: []string{"is not a semantic version"}},
		{name: "version major mismatch", edit: func(m map[string]any) { m["version"] = "2.0.0" }, want: []string{"major version 2 does not match the pack id"}},
		{name: "schema version wrong", edit: func(m map[string]any) { m["schema_version"] = "1.0" }, want: []string{`schema_version: must be "1.0.0", got "1.0"`}},
		{name: "description blank", edit: func(m map[string]any) { m["description"] = "" }, want: []string{"description: must not be blank"}},
		{name: "description on two lines", edit: func(m map[string]any) { m["description"] = "a\nb" }, want: []string{"description: must be one line"}},
		{name: "seal malformed", edit: func(m map[string]any) { m["mastery_report_sha256"] = "ABC" }, want: []string{"64 lower-case hex digits"}},
		{name: "seal null", edit: func(m map[string]any) { m["mastery_report_sha256"] = nil }, want: []string{"mastery_report_sha256: must be a string, got null"}},
		{name: "unknown key", edit: func(m map[string]any) { m["boundary_descrptions"] = map[string]any{} }, want: []string{`unknown key "boundary_descrptions" (did you mean "boundary_descriptions"?)`}},
		{name: "unknown far key", edit: func(m map[string]any) { m["axes"] = 1 }, want: []string{`unknown key "axes" (known keys: pack_id`}},
		{name: "duplicate key", raw: `{"pack_id":"a_v1","pack_id":"a_v1"}`, want: []string{"pack_id: duplicate key"}},
		{name: "duplicate description key", raw: `{"boundary_ids":["x"],"boundary_descriptions":{"x":"1",` + "\n" + `"x":"2"}}`, want: []string{":2: boundary_descriptions.x: duplicate key (first on line 1)"}},
		{name: "root array", raw: `[]`, want: []string{"must be a JSON object, got an array"}},
		{name: "root string", raw: `"pack"`, want: []string{"must be a JSON object, got a string"}},
		{name: "empty file", raw: " \n", want: []string{"file is empty"}},
		{name: "syntax error", raw: "{\n\"pack_id\": }", want: []string{":2: pack_id: invalid JSON"}},
		{name: "truncated", raw: `{"pack_id": "a_v1"`, want: []string{"unexpected end of file"}},
		{name: "trailing data", raw: `{} []`, want: []string{"more data after the document (an array)"}},
		{name: "invalid UTF-8", raw: "{\"pack_id\": \"\xff\"}", want: []string{"not valid UTF-8"}},
		{name: "too large", raw: `{"description":"` + strings.Repeat("x", MaxFileSize) + `"}`, want: []string{"at most 1048576 are read"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.raw)
			if tt.raw == "" {
				m := packJSON(t, validPack("acme_safety_v1"))
				tt.edit(m)
				data = encodeJSON(t, m)
			}
			p, err := ParsePack(data, "pack.json")
			if p != nil {
				t.Errorf("ParsePack returned a pack with an error expected")
			}
			wantKind(t, err, errs.KindSafetyPack, append([]string{"pack.json"}, tt.want...)...)
		})
	}
}

func TestParsePackCollectsEveryProblem(t *testing.T) {
	raw := `{
  "pack_id": "bad/id",
  "version": "v1",
  "description": "",
  "schema_version": "2",
  "mastery_report_sha256": "no",
  "boundary_ids": [],
  "boundary_descriptions": {},
  "extra": 1
}`
	_, err := ParsePack([]byte(raw), "p.json")
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v", err)
	}
	if len(e.Problems) != 7 {
		t.Errorf("got %d problems, want 7:\n%s", len(e.Problems), errorText(err))
	}
	for i := 1; i < len(e.Problems); i++ {
		if a, b := e.Problems[i-1].Line, e.Problems[i].Line; a > b && b != 0 {
			t.Errorf("problems not in line order: line %d before line %d", a, b)
		}
	}
}

func TestCheckPackID(t *testing.T) {
	for _, id := range []string{"core_safety_axes_v1", "acme_v0", "acme-prod_safety_v12", "a1_v1", "x_v10"} {
		if why := CheckPackID(id); why != "" {
			t.Errorf("CheckPackID(%q) = %q, want valid", id, why)
		}
	}
	for _, id := range []string{"", "v1", "_v1", "acme_v", "acme_v01", "acme_V1", "acme__x_v1", "acme_v1_", "../x_v1", "a/b_v1", "acme.v1", "acme_v1.json", " acme_v1", "acme_v1\n"} {
		if why := CheckPackID(id); why == "" {
			t.Errorf("CheckPackID(%q) = valid, want a reason", id)
		}
	}
}

func TestPackMajorAndPrerelease(t *testing.T) {
	p := validPack("acme_v3")
	p.Version = "3.1.4-rc.1+build.7"
	if _, err := ParsePack(p.Encode(), "p.json"); err != nil {
		t.Errorf("pre-release version refused: %v", err)
	}
	if got := p.Major(); got != "3" {
		t.Errorf("Major = %q, want 3", got)
	}
}

func TestCanonicalContentIgnoresSealAndFormatting(t *testing.T) {
	p := validPack("acme_v1")
	sealed := p.Clone()
	sealed.MasteryReportSHA256 = strings.Repeat("a", 64)
	if p.ContentSHA256() != sealed.ContentSHA256() {
		t.Error("the seal field changes the content hash")
	}
	// Reformatted, reordered keys: the same content.
	m := packJSON(t, p)
	compact, err := ParsePack(encodeJSON(t, m), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	if compact.ContentSHA256() != p.ContentSHA256() {
		t.Error("formatting changes the content hash")
	}
	changed := p.Clone()
	changed.BoundaryDescriptions["no_hot_path_repair"] += "!"
	if changed.ContentSHA256() == p.ContentSHA256() {
		t.Error("a changed description keeps the content hash")
	}
	reordered := p.Clone()
	reordered.BoundaryIDs[0], reordered.BoundaryIDs[1] = reordered.BoundaryIDs[1], reordered.BoundaryIDs[0]
	if reordered.ContentSHA256() == p.ContentSHA256() {
		t.Error("a reordered boundary list keeps the content hash")
	}
}

func TestCloneIsDeep(t *testing.T) {
	p := validPack("acme_v1")
	c := p.Clone()
	c.BoundaryIDs[0] = "changed"
	c.BoundaryDescriptions["no_hot_path_repair"] = "changed"
	if p.BoundaryIDs[0] == "changed" || p.BoundaryDescriptions["no_hot_path_repair"] == "changed" {
		t.Error("Clone shares state with the original")
	}
}
