package profiles

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/profile"
)

const examplesDir = "../examples/profiles"

func TestEveryExampleLoads(t *testing.T) {
	entries, err := os.ReadDir(examplesDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.IsDir() || !(strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".yml")) {
			t.Errorf("unexpected entry %s in %s", e.Name(), examplesDir)
			continue
		}
		n++
		t.Run(e.Name(), func(t *testing.T) {
			p, warnings, err := profile.LoadProfile(filepath.Join(examplesDir, e.Name()))
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if len(warnings) != 0 {
				t.Errorf("an example should use the nested format; warnings: %v", warnings)
			}
			if why := profile.CheckCustomName(p.Name); why != "" {
				t.Errorf("an example must carry a custom name: %s", why)
			}
			if want := strings.ReplaceAll(p.Name, "/", "-"); strings.TrimSuffix(e.Name(), filepath.Ext(e.Name())) != want {
				t.Errorf("file %s holds %s; name it %s.yaml", e.Name(), p.Name, want)
			}
			if err := p.Validate(); err != nil {
				t.Errorf("validate: %v", err)
			}
			out, err := canon.YAML(p)
			if err != nil {
				t.Fatal(err)
			}
			again, _, err := profile.DecodeProfile(out, "canonical")
			if err != nil || !reflect.DeepEqual(p, again) {
				t.Errorf("canonical form does not decode to the same profile: %v", err)
			}
		})
	}
	if n < 2 {
		t.Errorf("found %d examples, want at least the two of the specification", n)
	}
}

func TestSeedExamples(t *testing.T) {
	strict, _, err := profile.LoadProfile(filepath.Join(examplesDir, "acme-strict.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	wantStrict := map[string]float64{
		"auto_strategize": 0.9, "auto_execute": 0.9, "auto_apply": 1.0,
		"auto_decisions_strategize": 0.8, "auto_decisions_execute": 0.9,
		"auto_validation_fix": 0.5, "auto_strategy_revision": 0.9, "auto_reversion_from_apply": 1.0,
		"auto_child_plans": 0.8, "auto_retry_transient": 0.3, "auto_checkpoint_restore": 0.7,
	}
	if strict.Name != "acme/strict" || strict.Description != "Strict profile for production deployments" {
		t.Errorf("acme/strict header: %q %q", strict.Name, strict.Description)
	}
	for _, g := range profile.Gates {
		if got := g.Value(strict); got != wantStrict[g.Name] {
			t.Errorf("acme/strict %s = %v, want %v", g.Name, got, wantStrict[g.Name])
		}
	}
	if !strict.Safety.RequireSandbox || !strict.Safety.RequireCheckpoints || strict.Safety.AllowUnsafeTools || strict.Guards != nil {
		t.Errorf("acme/strict safety %+v guards %+v", strict.Safety, strict.Guards)
	}

	guarded, _, err := profile.LoadProfile(filepath.Join(examplesDir, "acme-guarded.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if guarded.Name != "acme/guarded" || guarded.Description != "Profile with guard constraints" {
		t.Errorf("acme/guarded header: %q %q", guarded.Name, guarded.Description)
	}
	// The seed sets three thresholds; the rest are left out and so 1.0.
	for _, g := range profile.Gates {
		want := 1.0
		switch g.Name {
		case "auto_strategize", "auto_execute":
			want = 0.7
		}
		if got := g.Value(guarded); got != want {
			t.Errorf("acme/guarded %s = %v, want %v", g.Name, got, want)
		}
	}
	if !reflect.DeepEqual(guarded.Safety, profile.DefaultSafetyProfile()) {
		t.Errorf("acme/guarded safety = %+v, want the default", guarded.Safety)
	}
	g := guarded.Guards
	if g == nil {
		t.Fatal("acme/guarded has no guards")
	}
	if g.MaxToolCallsPerStep == nil || *g.MaxToolCallsPerStep != 10 || g.MaxTotalCost == nil || *g.MaxTotalCost != 5.0 ||
		g.ToolAllowlist != nil || !reflect.DeepEqual(g.ToolDenylist, []string{"shell_exec", "file_delete"}) ||
		!g.RequireApprovalForWrites || !g.RequireApprovalForApply {
		t.Errorf("acme/guarded guards = %+v", g)
	}
}
