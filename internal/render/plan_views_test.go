package render

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
)

func samplePlan() *plan.Plan {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	name, src, proj := "full-auto", "local/deploy", "/p/agents.yaml"
	own := profile.DefaultSafetyProfile()
	own.RequireHumanApproval = true
	return &plan.Plan{
		ID: "01jnkx8w00aaaaaaaaaaaaaaaa", Action: "local/deploy", CreatedAt: at,
		AutomationProfile: plan.AutomationRef{Name: "full-auto", Provenance: plan.LevelPlan, SHA256: strings.Repeat("a", 64)},
		SafetyProfile:     plan.SafetyRef{Provenance: plan.LevelAction, Source: plan.SourceStandalone, SafetyProfile: own, SHA256: strings.Repeat("b", 64)},
		Levels: []plan.Setting{
			{Level: plan.LevelPlan, AutomationProfile: &name},
			{Level: plan.LevelAction, SafetyProfile: &own, Source: &src},
			{Level: plan.LevelProject, Source: &proj},
			{Level: plan.LevelGlobal},
		},
		ResolvedAt: at, ProjectDir: "/p",
	}
}

// keysOf returns the keys of a JSON object in the order written.
func keysOf(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", raw)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestPlanViewDocument(t *testing.T) {
	out := renderAs(t, "json", false, PlanView{Plan: samplePlan()})
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		t.Fatal(err)
	}
	// The fields, in its order; added fields come after them.
	want := []string{"id", "action", "created_at", "automation_profile", "safety_profile", "levels", "drift"}
	if got := keysOf(t, []byte(out)); !slices.Equal(got[:len(want)], want) {
		t.Errorf("keys = %v, want %v first", got, want)
	}
	if got := keysOf(t, top["automation_profile"]); !slices.Equal(got, []string{"name", "provenance", "sha256"}) {
		t.Errorf("automation_profile keys = %v", got)
	}
	wantSafety := append([]string{"provenance", "source", "from_profile"}, profile.SafetyKeys...)
	if got := keysOf(t, top["safety_profile"]); !slices.Equal(got[:len(wantSafety)], wantSafety) {
		t.Errorf("safety_profile keys = %v, want %v first", got, wantSafety)
	}
	if string(top["drift"]) != "false" || string(top["drift_details"]) != "null" {
		t.Errorf("drift = %s, drift_details = %s", top["drift"], top["drift_details"])
	}
	var levels []json.RawMessage
	if err := json.Unmarshal(top["levels"], &levels); err != nil || len(levels) != 4 {
		t.Fatalf("levels = %s", top["levels"])
	}
	for i, l := range levels {
		if got := keysOf(t, l); !slices.Equal(got[:3], []string{"level", "automation_profile", "safety_profile"}) {
			t.Errorf("level %d keys = %v", i, got)
		}
	}
	if !strings.Contains(out, `"created_at": "2026-03-01T12:00:00Z"`) || !strings.Contains(out, `"provenance": "plan"`) {
		t.Errorf("document:\n%s", out)
	}
}

// squeeze turns every run of spaces into one, so table rows can be checked
// without their padding.
func squeeze(s string) string {
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	return s
}

