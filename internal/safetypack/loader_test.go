package safetypack

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/packs/safety"
)

func TestShippedPackVerifies(t *testing.T) {
	l, err := LoadShipped(nil, false)
	if err != nil {
		t.Fatalf("the embedded pack does not load: %v", err)
	}
	p := l.Pack
	if !l.Ratified || l.Source != SourceEmbedded || len(l.SealProblems) != 0 {
		t.Errorf("loaded = ratified %v, source %q, problems %v", l.Ratified, l.Source, l.SealProblems)
	}
	if p.PackID != "core_safety_axes_v1" || p.Version != "1.0.0" || p.SchemaVersion != "1.0.0" {
		t.Errorf("pack = %s %s schema %s", p.PackID, p.Version, p.SchemaVersion)
	}
	if !slices.Equal(p.BoundaryIDs, shippedIDs) {
		t.Errorf("boundary_ids = %v, want %v", p.BoundaryIDs, shippedIDs)
	}
	for _, id := range shippedIDs {
		if len(p.BoundaryDescriptions[id]) < 40 {
			t.Errorf("boundary %s has no real description: %q", id, p.BoundaryDescriptions[id])
		}
	}
	if l.Report == nil || l.Report.ReportSHA256 != p.MasteryReportSHA256 {
		t.Error("the report's sha256 is not the pack's seal")
	}
}

// TestShippedFilesAreAsRatifyWritesThem proves the committed files came
// from ratify: re-sealing them would change no byte.
func TestShippedFilesAreAsRatifyWritesThem(t *testing.T) {
	packBytes, err := fs.ReadFile(safety.FS, ShippedPackID+".json")
	if err != nil {
		t.Fatal(err)
	}
	reportBytes, err := fs.ReadFile(safety.FS, ReportFileName(ShippedPackID))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePack(packBytes, "embedded")
	if err != nil {
		t.Fatal(err)
	}
	sealed, report := Seal(p)
	if !bytes.Equal(sealed.Encode(), packBytes) {
		t.Error("the embedded pack is not what ratify writes: run 'agents safety-pack ratify packs/safety/core_safety_axes_v1.json'")
	}
	if !bytes.Equal(report.Encode(), reportBytes) {
		t.Error("the embedded report is not what ratify writes")
	}
}

