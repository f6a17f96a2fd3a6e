package plan_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/cli"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/profiles"
)

// env is one home, project and in-memory store that several commands run
// against in turn.
type env struct {
	t     *testing.T
	home  string
	proj  string
	st    *store.Memory
	clock time.Time
}

func newEnv(t *testing.T) *env {
	root := t.TempDir()
	e := &env{t: t, home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj"), st: store.NewMemory(),
		clock: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	for _, d := range []string{e.home, e.proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	a, err := action.Decode([]byte(`name: local/deploy
description: Deploy
definition_of_done: Deployed
strategy_actor: local/default
execution_actor: local/default
safety_profile:
  require_human_approval: true
`), "deploy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.Actions().Put(context.Background(), a, false); err != nil {
		t.Fatal(err)
	}
	return e
}

type result struct {
	code           int
	stdout, stderr string
}

func (e *env) run(args ...string) result {
	e.t.Helper()
	ios, _, out, errOut := iostreams.Test()
	vars := map[string]string{"AGENTS_HOME": e.home, "CI": "true"}
	// Each command runs a millisecond after the last, so ids sort.
	e.clock = e.clock.Add(time.Millisecond)
	now := e.clock
	deps := &cmdutil.Deps{
		IO:        ios,
		Builtins:  profiles.Builtin,
		Getenv:    func(k string) string { return vars[k] },
		Now:       func() time.Time { return now },
		OpenStore: func(cmdutil.Config) (store.Store, error) { return e.st, nil },
	}
	if len(args) > 1 && args[1] == "use" {
		args = append(args, "--project", e.proj)
	}
	code := cli.Run(deps, args)
	return result{code, out.String(), errOut.String()}
}

// planDoc is the part of the plan document these tests read.
type planDoc struct {
	ID                string `json:"id"`
	CreatedAt         string `json:"created_at"`
	AutomationProfile struct {
		Name, Provenance, SHA256 string
	} `json:"automation_profile"`
	SafetyProfile struct {
		Provenance, Source string
		FromProfile        *string `json:"from_profile"`
	} `json:"safety_profile"`
	Levels []struct {
		Level             string  `json:"level"`
		AutomationProfile *string `json:"automation_profile"`
	} `json:"levels"`
	Drift        bool            `json:"drift"`
	DriftDetails json.RawMessage `json:"drift_details"`
}

func decodePlan(t *testing.T, r result) planDoc {
	t.Helper()
	var d planDoc
	if err := json.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatalf("stdout is not a plan document (%v):\n%s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return d
}

func TestUse(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		project   string
		wantAuto  string
		wantAt    string
		wantSafe  string
		wantSrc   string
		wantStder string
	}{
		{"nothing set", nil, "", "review", "system", "action", "standalone", ""},
		{"project names a profile", nil, "automation_profile: cautious\n", "cautious", "project", "action", "standalone", ""},
		{"plan beats project", []string{"--automation-profile", "full-auto"}, "automation_profile: cautious\n", "full-auto", "plan", "action", "standalone", ""},
		{"deprecated level", []string{"--automation-level", "full_auto"}, "", "full-auto", "plan", "action", "standalone", "--automation-level is deprecated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			if tt.project != "" {
				if err := os.WriteFile(filepath.Join(e.proj, "agents.yaml"), []byte(tt.project), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := e.run(append([]string{"plan", "use", "local/deploy", "-f", "json"}, tt.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			d := decodePlan(t, r)
			if d.AutomationProfile.Name != tt.wantAuto || d.AutomationProfile.Provenance != tt.wantAt {
				t.Errorf("automation = %+v, want %s from %s", d.AutomationProfile, tt.wantAuto, tt.wantAt)
			}
			if d.SafetyProfile.Provenance != tt.wantSafe || d.SafetyProfile.Source != tt.wantSrc {
				t.Errorf("safety = %+v", d.SafetyProfile)
			}
			if d.Drift || string(d.DriftDetails) != "null" {
				t.Errorf("drift of a new plan = %v, %s", d.Drift, d.DriftDetails)
			}
			if len(d.Levels) != 4 || d.Levels[0].Level != "plan" || d.Levels[3].Level != "global" {
				t.Errorf("levels = %+v", d.Levels)
			}
			if tt.wantStder == "" && r.stderr != "" {
				t.Errorf("stderr = %q", r.stderr)
			}
			if !strings.Contains(r.stderr, tt.wantStder) {
				t.Errorf("stderr %q lacks %q", r.stderr, tt.wantStder)
			}
			if strings.Contains(r.stdout, "warning") {
				t.Errorf("a warning reached stdout: %s", r.stdout)
			}
			if _, err := e.st.Plans().Get(context.Background(), d.ID); err != nil {
				t.Errorf("the plan was not stored: %v", err)
			}
		})
	}
}

func TestUseRefusals(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"both options", []string{"local/deploy", "--automation-level", "auto", "--automation-profile", "ci"}, 2, "cannot be combined"},
		{"unknown level", []string{"local/deploy", "--automation-level", "full-auto"}, 2, "unknown automation level"},
		{"misspelt level", []string{"local/deploy", "--automation-level", "ful_auto"}, 2, `hint: did you mean "full_auto"? The levels are manual, supervised, auto, full_auto;`},
		{"misspelt profile", []string{"local/deploy", "--automation-profile", "cautios"}, 3, "error: invalid name \"cautios\": it is not a built-in profile, and custom profiles are named namespace/name\nagents: hint: did you mean \"cautious\"?\n"},
		{"missing action", []string{"local/none"}, 4, `action "local/none" not found`},
		{"empty automation profile", []string{"local/deploy", "--automation-profile", ""}, 2, "--automation-profile must not be empty"},
		{"bad action name", []string{"Deploy"}, 3, `invalid action name`},
		{"action name without a namespace", []string{"deploy"}, 3, `invalid action name: "deploy" must have the form namespace/name`},
		{"missing profile", []string{"local/deploy", "--automation-profile", "acme/none"}, 4, `automation profile "acme/none" named at the plan level not found`},
		{"missing safety file", []string{"local/deploy", "--safety-profile", "/nonexistent/s.yaml"}, 4, "file not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			r := e.run(append([]string{"plan", "use"}, tt.args...)...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.msg) {
				t.Errorf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, tt.code, tt.msg)
			}
			if r.stdout != "" {
				t.Errorf("stdout = %q", r.stdout)
			}
			ids, _ := e.st.Plans().Names(context.Background(), store.Query{})
			if len(ids) != 0 {
				t.Errorf("a refused use stored plans %v", ids)
			}
		})
	}
}