func TestPlanViewTrace(t *testing.T) {
	p := samplePlan()
	table := squeeze(renderAs(t, "table", false, PlanView{Plan: p}))
	for _, want := range []string{
		"| plan | full-auto (wins) | - | this plan",
		"| action | - | standalone (wins) | action local/deploy",
		"| project | - | - | /p/agents.yaml",
		"| global | - | - | not set in config.yaml",
		"| system | review | - | the built-in default",
		"drift: none",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	rich := renderAs(t, "rich", false, PlanView{Plan: p})
	for _, want := range []string{"plan 01jnkx8w00aaaaaaaaaaaaaaaa [local/deploy]", "full-auto ◀", "standalone ◀", "Drift  none"} {
		if !strings.Contains(rich, want) {
			t.Errorf("rich lacks %q:\n%s", want, rich)
		}
	}
	plain := renderAs(t, "plain", false, PlanView{Plan: p})
	for _, want := range []string{"levels.plan.automation_profile: full-auto\n", "levels.action.safety_profile.require_human_approval: true\n",
		"levels.project.source: /p/agents.yaml\n", "safety_profile.from_profile: null\n", "drift: false\ndrift_details: null\n"} {
		if !strings.Contains(plain, want) {
			t.Errorf("plain lacks %q:\n%s", want, plain)
		}
	}
}

// TestPlanChangeIsOneLine: plan use prints one line with the plan's whole
// id and what it resolved, and the plan's document in json.
func TestPlanChangeIsOneLine(t *testing.T) {
	c := PlanChange("created", samplePlan(), nil)
	want := "created plan 01jnkx8w00aaaaaaaaaaaaaaaa: local/deploy under full-auto (plan level), standalone safety (action level)\n"
	if got := renderAs(t, "plain", false, c); got != want {
		t.Errorf("plain = %q, want %q", got, want)
	}
	if got := renderAs(t, "rich", false, c); got != "✔ "+want {
		t.Errorf("rich = %q, want %q", got, "✔ "+want)
	}
	if got := renderAs(t, "json", false, c); !strings.Contains(got, `"id": "01jnkx8w00aaaaaaaaaaaaaaaa"`) || !strings.Contains(got, `"levels"`) {
		t.Errorf("json is not the plan's document:\n%s", got)
	}
}

func TestPlanViewComposedAndDrift(t *testing.T) {
	p := samplePlan()
	from := "review"
	p.AutomationProfile.Provenance = plan.LevelSystem
	p.AutomationProfile.Name = "review"
	p.Levels[0].AutomationProfile = nil
	p.Levels[1].SafetyProfile = nil
	p.SafetyProfile.Provenance, p.SafetyProfile.Source, p.SafetyProfile.FromProfile = plan.LevelGlobal, plan.SourceComposed, &from
	d := &plan.Drift{
		AutomationProfile: &plan.AutomationChange{Recorded: p.AutomationProfile, Now: plan.AutomationRef{Name: "manual", Provenance: "project", SHA256: strings.Repeat("c", 64)}, Reason: `now "manual" from the project level`},
		Levels:            []string{"project"},
	}
	table := squeeze(renderAs(t, "table", false, PlanView{Plan: p, Drift: d}))
	for _, want := range []string{"| global | - | composed from review (wins) |", "| system | review (wins) |",
		"drift: resolving now would answer otherwise", "review (system, aaaaaaaaaaaa)", "manual (project, cccccccccccc)"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	js := renderAs(t, "json", false, PlanView{Plan: p, Drift: d})
	if !strings.Contains(js, `"drift": true,`+"\n  "+`"drift_details": {`) || !strings.Contains(js, `"levels": [`+"\n      \"project\"") || !strings.Contains(js, `"error": null`) {
		t.Errorf("json drift:\n%s", js)
	}
	msg := "action \"local/deploy\" not found"
	rich := renderAs(t, "rich", false, PlanView{Plan: p, Drift: &plan.Drift{Levels: []string{}, Error: &msg}})
	if !strings.Contains(rich, "Drift  resolving now fails") || !strings.Contains(rich, msg) {
		t.Errorf("rich drift error:\n%s", rich)
	}
}

func TestPlanViewRecordCheck(t *testing.T) {
	p := samplePlan()
	ok := PlanView{Plan: p, Record: plan.RecordCheck{Verified: true}}
	if js := renderAs(t, "json", false, ok); !strings.Contains(js, `"record": {`+"\n"+`    "verified": true,`+"\n"+`    "problem": null`) {
		t.Errorf("json of a verified record:\n%s", js)
	}
	msg := "plan x cites a safety profile snapshot (sha256 f00) that the store never wrote"
	bad := PlanView{Plan: p, Record: plan.RecordCheck{Problem: &msg}}
	for format, want := range map[string][]string{
		"json":  {`"verified": false,`, `"problem": "` + msg + `"`},
		"plain": {"record.verified: false\n", "record.problem: " + msg + "\n"},
		"table": {"does not verify: " + msg},
		"rich":  {"Record  does not verify", msg},
	} {
		out := renderAs(t, format, false, bad)
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s lacks %q:\n%s", format, w, out)
			}
		}
	}
	if plain := renderAs(t, "plain", false, ok); !strings.Contains(plain, "record.verified: true\n") || strings.Contains(plain, "record.problem") {
		t.Errorf("plain of a verified record:\n%s", plain)
	}
}