func shippedFS(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	for _, name := range []string{ShippedPackID + ".json", ReportFileName(ShippedPackID)} {
		b, err := fs.ReadFile(safety.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		m[name] = &fstest.MapFile{Data: b}
	}
	return m
}

func TestLoadShippedTampered(t *testing.T) {
	fsys := shippedFS(t)
	name := ShippedPackID + ".json"
	fsys[name].Data = bytes.Replace(fsys[name].Data, []byte("never smoothed over"), []byte("sometimes smoothed over"), 1)
	_, err := LoadShipped(fsys, false)
	wantKind(t, err, errs.KindSafetyPack, "core_safety_axes_v1 (embedded) failed verification", "content has changed", "reinstall")

	l, err := LoadShipped(fsys, true)
	if err != nil {
		t.Fatalf("override did not let the tampered shipped pack load: %v", err)
	}
	if l.Ratified || len(l.SealProblems) == 0 {
		t.Error("a tampered pack loaded under the override claims to be ratified")
	}
	wantKind(t, l.SealError(), errs.KindSafetyPack, "content has changed")

	delete(fsys, name)
	_, err = LoadShipped(fsys, true)
	wantKind(t, err, errs.KindSafetyPack, "shipped safety pack core_safety_axes_v1 is missing")
}

func TestLoadWithoutConfigIsShipped(t *testing.T) {
	l, err := Load(LoadOptions{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if l.Pack.PackID != ShippedPackID || l.Source != SourceEmbedded {
		t.Errorf("loaded %s from %s, want the shipped pack", l.Pack.PackID, l.Source)
	}
}

// configuredHome returns a home with the ratified pack id installed under
// packs/safety, and the pack's path.
func configuredHome(t *testing.T, p *Pack) (home, path string) {
	t.Helper()
	home = t.TempDir()
	path = filepath.Join(home, "packs", "safety", p.PackID+".json")
	writeFile(t, path, p.Encode())
	if _, err := RatifyFile(path); err != nil {
		t.Fatal(err)
	}
	return home, path
}

func TestLoadConfiguredPack(t *testing.T) {
	home, path := configuredHome(t, validPack("acme_safety_v1"))
	l, err := Load(LoadOptions{Home: home, PackID: "acme_safety_v1"})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if l.Pack.PackID != "acme_safety_v1" || l.Source != path || !l.Ratified {
		t.Errorf("loaded %s from %s ratified=%v", l.Pack.PackID, l.Source, l.Ratified)
	}
	if !l.Pack.HasBoundary("no_friday_deploys") {
		t.Error("the configured pack's own boundary is missing")
	}
}

func TestLoadRefusals(t *testing.T) {
	const id = "acme_safety_v1"
	tests := []struct {
		name     string
		setup    func(t *testing.T) (home string)
		packID   string
		override bool // the refusal must hold with the override too
		want     []string
	}{
		{"invalid configured id", func(t *testing.T) string { return t.TempDir() }, "../../etc/passwd", true,
			[]string{`the configured safety pack id "../../etc/passwd" must not contain a path separator`}},
		{"no packs folder", func(t *testing.T) string { return t.TempDir() }, id, true,
			[]string{"the configured safety pack acme_safety_v1 is missing", filepath.Join("packs", "safety", id+".json") + " does not exist"}},
		{"missing file", func(t *testing.T) string {
			home, _ := configuredHome(t, validPack("other_v1"))
			return home
		}, id, true, []string{"acme_safety_v1.json does not exist"}},
		{"malformed", func(t *testing.T) string {
			home := t.TempDir()
			writeFile(t, filepath.Join(home, "packs", "safety", id+".json"), []byte(`{"pack_id": "acme_safety_v1", "boundary_ids": []}`))
			return home
		}, id, true, []string{"is malformed", "boundary_ids: must not be empty", "version: is required"}},
		{"mismatched id", func(t *testing.T) string {
			home, path := configuredHome(t, validPack("other_safety_v1"))
			if err := os.Rename(path, filepath.Join(filepath.Dir(path), id+".json")); err != nil {
				t.Fatal(err)
			}
			return home
		}, id, true, []string{`carries pack_id "other_safety_v1", but the configuration names "acme_safety_v1"`}},
		{"looser", func(t *testing.T) string {
			p := validPack(id)
			p.BoundaryIDs = []string{NoFabricatedSource, "no_friday_deploys"}
			for b := range p.BoundaryDescriptions {
				if !p.HasBoundary(b) {
					delete(p.BoundaryDescriptions, b)
				}
			}
			home, _ := configuredHome(t, p)
			return home
		}, id, true, []string{"looser than the shipped pack core_safety_axes_v1", "lacks boundaries no_hot_path_repair, no_identity_override, no_silent_correction, preserve_versor_closure"}},
		{"looser by one", func(t *testing.T) string {
			p := validPack(id)
			p.BoundaryIDs = slices.DeleteFunc(p.BoundaryIDs, func(s string) bool { return s == NoHotPathRepair })
			delete(p.BoundaryDescriptions, NoHotPathRepair)
			home, _ := configuredHome(t, p)
			return home
		}, id, true, []string{"lacks boundary no_hot_path_repair"}},
		{"unratified", func(t *testing.T) string {
			home := t.TempDir()
			writeFile(t, filepath.Join(home, "packs", "safety", id+".json"), validPack(id).Encode())
			return home
		}, id, false, []string{"failed verification", "has not been ratified", "mastery report is missing"}},
		{"tampered", func(t *testing.T) string {
			home, path := configuredHome(t, validPack(id))
			editJSON(t, path, func(m map[string]any) { m["description"] = "Quietly changed." })
			return home
		}, id, false, []string{"failed verification", "content has changed since it was ratified"}},
		{"report removed", func(t *testing.T) string {
			home, path := configuredHome(t, validPack(id))
			if err := os.Remove(filepath.Join(filepath.Dir(path), ReportFileName(id))); err != nil {
				t.Fatal(err)
			}
			return home
		}, id, false, []string{"mastery report is missing"}},
		{"directory instead of file", func(t *testing.T) string {
			home := t.TempDir()
			if err := os.MkdirAll(filepath.Join(home, "packs", "safety", id+".json"), 0o755); err != nil {
				t.Fatal(err)
			}
			return home
		}, id, true, []string{"cannot read the configured safety pack", "not a regular file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := tt.setup(t)
			l, err := Load(LoadOptions{Home: home, PackID: tt.packID})
			if l != nil {
				t.Errorf("Load returned pack %s alongside a refusal", l.Pack.PackID)
			}
			wantKind(t, err, errs.KindSafetyPack, tt.want...)

			l, err = Load(LoadOptions{Home: home, PackID: tt.packID, AllowUnratified: true})
			if tt.override {
				// Not a seal problem: the override must not help.
				wantKind(t, err, errs.KindSafetyPack, tt.want...)
				return
			}
			if err != nil {
				t.Fatalf("the override did not bypass the seal: %v", err)
			}
			if l.Ratified || len(l.SealProblems) == 0 || l.Pack.PackID != id {
				t.Errorf("override load = %s ratified=%v problems=%v", l.Pack.PackID, l.Ratified, l.SealProblems)
			}
		})
	}
}

func TestLoadRefusesSymlinkOutOfPacksFolder(t *testing.T) {
	outside := t.TempDir()
	src := filepath.Join(outside, "acme_v1.json")
	writeFile(t, src, validPack("acme_v1").Encode())
	if _, err := RatifyFile(src); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	dir := filepath.Join(home, "packs", "safety")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"acme_v1.json", "acme_v1.mastery_report.json"} {
		if err := os.Symlink(filepath.Join(outside, name), filepath.Join(dir, name)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	_, err := Load(LoadOptions{Home: home, PackID: "acme_v1"})
	wantKind(t, err, errs.KindSafetyPack, "cannot read the configured safety pack", "leads out of its folder")
	if e := (*errs.Error)(nil); !errors.As(err, &e) || strings.Contains(e.Error(), "escapes from parent") || !strings.Contains(e.Hint, "replace the link") {
		t.Errorf("the refusal is in os.Root's words, or has no hint: %v", err)
	}
}

// TestRepairBrokenConfiguredPack: a configured pack that refuses to load is
// fixed by ratifying its file, which never loads the pack in force.
func TestRepairBrokenConfiguredPack(t *testing.T) {
	const id = "acme_safety_v1"
	home, path := configuredHome(t, validPack(id))
	editJSON(t, path, func(m map[string]any) {
		m["boundary_ids"] = append(m["boundary_ids"].([]any), "no_weekend_pages")
		m["boundary_descriptions"].(map[string]any)["no_weekend_pages"] = "Nobody is paged on a weekend."
	})
	if _, err := Load(LoadOptions{Home: home, PackID: id}); err == nil {
		t.Fatal("the edited pack loaded without being ratified")
	}
	if _, err := RatifyFile(path); err != nil {
		t.Fatalf("ratify of the broken configured pack: %v", err)
	}
	l, err := Load(LoadOptions{Home: home, PackID: id})
	if err != nil {
		t.Fatalf("Load after repair: %v", err)
	}
	if !l.Ratified || !l.Pack.HasBoundary("no_weekend_pages") {
		t.Errorf("repaired pack: ratified=%v boundaries=%v", l.Ratified, l.Pack.BoundaryIDs)
	}
}

func TestPackIDFromConfig(t *testing.T) {
	tests := []struct {
		name, yaml, want string
		kind             errs.Kind // 0 with want "" and no error expected
		wantErr          string
	}{
		{name: "absent", yaml: "format: json\nautomation_profile: acme/strict\n"},
		{name: "empty file", yaml: ""},
		{name: "comment only", yaml: "# nothing\n"},
		{name: "set", yaml: "safety_profile:\n  require_sandbox: true\nsafety_pack: acme_safety_v1\nlock_timeout: 5s\n", want: "acme_safety_v1"},
		{name: "quoted", yaml: "safety_pack: \"acme_safety_v1\"\n", want: "acme_safety_v1"},
		{name: "alias", yaml: "x: &p acme_safety_v1\nsafety_pack: *p\n", want: "acme_safety_v1"},
		{name: "number", yaml: "safety_pack: 12\n", kind: errs.KindSafetyPack, wantErr: "must be a string naming a pack id, got a number"},
		{name: "bool", yaml: "safety_pack: true\n", kind: errs.KindSafetyPack, wantErr: "got a boolean"},
		{name: "null", yaml: "safety_pack: ~\n", kind: errs.KindSafetyPack, wantErr: "got null"},
		{name: "list", yaml: "safety_pack: [a_v1]\n", kind: errs.KindSafetyPack, wantErr: "got a list"},
		{name: "empty string", yaml: "safety_pack: \"\"\n", kind: errs.KindSafetyPack, wantErr: `"" is empty`},
		{name: "traversal", yaml: "safety_pack: ../../x_v1\n", kind: errs.KindSafetyPack, wantErr: "must not contain a path separator"},
		{name: "dot-dot", yaml: "safety_pack: x..y_v1\n", kind: errs.KindSafetyPack, wantErr: `must not contain ".."`},
		{name: "no major", yaml: "safety_pack: acme\n", kind: errs.KindSafetyPack, wantErr: "<slug>_v<major>"},
		{name: "duplicate", yaml: "safety_pack: a_v1\nsafety_pack: b_v1\n", kind: errs.KindSafetyPack, wantErr: "duplicate key (first on line 1)"},
		{name: "not a mapping", yaml: "- a\n", kind: errs.KindInvalid, wantErr: "must be a mapping"},
		{name: "bad YAML", yaml: "safety_pack: [\n", kind: errs.KindInvalid, wantErr: "cannot read configuration"},
		{name: "second document", yaml: "safety_pack: acme_safety_v1\n---\nsafety_pack: core_safety_axes_v1\n", kind: errs.KindSafetyPack, wantErr: "config.yaml:2: the file holds more than one YAML document"},
		{name: "broken second document", yaml: "safety_pack: acme_safety_v1\n---\n[\n", kind: errs.KindSafetyPack, wantErr: "more than one YAML document"},
		{name: "document end marker", yaml: "safety_pack: acme_safety_v1\n...\n", want: "acme_safety_v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PackIDFromConfig([]byte(tt.yaml), "config.yaml")
			if tt.wantErr != "" {
				wantKind(t, err, tt.kind, tt.wantErr, "config.yaml")
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("PackIDFromConfig = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
