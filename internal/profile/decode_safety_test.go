package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/strictyaml"
)

// seedSafetyYAML is the standalone safety profile of the specification's
// safety profile reference.
const seedSafetyYAML = `require_sandbox: false
require_checkpoints: true
require_human_approval: true
allow_unsafe_tools: false
max_cost_per_plan: 50.0
max_retries_per_step: 5
max_total_cost: 200.0
allowed_skill_categories:
  - code
  - test
  - deploy
`

func TestDecodeSafetyProfile(t *testing.T) {
	got, warnings, err := DecodeSafetyProfile([]byte(seedSafetyYAML), "safety.yaml")
	if err != nil || len(warnings) != 0 {
		t.Fatalf("DecodeSafetyProfile: %v %v", err, warnings)
	}
	want := SafetyProfile{
		RequireSandbox: false, RequireCheckpoints: true, AllowUnsafeTools: false, RequireHumanApproval: true,
		AllowedSkillCategories: []string{"code", "test", "deploy"},
		MaxCostPerPlan:         ptrF(50), MaxTotalCost: ptrF(200), MaxRetriesPerStep: 5,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %s, want %s", safetyString(got), safetyString(want))
	}

	// An empty mapping is the default profile.
	got, _, err = DecodeSafetyProfile([]byte("{}\n"), "safety.yaml")
	if err != nil || !reflect.DeepEqual(got, DefaultSafetyProfile()) {
		t.Errorf("{} = %s, %v", safetyString(got), err)
	}
}

func TestDecodeSafetyProfileInvalid(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []wantProblem
	}{
		{"empty", "", []wantProblem{{"", "file is empty", 0}}},
		{"list root", "- require_sandbox\n", []wantProblem{{"", "must be a mapping", 1}}},
		{"string root", "strict\n", []wantProblem{{"", "must be a mapping", 1}}},
		{"an automation profile", "name: acme/x\nsafety: {}\n", []wantProblem{{"name", "unknown field", 1}, {"safety", "unknown field", 2}}},
		{"unknown key", "require_sandbox: true\nmax_retries: 3\n", []wantProblem{{"max_retries", "unknown field", 2}}},
		{"bool yes", "require_sandbox: yes\n", []wantProblem{{"require_sandbox", `got string "yes"`, 1}}},
		{"bool quoted", "require_checkpoints: \"yes\"\n", []wantProblem{{"require_checkpoints", `got string "yes"`, 1}}},
		{"retries fraction", "max_retries_per_step: 1.5\n", []wantProblem{{"max_retries_per_step", "integer", 1}}},
		{"retries range", "max_retries_per_step: 1000\n", []wantProblem{{"max_retries_per_step", "between 0 and 100", 1}}},
		{"cost order", "max_cost_per_plan: 2\nmax_total_cost: 1\n", []wantProblem{{"max_cost_per_plan", "must not exceed", 1}}},
		{"cost nan", "max_cost_per_plan: .nan\n", []wantProblem{{"max_cost_per_plan", "finite", 1}}},
		{"categories not a list", "allowed_skill_categories: code\n", []wantProblem{{"allowed_skill_categories", "must be a list", 1}}},
		{"category number", "allowed_skill_categories: [1]\n", []wantProblem{{"allowed_skill_categories[0]", "must be a string", 1}}},
		{"category blank", "allowed_skill_categories: [' ']\n", []wantProblem{{"allowed_skill_categories[0]", "blank", 1}}},
		{"custom tag", "require_sandbox: !custom true\n", []wantProblem{{"require_sandbox", "unsupported tag", 1}}},
		{"second document", "require_sandbox: true\n---\n{}\n", []wantProblem{{"", "more than one", 2}}},
		{"flat guard field", "tool_denylist: []\n", []wantProblem{{"tool_denylist", "unknown field", 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := DecodeSafetyProfile([]byte(tt.doc), "s.yaml")
			if err == nil {
				t.Fatalf("accepted: %s", safetyString(got))
			}
			if !reflect.DeepEqual(got, DefaultSafetyProfile()) {
				t.Errorf("value returned with an error is %s, want the default", safetyString(got))
			}
			checkProblems(t, err, "s.yaml", tt.want)
		})
	}
}

func TestLoadSafetyProfile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "safety.yaml")
	if err := os.WriteFile(path, []byte(seedSafetyYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	s, _, err := LoadSafetyProfile(path)
	if err != nil || s.MaxRetriesPerStep != 5 {
		t.Fatalf("LoadSafetyProfile = %s, %v", safetyString(s), err)
	}
	_, _, err = LoadSafetyProfile(filepath.Join(dir, "missing.yaml"))
	if !errs.Is(err, errs.KindNotFound) || !strings.Contains(err.Error(), "file not found") {
		t.Errorf("missing file: %v", err)
	}
	if err := os.WriteFile(path, []byte("- a\n- b\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err = LoadSafetyProfile(path)
	if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "must be a mapping") {
		t.Errorf("list root: %v", err)
	}
}

func TestLoadProfile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(path, []byte("name: acme/x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if p, _, err := LoadProfile(path); err != nil || p.Name != "acme/x" {
		t.Fatalf("LoadProfile = %v, %v", p, err)
	}
	if _, _, err := LoadProfile(filepath.Join(dir, "nope.yaml")); !errs.Is(err, errs.KindNotFound) {
		t.Errorf("missing: %v", err)
	}
	if _, _, err := LoadProfile(dir); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("directory: %v", err)
	}
	f, err := os.Create(filepath.Join(dir, "huge.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(64 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, _, err := LoadProfile(f.Name()); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("64 MiB file: %v", err)
	}
}

func TestDecodeSafetyField(t *testing.T) {
	// A decoder of a larger document shares one Decoder with the profile
	// package, so every problem lands in one list.
	d := strictyaml.NewDecoder("agents.yaml")
	root, ok := d.Root([]byte("automation_profile: cautious\nsafety_profile:\n  max_total_cost: -1\n"))
	if !ok {
		t.Fatal(d.Problems())
	}
	var s SafetyProfile
	for _, f := range d.Fields(strictyaml.At("", root), []string{"automation_profile", "safety_profile"}) {
		switch f.Key {
		case "automation_profile":
			name, _ := d.String(f)
			if why := CheckProfileName(name); why != "" {
				d.Fieldf(f, "%s", why)
			}
		case "safety_profile":
			s = DecodeSafetyField(d, f)
		}
	}
	ps := d.Problems()
	if len(ps) != 1 || ps[0].Path != "safety_profile.max_total_cost" || ps[0].Line != 3 {
		t.Fatalf("problems = %v", ps)
	}
	if s.MaxTotalCost != nil {
		t.Errorf("invalid cost kept: %v", *s.MaxTotalCost)
	}
}

// EncodeSafety gives the stored form a plan keeps, and refuses one that
// would not fit a stored file: a list written inline grows when each item
// takes a line of its own.
func TestEncodeSafety(t *testing.T) {
	data, err := EncodeSafety(DefaultSafetyProfile())
	if err != nil || !strings.Contains(string(data), "require_sandbox: true\n") {
		t.Fatalf("EncodeSafety(default) = %q, %v", data, err)
	}
	big := DefaultSafetyProfile()
	for i := range 111_111 {
		big.AllowedSkillCategories = append(big.AllowedSkillCategories, fmt.Sprintf("c%06d", i))
	}
	if _, err := EncodeSafety(big); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "as stored, over the 1048576-byte") {
		t.Errorf("EncodeSafety of a profile whose stored form passes 1 MiB: %v", err)
	}
}