func TestPlanListAndResolutionViews(t *testing.T) {
	if got := renderAs(t, "json", false, PlanListView{}); got != "[]\n" {
		t.Errorf("empty list = %q", got)
	}
	p := samplePlan()
	if got := renderAs(t, "plain", false, PlanListView{Plans: []PlanView{{Plan: p}, {Plan: p}}}); got != p.ID+"\n"+p.ID+"\n" {
		t.Errorf("plain list = %q", got)
	}
	table := renderAs(t, "table", false, PlanListView{Plans: []PlanView{{Plan: p}}})
	if !strings.Contains(table, "full-auto (plan)") || !strings.Contains(table, "standalone (action)") {
		t.Errorf("table list:\n%s", table)
	}
	// Each entry of the json is the document plan show prints.
	drift := &plan.Drift{}
	shown := PlanView{Plan: p, Drift: drift, Record: plan.RecordCheck{Verified: true}}
	list, one := renderAs(t, "json", false, PlanListView{Plans: []PlanView{shown}}), renderAs(t, "json", false, shown)
	var docs []json.RawMessage
	if err := json.Unmarshal([]byte(list), &docs); err != nil || len(docs) != 1 {
		t.Fatalf("json list: %v\n%s", err, list)
	}
	var a, b any
	_ = json.Unmarshal(docs[0], &a)
	_ = json.Unmarshal([]byte(one), &b)
	if !reflect.DeepEqual(a, b) || !strings.Contains(list, `"drift": true`) || !strings.Contains(list, `"verified": true`) {
		t.Errorf("a json list entry is not plan show's document:\n%s\nshow:\n%s", list, one)
	}
	js := renderAs(t, "json", false, ResolutionView{Result: p})
	if keys := keysOf(t, []byte(js)); !slices.Equal(keys, []string{"action", "project_dir", "automation_profile", "safety_profile", "levels", "safety_loosened"}) {
		t.Errorf("resolution keys = %v", keys)
	}
	if !strings.Contains(js, `"action": null`) {
		t.Errorf("resolution without an action:\n%s", js)
	}
}

// TestLoosenedInEveryFormat: what a standalone safety profile drops of the
// composed one it replaces is a field in json and yaml, and a line in each
// human format; without it, the field is null and the human formats say
// nothing of it.
func TestLoosenedInEveryFormat(t *testing.T) {
	p := samplePlan()
	p.AutomationProfile.Name = "acme/strict"
	loosened := []profile.Loosening{{Field: "max_total_cost", Replaced: "50", Now: "null"}}
	for _, v := range []View{PlanView{Plan: p, Loosened: loosened}, ResolutionView{Result: p, Loosened: loosened}} {
		js := renderAs(t, "json", false, v)
		if !strings.Contains(js, `"safety_loosened": {
    "level": "action",
    "replaces": "acme/strict",
    "fields": [
      {
        "field": "max_total_cost",
        "replaced": 50,
        "now": null
      }
    ]
  }`) {
			t.Errorf("%T json:\n%s", v, js)
		}
		if y := renderAs(t, "yaml", false, v); !strings.Contains(y, "safety_loosened:\n  level: action\n  replaces: acme/strict\n  fields:\n    - field: max_total_cost\n      replaced: 50\n      now: null\n") {
			t.Errorf("%T yaml:\n%s", v, y)
		}
		line := `the standalone safety profile of the action level is looser than the safety composed in "acme/strict" that it replaces: max_total_cost 50 → null`
		for _, f := range []string{"plain", "table", "rich"} {
			out := renderAs(t, f, false, v)
			if f == "rich" {
				line = "looser than the safety composed in acme/strict"
			}
			if !strings.Contains(out, line) {
				t.Errorf("%T %s does not say %q:\n%s", v, f, line, out)
			}
		}
		if plain := renderAs(t, "plain", false, v); !strings.Contains(plain, "safety_loosened.max_total_cost: 50 → null\n") {
			t.Errorf("%T plain:\n%s", v, plain)
		}
	}
	for _, v := range []View{PlanView{Plan: p}, ResolutionView{Result: p}} {
		if js := renderAs(t, "json", false, v); !strings.Contains(js, `"safety_loosened": null`) {
			t.Errorf("%T json without loosening:\n%s", v, js)
		}
		for _, f := range []string{"table", "rich"} {
			if out := renderAs(t, f, false, v); strings.Contains(out, "looser") {
				t.Errorf("%T %s speaks of loosening:\n%s", v, f, out)
			}
		}
	}
}

// A recorded time reads the same in every format, so that one copied from
// plain output finds the same plan in JSON.
func TestTimesAgreeAcrossFormats(t *testing.T) {
	p := samplePlan()
	p.CreatedAt = time.Date(2026, 3, 1, 12, 0, 0, 790_000_000, time.UTC)
	want := "2026-03-01T12:00:00.79Z"
	for _, f := range []string{"json", "yaml", "plain", "table", "rich"} {
		if out := renderAs(t, f, false, PlanView{Plan: p}); !strings.Contains(out, want) {
			t.Errorf("%s does not give the time as %s:\n%s", f, want, out)
		}
	}
}