func TestShowListSet(t *testing.T) {
	e := newEnv(t)
	var ids []string
	for range 3 {
		r := e.run("plan", "use", "local/deploy", "-f", "json")
		ids = append(ids, decodePlan(t, r).ID)
	}
	r := e.run("plan", "list", "-f", "plain")
	if got := strings.Fields(r.stdout); strings.Join(got, " ") != strings.Join(ids, " ") {
		t.Errorf("list = %v, want creation order %v", got, ids)
	}

	// A level changes: drift, and the record stands.
	if err := os.WriteFile(filepath.Join(e.proj, "agents.yaml"), []byte("automation_profile: manual\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := decodePlan(t, e.run("plan", "show", ids[0], "-f", "json"))
	if d.AutomationProfile.Name != "review" || !d.Drift || !strings.Contains(string(d.DriftDetails), `"manual"`) {
		t.Errorf("show after a level changed: %+v, drift %v %s", d.AutomationProfile, d.Drift, d.DriftDetails)
	}

	// set-automation-profile resolves again; the deprecated form warns.
	r = e.run("plan", "set-automation-level", ids[1], "supervised", "-f", "json")
	d = decodePlan(t, r)
	if r.code != 0 || d.AutomationProfile.Name != "supervised" || d.AutomationProfile.Provenance != "plan" || d.Drift {
		t.Errorf("set-automation-level: exit %d, %+v, drift %v", r.code, d.AutomationProfile, d.Drift)
	}
	if !strings.Contains(r.stderr, "'agents plan set-automation-profile "+ids[1]+" supervised'") {
		t.Errorf("stderr = %q", r.stderr)
	}
	got, err := e.st.Plans().Get(context.Background(), ids[1])
	if err != nil || got.AutomationProfile.Name != "supervised" || *got.Levels[2].AutomationProfile != "manual" {
		t.Errorf("stored after set: %+v, %v", got, err)
	}

	r = e.run("plan", "show", "01aaaaaaaaaaaaaaaaaaaaaaaa")
	if r.code != 4 {
		t.Errorf("show of a missing plan: exit %d", r.code)
	}
}
