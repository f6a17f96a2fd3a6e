package profile

import (
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/canon"
)

func TestCheckProfileName(t *testing.T) {
	for _, name := range append([]string{"acme/strict", "a/b", "team-1/ci-2"}, BuiltinNames...) {
		if why := CheckProfileName(name); why != "" {
			t.Errorf("CheckProfileName(%q) = %q, want valid", name, why)
		}
	}
	for _, name := range []string{"", "strict", "Acme/x", "../x", "a/b/c", "acme/", "/x", "acme/nul", "acme/x ", "ｍanual"} {
		if CheckProfileName(name) == "" {
			t.Errorf("CheckProfileName(%q) accepted it", name)
		}
	}
	// A built-in in another case is refused, naming the built-in meant;
	// a name that is no built-in in any case names none.
	// The name a profile gives itself never suggests a built-in, which a
	// custom profile cannot take.
	for _, name := range []string{"Trusted", "FULL-AUTO"} {
		if why := checkOwnName(name); why == "" || strings.Contains(why, "did you mean") || !strings.Contains(why, "of its own") {
			t.Errorf("checkOwnName(%q) = %q", name, why)
		}
	}
	for name, want := range map[string]string{"Trusted": `did you mean the built-in "trusted"?`, "FULL-AUTO": `"full-auto"?`, "Strict": ""} {
		why := CheckProfileName(name)
		if why == "" || !strings.Contains(why, want) || (want == "" && strings.Contains(why, "did you mean")) {
			t.Errorf("CheckProfileName(%q) = %q, want it to hold %q", name, why, want)
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(p *AutomationProfile)
		paths []string
	}{
		{"valid", func(p *AutomationProfile) {}, nil},
		{"built-in name", func(p *AutomationProfile) { p.Name = "manual" }, nil},
		{"no name", func(p *AutomationProfile) { p.Name = "" }, []string{"name"}},
		{"bad name", func(p *AutomationProfile) { p.Name = "x" }, []string{"name"}},
		{"schema", func(p *AutomationProfile) { p.SchemaVersion = "" }, []string{"schema_version"}},
		{"thresholds", func(p *AutomationProfile) {
			p.AutoApply, p.AutoExecute, p.AutoChildPlans = math.NaN(), -0.5, math.Inf(1)
		}, []string{"auto_execute", "auto_apply", "auto_child_plans"}},
		{"retries", func(p *AutomationProfile) { p.Safety.MaxRetriesPerStep = 101 }, []string{"safety.max_retries_per_step"}},
		{"costs", func(p *AutomationProfile) {
			p.Safety.MaxCostPerPlan, p.Safety.MaxTotalCost = ptrF(-1), ptrF(math.NaN())
		}, []string{"safety.max_cost_per_plan", "safety.max_total_cost"}},
		{"cost order", func(p *AutomationProfile) {
			p.Safety.MaxCostPerPlan, p.Safety.MaxTotalCost = ptrF(3), ptrF(2)
		}, []string{"safety.max_cost_per_plan"}},
		{"categories", func(p *AutomationProfile) {
			p.Safety.AllowedSkillCategories = []string{"a", " b", "", "a"}
		}, []string{"safety.allowed_skill_categories[1]", "safety.allowed_skill_categories[2]", "safety.allowed_skill_categories[3]"}},
		{"nil categories are all allowed", func(p *AutomationProfile) { p.Safety.AllowedSkillCategories = nil }, nil},
		{"guards", func(p *AutomationProfile) {
			p.Guards = &AutomationGuard{
				MaxToolCallsPerStep: ptrI(-1), MaxTotalCost: ptrF(math.Inf(-1)),
				ToolAllowlist: []string{"x", "x"}, ToolDenylist: []string{"\t"},
			}
		}, []string{"guards.max_tool_calls_per_step", "guards.max_total_cost", "guards.tool_allowlist[1]", "guards.tool_denylist[0]"}},
		{"empty guards", func(p *AutomationProfile) { p.Guards = &AutomationGuard{ToolAllowlist: []string{}} }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := allAsk("acme/x")
			tt.edit(p)
			err := p.Validate()
			if tt.paths == nil {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			var want []wantProblem
			for _, path := range tt.paths {
				want = append(want, wantProblem{path: path})
			}
			checkProblems(t, err, "", want)
		})
	}
	var nilProfile *AutomationProfile
	if nilProfile.Validate() == nil {
		t.Error("nil profile validated")
	}
	if err := DefaultSafetyProfile().Validate(); err != nil {
		t.Errorf("default safety profile: %v", err)
	}
	if err := (SafetyProfile{MaxRetriesPerStep: -1}).Validate(); err == nil {
		t.Error("negative retries validated")
	}
	if err := (&AutomationGuard{}).Validate(); err != nil {
		t.Errorf("empty guards: %v", err)
	}
}

func TestRoundTrip(t *testing.T) {
	docs := map[string]string{
		"minimal": "name: acme/x\n",
		"full": `name: acme/full
description: "Line one\nline two, with: colons # and hashes"
auto_strategize: 0.1
auto_execute: 0.333333333333333
auto_apply: 0
auto_decisions_strategize: 1
auto_checkpoint_restore: 2.2250738585072014e-308
safety:
  require_sandbox: false
  require_checkpoints: false
  allow_unsafe_tools: true
  require_human_approval: true
  allowed_skill_categories: [code, "123", "yes", "~", "- x"]
  max_cost_per_plan: 0.5
  max_total_cost: 1e300
  max_retries_per_step: 100
guards:
  max_tool_calls_per_step: 9223372036854775807
  max_total_cost: 0
  tool_allowlist: []
  tool_denylist: ["shell exec", "true", "null"]
  require_approval_for_writes: true
  require_approval_for_apply: true
`,
		"strings that look like other types": "name: acme/x\ndescription: \"true\"\n",
		"leading spaces":                     "name: acme/x\ndescription: \"  indented\\n  text\\n\"\n",
		"trailing spaces":                    "name: acme/x\ndescription: \"a  \\nb \"\n",
		"control characters":                 "name: acme/x\ndescription: \"bell\\a and escape\\e[31m\"\n",
		"unicode":                            "name: acme/x\ndescription: \"żółw 🐢 \\u200b\"\n",
		"legacy":                             "name: acme/x\nrequire_sandbox: false\n",
		"empty guard lists":                  "name: acme/x\nguards: {tool_allowlist: [], tool_denylist: []}\n",
		"null guard lists":                   "name: acme/x\nguards: {tool_allowlist: ~}\n",
		"built-in":                           mustRead(t, "../../profiles/builtin/cautious.yaml"),
		"example":                            mustRead(t, "../../examples/profiles/acme-guarded.yaml"),
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			first, _, err := DecodeProfile([]byte(doc), "a.yaml")
			if err != nil {
				t.Fatalf("decode: %v\n%s", err, problemText(err))
			}
			out, err := canon.YAML(first)
			if err != nil {
				t.Fatal(err)
			}
			second, warnings, err := DecodeProfile(out, "b.yaml")
			if err != nil {
				t.Fatalf("decode of canonical output: %v\n%s\n%s", err, problemText(err), out)
			}
			if len(warnings) != 0 {
				t.Errorf("canonical output warns: %v", warnings)
			}
			if !reflect.DeepEqual(first, second) {
				t.Errorf("round trip changed the profile\nfirst  %s\nsecond %s\n%s", dump(first), dump(second), out)
			}
			again, _ := canon.YAML(second)
			if string(again) != string(out) {
				t.Errorf("canonical output is not stable:\n%s\n---\n%s", out, again)
			}
			if strings.Contains(string(out), "require_sandbox") && !strings.Contains(string(out), "safety:\n  require_sandbox") {
				t.Errorf("canonical output is not nested:\n%s", out)
			}
		})
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestSafetyRoundTrip(t *testing.T) {
	first, _, err := DecodeSafetyProfile([]byte(seedSafetyYAML), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out, err := canon.YAML(first)
	if err != nil {
		t.Fatal(err)
	}
	second, _, err := DecodeSafetyProfile(out, "s2.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !reflect.DeepEqual(first, second) {
		t.Errorf("round trip: %s != %s", safetyString(first), safetyString(second))
	}
}

func TestCloneIndependence(t *testing.T) {
	orig, _, err := DecodeProfile([]byte(`name: acme/x
safety:
  allowed_skill_categories: [a, b]
  max_cost_per_plan: 1
  max_total_cost: 2
guards:
  max_tool_calls_per_step: 3
  max_total_cost: 4
  tool_allowlist: [x]
  tool_denylist: [y]
`), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	snapshot, _ := canon.JSON(orig)

	c := orig.Clone()
	if !reflect.DeepEqual(c, orig) {
		t.Fatal("clone differs from the original")
	}
	c.Name = "acme/y"
	c.AutoApply = 0
	c.Safety.AllowedSkillCategories[0] = "changed"
	c.Safety.AllowedSkillCategories = append(c.Safety.AllowedSkillCategories, "more")
	*c.Safety.MaxCostPerPlan = 100
	*c.Safety.MaxTotalCost = 100
	*c.Guards.MaxToolCallsPerStep = 100
	*c.Guards.MaxTotalCost = 100
	c.Guards.ToolAllowlist[0] = "changed"
	c.Guards.ToolDenylist[0] = "changed"
	c.Guards.RequireApprovalForApply = true

	after, _ := canon.JSON(orig)
	if string(after) != string(snapshot) {
		t.Errorf("changing the clone changed the original:\n%s\n%s", snapshot, after)
	}

	// Nil stays nil and empty stays empty: they mean different things for
	// an allowlist.
	g := AutomationGuard{ToolAllowlist: []string{}}
	gc := g.Clone()
	if gc.ToolAllowlist == nil || gc.ToolDenylist != nil {
		t.Errorf("clone of guards: allowlist %v denylist %v", gc.ToolAllowlist, gc.ToolDenylist)
	}
	var nilProfile *AutomationProfile
	if nilProfile.Clone() != nil {
		t.Error("clone of nil profile is not nil")
	}
	s := SafetyProfile{}
	if s.Clone().AllowedSkillCategories == nil {
		t.Error("clone of safety with nil categories gives nil, want empty")
	}
}

func TestLegacyFile(t *testing.T) {
	// testdata/legacy/acme-strict.yaml is the specification's flat acme/strict
	// example, verbatim. It must decode to exactly the same profile as the
	// nested example, with a warning.
	legacy, warnings, err := LoadProfile("../../testdata/legacy/acme-strict.yaml")
	if err != nil {
		t.Fatalf("legacy file: %v\n%s", err, problemText(err))
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].String(), "require_sandbox, require_checkpoints, allow_unsafe_tools") ||
		!warnings[0].Migrate {
		t.Errorf("warnings = %+v", warnings)
	}
	want := &AutomationProfile{
		Name: "acme/strict", Description: "Strict profile for production deployments", SchemaVersion: "1.0",
		AutoStrategize: 0.9, AutoExecute: 0.9, AutoApply: 1.0,
		AutoDecisionsStrategize: 0.8, AutoDecisionsExecute: 0.9,
		AutoValidationFix: 0.5, AutoStrategyRevision: 0.9, AutoReversionFromApply: 1.0,
		AutoChildPlans: 0.8, AutoRetryTransient: 0.3, AutoCheckpointRestore: 0.7,
		Safety: DefaultSafetyProfile(),
	}
	if !reflect.DeepEqual(legacy, want) {
		t.Errorf("legacy file\n got  %s\n want %s", dump(legacy), dump(want))
	}
	nested, warnings, err := LoadProfile("../../examples/profiles/acme-strict.yaml")
	if err != nil || len(warnings) != 0 {
		t.Fatalf("nested example: %v %v", err, warnings)
	}
	if !reflect.DeepEqual(legacy, nested) {
		t.Errorf("legacy and nested differ\n legacy %s\n nested %s", dump(legacy), dump(nested))
	}
	// Migrating is re-encoding: the output is nested and warns no more.
	out, err := canon.YAML(legacy)
	if err != nil {
		t.Fatal(err)
	}
	migrated, warnings, err := DecodeProfile(out, "migrated.yaml")
	if err != nil || len(warnings) != 0 || !reflect.DeepEqual(migrated, legacy) {
		t.Errorf("migrated: %v %v", err, warnings)
	}
}
