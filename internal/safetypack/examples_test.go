package safetypack

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/agentsctl/agents/profiles"
)

// TestExampleLockdownPack loads and verifies the organisation pack in
// examples/packs/ as the pack in force, and judges every built-in under
// it: what each one violates is written out here from the seed's table,
// not read back from the pack.
func TestExampleLockdownPack(t *testing.T) {
	const id = "acme_lockdown_v1"
	dir := filepath.Join("..", "..", "examples", "packs")
	if _, err := VerifyFile(filepath.Join(dir, id+".json")); err != nil {
		t.Fatalf("the example pack does not verify: %v", err)
	}

	home := t.TempDir()
	for _, name := range []string{id + ".json", ReportFileName(id)} {
		writeFile(t, filepath.Join(home, "packs", "safety", name), readFile(t, filepath.Join(dir, name)))
	}
	l, err := Load(LoadOptions{Home: home, PackID: id})
	if err != nil {
		t.Fatalf("the example pack does not load as the pack in force: %v", err)
	}
	if !l.Ratified || l.Level != LevelUser {
		t.Errorf("loaded: ratified %v, level %q", l.Ratified, l.Level)
	}

	// auto_apply is 0 in ci and full-auto only; full-auto alone allows
	// unsafe tools without a sandbox and drops checkpoints.
	want := map[string]struct {
		enforced, warned []string
	}{
		"ci":        {enforced: []string{"no_unattended_apply"}},
		"full-auto": {enforced: []string{"no_unsafe_tools_outside_sandbox", "no_unattended_apply"}, warned: []string{"checkpoints_before_writes"}},
	}
	for _, name := range []string{"manual", "review", "supervised", "cautious", "trusted", "auto", "ci", "full-auto"} {
		p := profiles.Decoded(name)
		v := l.Pack.Judge(PolicyContext{Profile: p, Safety: p.Safety})
		ids := func(js []Judgement) []string {
			var out []string
			for _, j := range js {
				out = append(out, j.BoundaryID)
			}
			return out
		}
		w := want[name]
		if got := ids(v.Violated(ModeEnforce)); !slices.Equal(got, w.enforced) {
			t.Errorf("%s: enforced violations %v, want %v", name, got, w.enforced)
		}
		if got := ids(v.Violated(ModeWarn)); !slices.Equal(got, w.warned) {
			t.Errorf("%s: warned violations %v, want %v", name, got, w.warned)
		}
	}
	if v := l.Pack.Judge(PolicyContext{Profile: profiles.Decoded("full-auto"), Safety: profiles.Decoded("full-auto").Safety}); v.Rule() != "pack.no_unsafe_tools_outside_sandbox" {
		t.Errorf("full-auto is refused by rule %q", v.Rule())
	}
}

// TestExamplePackFilesAreAsRatifyWritesThem: re-ratifying the example
// changes no byte, so what is committed is what ratify wrote.
func TestExamplePackFilesAreAsRatifyWritesThem(t *testing.T) {
	dir := filepath.Join("..", "..", "examples", "packs")
	tmp := t.TempDir()
	for _, name := range []string{"acme_lockdown_v1.json", ReportFileName("acme_lockdown_v1")} {
		writeFile(t, filepath.Join(tmp, name), readFile(t, filepath.Join(dir, name)))
	}
	res, err := RatifyFile(filepath.Join(tmp, "acme_lockdown_v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if res.PackWritten || res.ReportWritten {
		t.Errorf("ratifying the example again rewrote it (pack %v, report %v)", res.PackWritten, res.ReportWritten)
	}
}
