package safetypack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
)

func hexSum(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestSealValuesByHand checks the seal against canonical encodings written
// out by hand, so the expected hashes do not come from the code under test.
func TestSealValuesByHand(t *testing.T) {
	p := &Pack{
		PackID: "tiny_v1", Version: "1.0.0", Description: "Tiny \"pack\".", SchemaVersion: "1.0.0",
		BoundaryIDs:          []string{"b", "a"},
		BoundaryDescriptions: map[string]string{"b": "Bee.", "a": "Ay\n."},
	}
	content := `{"boundary_descriptions":{"a":"Ay\n.","b":"Bee."},"boundary_ids":["b","a"],"description":"Tiny \"pack\".","pack_id":"tiny_v1","schema_version":"1.0.0","version":"1.0.0"}`
	if got := string(p.CanonicalContent()); got != content {
		t.Fatalf("CanonicalContent =\n%s\nwant\n%s", got, content)
	}
	packSum := hexSum(content)
	reportSum := hexSum(`{"pack_id":"tiny_v1","pack_sha256":"` + packSum + `"}`)
	sealed, r := Seal(p)
	if r.PackID != "tiny_v1" || r.PackSHA256 != packSum || r.ReportSHA256 != reportSum {
		t.Errorf("report = %+v, want pack_sha256 %s, report_sha256 %s", r, packSum, reportSum)
	}
	if sealed.MasteryReportSHA256 != reportSum {
		t.Errorf("sealed pack carries %q, want %s", sealed.MasteryReportSHA256, reportSum)
	}
	if p.MasteryReportSHA256 != "" {
		t.Error("Seal changed the pack it was given")
	}
	again, r2 := Seal(sealed)
	if !bytes.Equal(again.Encode(), sealed.Encode()) || *r2 != *r {
		t.Error("sealing a sealed pack changed it")
	}
	wantReport := "{\n  \"pack_id\": \"tiny_v1\",\n  \"pack_sha256\": \"" + packSum + "\",\n  \"report_sha256\": \"" + reportSum + "\"\n}\n"
	if got := string(r.Encode()); got != wantReport {
		t.Errorf("report file =\n%s\nwant\n%s", got, wantReport)
	}
}

// ratifiedDir writes a pack in an author's own formatting, ratifies it, and
// returns the pack's path.
func ratifiedDir(t *testing.T, id string) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, id+".json")
	m := packJSON(t, validPack(id))
	b, _ := json.Marshal(m) // compact, keys sorted: not ratify's form
	writeFile(t, path, b)
	if _, err := RatifyFile(path); err != nil {
		t.Fatalf("RatifyFile: %v", err)
	}
	return path
}

func TestRatifyFileIsIdempotentByteForByte(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "acme_safety_v1.json")
	b, _ := json.Marshal(packJSON(t, validPack("acme_safety_v1")))
	writeFile(t, path, b)

	first, err := RatifyFile(path)
	if err != nil {
		t.Fatalf("first RatifyFile: %v", err)
	}
	if !first.PackWritten || !first.ReportWritten {
		t.Errorf("first ratify wrote pack=%v report=%v, want both", first.PackWritten, first.ReportWritten)
	}
	reportPath := filepath.Join(dir, "acme_safety_v1.mastery_report.json")
	if first.ReportFile != reportPath {
		t.Errorf("ReportFile = %s, want %s", first.ReportFile, reportPath)
	}
	pack1, report1 := readFile(t, path), readFile(t, reportPath)
	info1, _ := os.Stat(path)

	second, err := RatifyFile(path)
	if err != nil {
		t.Fatalf("second RatifyFile: %v", err)
	}
	if second.PackWritten || second.ReportWritten {
		t.Errorf("second ratify wrote pack=%v report=%v, want neither", second.PackWritten, second.ReportWritten)
	}
	if !bytes.Equal(readFile(t, path), pack1) || !bytes.Equal(readFile(t, reportPath), report1) {
		t.Error("second ratify changed a byte")
	}
	if info2, _ := os.Stat(path); !info2.ModTime().Equal(info1.ModTime()) {
		t.Error("second ratify rewrote the pack file")
	}
	if !bytes.HasSuffix(pack1, []byte("}\n")) || !bytes.HasPrefix(pack1, []byte("{\n  \"pack_id\": ")) {
		t.Errorf("ratified pack is not in canonical form:\n%s", pack1)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("folder holds %d entries after ratify, want 2 (no temporary files left)", len(entries))
	}
	if _, err := VerifyFile(path); err != nil {
		t.Errorf("VerifyFile after ratify: %v", err)
	}
}

func TestRatifyFileRefusesMalformedAndMissing(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad_v1.json")
	writeFile(t, bad, []byte(`{"pack_id":"bad_v1"}`))
	_, err := RatifyFile(bad)
	wantKind(t, err, errs.KindSafetyPack, "malformed", "version: is required")
	if _, statErr := os.Stat(filepath.Join(dir, "bad_v1.mastery_report.json")); statErr == nil {
		t.Error("a malformed pack got a mastery report")
	}
	_, err = RatifyFile(filepath.Join(dir, "nope_v1.json"))
	wantKind(t, err, errs.KindNotFound, "nope_v1.json not found")
	_, err = RatifyFile(filepath.Join(dir, "no-such-dir", "x_v1.json"))
	wantKind(t, err, errs.KindNotFound, "not found")
}

