package action

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/strictyaml"
)

// secureDeploy is the safety profile reference's example action.
const secureDeploy = `name: local/secure-deploy
description: Deploy with safety constraints
definition_of_done: Deployment verified
strategy_actor: local/default
execution_actor: local/default
safety_profile:
  require_sandbox: true
  require_checkpoints: true
  require_human_approval: true
  allow_unsafe_tools: false
  max_cost_per_plan: 100.0
  allowed_skill_categories:
    - deploy
    - test
`

func TestDecodeSecureDeploy(t *testing.T) {
	a, err := Decode([]byte(secureDeploy), "secure-deploy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "local/secure-deploy" || a.Namespace() != "local" || a.DefinitionOfDone != "Deployment verified" ||
		a.StrategyActor != "local/default" || a.ExecutionActor != "local/default" || a.AutomationProfile != nil {
		t.Errorf("action = %+v", a)
	}
	s := a.SafetyProfile
	if s == nil {
		t.Fatal("no safety profile")
	}
	if !s.RequireSandbox || !s.RequireCheckpoints || !s.RequireHumanApproval || s.AllowUnsafeTools ||
		strings.Join(s.AllowedSkillCategories, ",") != "deploy,test" || s.MaxCostPerPlan == nil || *s.MaxCostPerPlan != 100 ||
		s.MaxTotalCost != nil || s.MaxRetriesPerStep != 3 {
		t.Errorf("safety profile = %+v", s)
	}
}

func TestExampleAction(t *testing.T) {
	a, err := load(filepath.Join("..", "..", "examples", "actions", "secure-deploy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Decode([]byte(secureDeploy), "x")
	if a.Name != want.Name || *a.SafetyProfile.MaxCostPerPlan != *want.SafetyProfile.MaxCostPerPlan {
		t.Errorf("the example is not the reference's action: %+v", a)
	}
}

func TestDecodeRefuses(t *testing.T) {
	base := strings.Join([]string{
		"name: acme/release",
		"description: Cut a release",
		"definition_of_done: Released",
		"strategy_actor: acme/planner",
		"execution_actor: acme/releaser",
	}, "\n") + "\n"
	tests := []struct {
		name, doc string
		// want are the path and a part of the message of each problem.
		want [][2]string
	}{
		{"unknown key", base + "automation_profil: auto\n", [][2]string{{"automation_profil", `did you mean "automation_profile"`}}},
		{"missing fields", "name: acme/release\n", [][2]string{
			{"description", "is required"}, {"definition_of_done", "is required"},
			{"strategy_actor", "is required"}, {"execution_actor", "is required"},
		}},
		{"number for a string", strings.Replace(base, "acme/planner", "7", 1), [][2]string{{"strategy_actor", "must be a string"}}},
		{"null for a string", strings.Replace(base, "acme/planner", "~", 1), [][2]string{{"strategy_actor", "must be a string, got null"}}},
		{"empty required strings", strings.NewReplacer("Released", `""`, "acme/planner", `"  "`, "acme/releaser", `""`).Replace(base), [][2]string{
			{"definition_of_done", "must not be empty"}, {"strategy_actor", "must not be empty"}, {"execution_actor", "must not be empty"},
		}},
		{"bare name", strings.Replace(base, "acme/release", "release", 1), [][2]string{{"name", "namespace/name"}}},
		{"built-in name", strings.Replace(base, "acme/release", "manual", 1), [][2]string{{"name", "namespace/name"}}},
		{"upper case", strings.Replace(base, "acme/release", "Acme/release", 1), [][2]string{{"name", "lower-case"}}},
		{"bad profile name", base + "automation_profile: Full-Auto\n", [][2]string{{"automation_profile", "namespace/name"}}},
		{"profile name as number", base + "automation_profile: 3\n", [][2]string{{"automation_profile", "must be a string"}}},
		{"safety not a mapping", base + "safety_profile: strict\n", [][2]string{{"safety_profile", "must be a mapping"}}},
		{"safety unknown key", base + "safety_profile:\n  auto_apply: 0.5\n", [][2]string{{"safety_profile.auto_apply", "unknown field"}}},
		{"safety yes for a bool", base + "safety_profile:\n  require_sandbox: yes\n", [][2]string{{"safety_profile.require_sandbox", "true or false"}}},
		{"safety retries out of range", base + "safety_profile:\n  max_retries_per_step: 101\n", [][2]string{{"safety_profile.max_retries_per_step", "between 0 and 100"}}},
		{"safety costs cross", base + "safety_profile:\n  max_cost_per_plan: 5\n  max_total_cost: 1\n", [][2]string{{"safety_profile.max_cost_per_plan", "must not exceed"}}},
		{"safety blank category", base + "safety_profile:\n  allowed_skill_categories: ['  ']\n", [][2]string{{"safety_profile.allowed_skill_categories[0]", "blank"}}},
		{"duplicate key", base + "description: again\n", [][2]string{{"description", "duplicate key"}}},
		{"list root", "- name: acme/x\n", [][2]string{{"", "must be a mapping"}}},
		{"empty", "", [][2]string{{"", "empty"}}},
		{"two documents", base + "---\n" + base, [][2]string{{"", "more than one YAML document"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Decode([]byte(tt.doc), "a.yaml")
			if a != nil {
				t.Errorf("an action came back with the error: %+v", a)
			}
			var e *errs.Error
			if !errors.As(err, &e) || e.Kind != errs.KindInvalid {
				t.Fatalf("err = %v, want invalid input", err)
			}
			if len(e.Problems) != len(tt.want) {
				t.Fatalf("%d problems, want %d: %v", len(e.Problems), len(tt.want), e.Problems)
			}
			for i, w := range tt.want {
				p := e.Problems[i]
				if p.Path != w[0] || !strings.Contains(p.Message, w[1]) || p.File != "a.yaml" {
					t.Errorf("problem %d = %+v, want path %q and %q", i, p, w[0], w[1])
				}
			}
		})
	}
}

func TestDecodeOptionalFields(t *testing.T) {
	doc := "name: acme/x\ndescription: ''\ndefinition_of_done: d\nstrategy_actor: s\nexecution_actor: e\nautomation_profile: null\nsafety_profile: ~\n"
	a, err := Decode([]byte(doc), "a.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if a.AutomationProfile != nil || a.SafetyProfile != nil || a.Description != "" {
		t.Errorf("nulls did not decode as absent: %+v", a)
	}
	a, err = Decode([]byte(strings.Replace(doc, "automation_profile: null", "automation_profile: acme/strict", 1)), "a.yaml")
	if err != nil || a.AutomationProfile == nil || *a.AutomationProfile != "acme/strict" {
		t.Errorf("automation_profile = %v, %v", a, err)
	}
	// An empty safety mapping is the default safety profile, not none.
	a, err = Decode([]byte(strings.Replace(doc, "safety_profile: ~", "safety_profile: {}", 1)), "a.yaml")
	if err != nil || a.SafetyProfile == nil || !a.SafetyProfile.RequireSandbox || a.SafetyProfile.MaxRetriesPerStep != 3 {
		t.Errorf("safety_profile = %+v, %v", a, err)
	}
}

func TestEncodeIsAFixedPoint(t *testing.T) {
	a, err := Decode([]byte(secureDeploy), "x")
	if err != nil {
		t.Fatal(err)
	}
	data, stored, err := Encode(a)
	if err != nil {
		t.Fatal(err)
	}
	again, stored2, err := Encode(stored)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != string(again) {
		t.Errorf("encoding twice differs:\n%s\n%s", data, again)
	}
	if stored2.SafetyProfile.MaxCostPerPlan == nil || *stored2.SafetyProfile.MaxCostPerPlan != 100 {
		t.Errorf("stored = %+v", stored2)
	}
	for _, want := range []string{"automation_profile: null\n", "max_total_cost: null\n", "max_retries_per_step: 3\n"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("canonical YAML lacks %q:\n%s", want, data)
		}
	}
}

func TestValidateAndClone(t *testing.T) {
	a, _ := Decode([]byte(secureDeploy), "x")
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	c := a.Clone()
	c.SafetyProfile.AllowedSkillCategories[0] = "changed"
	c.SafetyProfile.MaxRetriesPerStep = 101
	if a.SafetyProfile.AllowedSkillCategories[0] != "deploy" {
		t.Error("changing a clone changed the original")
	}
	if err := c.Validate(); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "safety_profile.max_retries_per_step") {
		t.Errorf("Validate of a bad clone = %v", err)
	}
	bad := "Full"
	c = a.Clone()
	c.Name = "x"
	c.AutomationProfile = &bad
	err := c.Validate()
	var e *errs.Error
	if !errors.As(err, &e) || len(e.Problems) != 2 {
		t.Errorf("Validate = %v, want two problems", err)
	}
	if _, _, err := Encode(nil); err == nil {
		t.Error("Encode(nil) succeeded")
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := load(filepath.Join(t.TempDir(), "none.yaml"))
	if !errs.Is(err, errs.KindNotFound) {
		t.Errorf("err = %v, want not found", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(secureDeploy), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := load(filepath.Join(dir, "a.yaml")); err != nil {
		t.Error(err)
	}
}

// TestExampleSafetyProfiles checks that every example safety profile loads
// as a standalone safety profile, and that the reference's example keeps its
// values.
func TestExampleSafetyProfiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "safety-profiles", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example safety profiles: %v", err)
	}
	for _, f := range files {
		s, _, err := profile.LoadSafetyProfile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if filepath.Base(f) == "reference.yaml" {
			if s.RequireSandbox || !s.RequireHumanApproval || s.MaxRetriesPerStep != 5 || *s.MaxCostPerPlan != 50 ||
				*s.MaxTotalCost != 200 || strings.Join(s.AllowedSkillCategories, ",") != "code,test,deploy" {
				t.Errorf("reference.yaml = %+v", s)
			}
		}
	}
}

// load reads and decodes the action in the file at path, as a command
// reads the file it is given.
func load(path string) (*Action, error) {
	data, err := strictyaml.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(data, path)
}

// An action as the store wrote it holds every field, and every field of its
// standalone safety profile, and ends with a new line: a file cut short at
// any point is refused, never read with defaults that may be looser (a
// safety profile cut after require_checkpoints no longer requires a
// person's approval). What add accepts (fields left out) is unchanged.
func TestDecodeStoredRefusesACutFile(t *testing.T) {
	a, err := Decode([]byte(`name: local/deploy
description: d
definition_of_done: done
strategy_actor: local/s
execution_actor: local/e
safety_profile:
  require_human_approval: true
  max_cost_per_plan: 100
`), "in.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data, _, err := Encode(a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeStored(data, "stored.yaml"); err != nil {
		t.Fatalf("the store's own encoding: %v", err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	for n := 1; n < len(lines)-1; n++ {
		cut := strings.Join(lines[:n], "")
		if _, err := DecodeStored([]byte(cut), "stored.yaml"); !errs.Is(err, errs.KindInvalid) {
			t.Errorf("cut after line %d: %v, want it refused", n, err)
		}
	}
	for i := 1; i < len(data)-1; i++ {
		if data[i-1] == '\n' {
			continue // a cut at a line's end is one of the above
		}
		if _, err := DecodeStored(data[:i], "stored.yaml"); !errs.Is(err, errs.KindInvalid) {
			t.Errorf("cut after byte %d (%q): %v, want it refused", i, data[:i], err)
			break
		}
	}
}
