package render_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/render/rendertest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

func ptr[T any](v T) *T { return &v }

// cautious is the seed's cautious built-in, written out here rather than
// read from the embedded files, so a change there cannot move these tests.
func cautious() *profile.AutomationProfile {
	return &profile.AutomationProfile{
		Name:                    "cautious",
		Description:             "Probabilistic gates: proceeds when confident, asks when unsure.",
		SchemaVersion:           "1.0",
		AutoStrategize:          0.7,
		AutoExecute:             0.7,
		AutoApply:               1.0,
		AutoDecisionsStrategize: 0.6,
		AutoDecisionsExecute:    0.8,
		AutoValidationFix:       0.7,
		AutoStrategyRevision:    0.8,
		AutoReversionFromApply:  0.9,
		AutoChildPlans:          0.7,
		AutoRetryTransient:      0.0,
		AutoCheckpointRestore:   0.6,
		Safety:                  profile.DefaultSafetyProfile(),
	}
}

// fullAuto is the seed's full-auto built-in: no gates and every safety
// constraint relaxed.
func fullAuto() *profile.AutomationProfile {
	p := &profile.AutomationProfile{
		Name:          "full-auto",
		Description:   "No gates, no sandbox, no checkpoints, unsafe tools allowed.",
		SchemaVersion: "1.0",
		Safety:        profile.DefaultSafetyProfile(),
	}
	p.Safety.RequireSandbox = false
	p.Safety.RequireCheckpoints = false
	p.Safety.AllowUnsafeTools = true
	return p
}

// guarded is a custom profile with guards, cost limits and skill categories:
// every optional field set, and one guard list absent.
func guarded() *profile.AutomationProfile {
	p := &profile.AutomationProfile{
		Name:           "acme/guarded",
		Description:    "Guarded releases for the acme platform team, with a tool budget and a denylist of destructive tools that always need a human.",
		SchemaVersion:  "1.0",
		AutoStrategize: 0.7, AutoExecute: 0.7, AutoApply: 1.0,
		AutoDecisionsStrategize: 1.0, AutoDecisionsExecute: 1.0,
		AutoValidationFix: 0.25, AutoStrategyRevision: 1.0, AutoReversionFromApply: 1.0,
		AutoChildPlans: 1.0, AutoRetryTransient: 0.0, AutoCheckpointRestore: 1.0,
		Safety: profile.SafetyProfile{
			RequireSandbox:         true,
			RequireCheckpoints:     true,
			AllowUnsafeTools:       false,
			RequireHumanApproval:   true,
			AllowedSkillCategories: []string{"code", "docs"},
			MaxCostPerPlan:         ptr(2.5),
			MaxTotalCost:           ptr(40.0),
			MaxRetriesPerStep:      1,
		},
		Guards: &profile.AutomationGuard{
			MaxToolCallsPerStep:      ptr(10),
			MaxTotalCost:             ptr(5.0),
			ToolAllowlist:            nil,
			ToolDenylist:             []string{"shell_exec", "file_delete"},
			RequireApprovalForWrites: true,
			RequireApprovalForApply:  true,
		},
	}
	return p
}

// formats are the golden variants: every format, and rich with and without
// colour.
var formats = []struct {
	file   string
	format string
	opts   render.Options
}{
	{"json", "json", render.Options{}},
	{"yaml", "yaml", render.Options{}},
	{"plain.txt", "plain", render.Options{}},
	{"table.txt", "table", render.Options{}},
	{"rich.txt", "rich", render.Options{}},
	{"rich-color.txt", "rich", render.Options{Color: true}},
}

func goldenViews() []struct {
	name string
	view render.View
} {
	return []struct {
		name string
		view render.View
	}{
		{"show-cautious", render.ProfileView{Profile: cautious()}},
		{"show-full-auto", render.ProfileView{Profile: fullAuto()}},
		{"show-guarded", render.ProfileView{Profile: guarded()}},
		{"list", render.ProfileListView{Profiles: []*profile.AutomationProfile{cautious(), fullAuto(), guarded()}}},
		{"list-empty", render.ProfileListView{}},
		{"add-guarded", render.Change{Verb: "added", Subject: "acme/guarded", Doc: guarded()}},
		{"unchanged-guarded", render.Change{Verb: render.Unchanged, Subject: "acme/guarded", Detail: "the stored profile is the same, so nothing was written", Doc: guarded()}},
		{"remove-guarded", render.Change{Verb: "removed", Subject: "acme/guarded", Doc: guarded()}},
		{"kv", render.KV{Title: "status", Pairs: []render.Pair{{Key: "store", Value: "/home/u/.agents"}, {Key: "profiles", Value: "9"}}}},
		{"tables", render.TablesView{
			Doc: map[string]int{"a": 1},
			List: []render.Table{
				{Title: "first", Header: []string{"K", "V"}, Rows: [][]string{{"a", "1"}, {"b", "2"}}},
				{Title: "second", Header: []string{"X"}, Rows: [][]string{{"only"}}},
			},
		}},
	}
}

func renderString(t *testing.T, format string, opts render.Options, v render.View) string {
	t.Helper()
	r, err := render.Lookup(format, opts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.Render(&buf, v); err != nil {
		t.Fatalf("render %s: %v", format, err)
	}
	return buf.String()
}

func TestGolden(t *testing.T) {
	for _, gv := range goldenViews() {
		for _, f := range formats {
			name := gv.name + "." + f.file
			t.Run(name, func(t *testing.T) {
				got := renderString(t, f.format, f.opts, gv.view)
				rendertest.Compare(t, filepath.Join("testdata", "golden", name), got, *update)
			})
		}
	}
}

// TestGoldenFilesAreUsed keeps the golden folder free of files no test
// compares any more.
func TestGoldenFilesAreUsed(t *testing.T) {
	used := map[string]bool{}
	for _, gv := range goldenViews() {
		for _, f := range formats {
			used[gv.name+"."+f.file] = true
		}
	}
	entries, err := os.ReadDir(filepath.Join("testdata", "golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !used[e.Name()] && !strings.HasPrefix(e.Name(), ".") {
			t.Errorf("testdata/golden/%s is not used by any test", e.Name())
		}
	}
}