func TestRatifyFileWarnsAboutFileName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "draft.json")
	writeFile(t, path, validPack("acme_v1").Encode())
	res, err := RatifyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "acme_v1.json") {
		t.Errorf("warnings = %q, want one naming acme_v1.json", res.Warnings)
	}
	if _, err := os.Stat(filepath.Join(dir, "acme_v1.mastery_report.json")); err != nil {
		t.Errorf("report not written beside the pack: %v", err)
	}
}

// TestRatifyFileRefusesACopyBesideTheOriginal: a copy of a pack under
// another name, beside the file that bears its pack id, is not ratified:
// its report would replace the original's and break that seal.
func TestRatifyFileRefusesACopyBesideTheOriginal(t *testing.T) {
	dir := t.TempDir()
	original := filepath.Join(dir, "acme_v1.json")
	writeFile(t, original, validPack("acme_v1").Encode())
	if _, err := RatifyFile(original); err != nil {
		t.Fatal(err)
	}
	copied := validPack("acme_v1")
	copied.Description = "edited"
	writeFile(t, filepath.Join(dir, "draft.json"), copied.Encode())
	_, err := RatifyFile(filepath.Join(dir, "draft.json"))
	if !errs.Is(err, errs.KindSafetyPack) || !strings.Contains(err.Error(), "would replace that pack's mastery report") {
		t.Errorf("ratifying the copy: %v, want a conflict", err)
	}
	if _, err := VerifyFile(original); err != nil {
		t.Errorf("the original no longer verifies: %v", err)
	}
}

func editJSON(t *testing.T, path string, edit func(m map[string]any)) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(readFile(t, path), &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	writeFile(t, path, encodeJSON(t, m))
}

// TestVerifyRefusesEveryTamper edits a ratified pack or its report in each
// way the seal must catch, and checks that verification says what failed.
func TestVerifyRefusesEveryTamper(t *testing.T) {
	const id = "acme_safety_v1"
	reportOf := func(path string) string { return filepath.Join(filepath.Dir(path), ReportFileName(id)) }
	tests := []struct {
		name   string
		tamper func(t *testing.T, pack string)
		want   []string
	}{
		{"added boundary", func(t *testing.T, pack string) {
			editJSON(t, pack, func(m map[string]any) {
				m["boundary_ids"] = append(m["boundary_ids"].([]any), "extra")
				m["boundary_descriptions"].(map[string]any)["extra"] = "More."
			})
		}, []string{"content has changed since it was ratified"}},
		{"removed boundary", func(t *testing.T, pack string) {
			editJSON(t, pack, func(m map[string]any) {
				m["boundary_ids"] = m["boundary_ids"].([]any)[:5]
				delete(m["boundary_descriptions"].(map[string]any), "no_friday_deploys")
			})
		}, []string{"content has changed since it was ratified"}},
		{"reordered boundaries", func(t *testing.T, pack string) {
			editJSON(t, pack, func(m map[string]any) {
				ids := m["boundary_ids"].([]any)
				ids[0], ids[1] = ids[1], ids[0]
			})
		}, []string{"content has changed since it was ratified"}},
		{"changed description", func(t *testing.T, pack string) {
			editJSON(t, pack, func(m map[string]any) {
				m["boundary_descriptions"].(map[string]any)["no_hot_path_repair"] = "Anything goes."
			})
		}, []string{"content has changed since it was ratified"}},
		{"changed version", func(t *testing.T, pack string) {
			editJSON(t, pack, func(m map[string]any) { m["version"] = "1.0.1" })
		}, []string{"content has changed since it was ratified"}},
		{"edited report", func(t *testing.T, pack string) {
			editJSON(t, reportOf(pack), func(m map[string]any) { m["pack_sha256"] = strings.Repeat("0", 64) })
		}, []string{"mastery report has been edited", "content has changed since it was ratified"}},
		{"report resealed without the pack", func(t *testing.T, pack string) {
			editJSON(t, pack, func(m map[string]any) { m["description"] = "Changed." })
			p, err := ReadPackFile(pack)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, reportOf(pack), NewReport(p).Encode())
		}, []string{"does not match the mastery report's report_sha256"}},
		{"missing report", func(t *testing.T, pack string) {
			if err := os.Remove(reportOf(pack)); err != nil {
				t.Fatal(err)
			}
		}, []string{"mastery report is missing"}},
		{"wrong sha in pack", func(t *testing.T, pack string) {
			editJSON(t, pack, func(m map[string]any) { m["mastery_report_sha256"] = strings.Repeat("ab", 32) })
		}, []string{"mastery_report_sha256: " + strings.Repeat("ab", 32) + " does not match"}},
		{"cleared seal", func(t *testing.T, pack string) {
			editJSON(t, pack, func(m map[string]any) { m["mastery_report_sha256"] = "" })
		}, []string{"is empty: the pack has not been ratified"}},
		{"report for another pack", func(t *testing.T, pack string) {
			other := &Report{PackID: "other_v1", PackSHA256: strings.Repeat("1", 64)}
			other.ReportSHA256 = other.SelfSeal()
			writeFile(t, reportOf(pack), other.Encode())
		}, []string{`the mastery report is for pack "other_v1", not "acme_safety_v1"`}},
		{"report with extra key", func(t *testing.T, pack string) {
			editJSON(t, reportOf(pack), func(m map[string]any) { m["approved_by"] = "me" })
		}, []string{"mastery report is malformed", `unknown key "approved_by"`}},
		{"report not JSON", func(t *testing.T, pack string) {
			writeFile(t, reportOf(pack), []byte("sealed: yes\n"))
		}, []string{"mastery report is malformed", "invalid JSON"}},
		{"report missing a key", func(t *testing.T, pack string) {
			editJSON(t, reportOf(pack), func(m map[string]any) { delete(m, "pack_sha256") })
		}, []string{"mastery report is malformed", "pack_sha256: is required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pack := ratifiedDir(t, id)
			if _, err := VerifyFile(pack); err != nil {
				t.Fatalf("fresh ratified pack does not verify: %v", err)
			}
			tt.tamper(t, pack)
			l, err := VerifyFile(pack)
			wantKind(t, err, errs.KindSafetyPack, append([]string{"failed verification"}, tt.want...)...)
			if l != nil && l.Ratified {
				t.Error("a tampered pack reports itself ratified")
			}
		})
	}
}

func TestVerifyFileMissingPack(t *testing.T) {
	_, err := VerifyFile(filepath.Join(t.TempDir(), "acme_v1.json"))
	wantKind(t, err, errs.KindNotFound, "acme_v1.json not found")
}

// TestVerifyFileThroughLinks: a pack file named through a link is read
// where the link leads, as every file named on the command line is, with
// the report beside it; a link to nothing is not found, as a missing path
// is; and os.Root's own words for a link out of a folder never show.
func TestVerifyFileThroughLinks(t *testing.T) {
	packs := t.TempDir()
	pack := filepath.Join(packs, "acme_v1.json")
	writeFile(t, pack, validPack("acme_v1").Encode())
	if _, err := RatifyFile(pack); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	link := filepath.Join(elsewhere, "link_v1.json")
	if err := os.Symlink(pack, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	l, err := VerifyFile(link)
	if err != nil {
		t.Fatalf("VerifyFile through a link: %v", err)
	}
	if real, _ := filepath.EvalSymlinks(pack); l.Source != real || !l.Ratified {
		t.Errorf("VerifyFile through a link verified %s (ratified %v), want %s", l.Source, l.Ratified, real)
	}

	dangling := filepath.Join(elsewhere, "gone_v1.json")
	if err := os.Symlink(filepath.Join(elsewhere, "nothere.json"), dangling); err != nil {
		t.Fatal(err)
	}
	_, err = VerifyFile(dangling)
	wantKind(t, err, errs.KindNotFound, "is a link to", "which does not exist")

	// A report beside the pack that leads out of the pack's folder.
	lone := t.TempDir()
	copyPack := filepath.Join(lone, "acme_v1.json")
	writeFile(t, copyPack, readFile(t, pack))
	if err := os.Symlink(filepath.Join(packs, ReportFileName("acme_v1")), filepath.Join(lone, ReportFileName("acme_v1"))); err != nil {
		t.Fatal(err)
	}
	_, err = VerifyFile(copyPack)
	wantKind(t, err, errs.KindSafetyPack, "leads out of its folder")
	if strings.Contains(err.Error(), "escapes from parent") {
		t.Errorf("os.Root's words show: %v", err)
	}
}

func TestParseReportStrict(t *testing.T) {
	good := NewReport(validPack("acme_v1"))
	if r, err := ParseReport(good.Encode(), "r.json"); err != nil || *r != *good {
		t.Fatalf("ParseReport(good) = %+v, %v", r, err)
	}
	for name, raw := range map[string]string{
		"duplicate key": `{"pack_id":"acme_v1","pack_id":"acme_v1","pack_sha256":"` + good.PackSHA256 + `","report_sha256":"` + good.ReportSHA256 + `"}`,
		"bad sha":       `{"pack_id":"acme_v1","pack_sha256":"xyz","report_sha256":"` + good.ReportSHA256 + `"}`,
		"bad pack id":   `{"pack_id":"../acme_v1","pack_sha256":"` + good.PackSHA256 + `","report_sha256":"` + good.ReportSHA256 + `"}`,
		"number":        `{"pack_id":"acme_v1","pack_sha256":1,"report_sha256":"` + good.ReportSHA256 + `"}`,
		"empty":         ``,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseReport([]byte(raw), "r.json")
			wantKind(t, err, errs.KindSafetyPack, "mastery report r.json is malformed")
		})
	}
}
