package profiles

import (
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/profile"
)

// seedColumns is the column order of the specification's built-in table.
var seedColumns = []string{"manual", "review", "supervised", "cautious", "trusted", "auto", "ci", "full-auto"}

// seedThresholds is the specification's table of built-in thresholds, typed
// here row by row, not read back from the files under test.
var seedThresholds = []struct {
	gate   string
	values [8]float64
}{
	//                                manual review supervised cautious trusted auto ci  full-auto
	{"auto_strategize", [8]float64{1.0, 0.0, 0.0, 0.7, 0.0, 0.0, 0.0, 0.0}},
	{"auto_execute", [8]float64{1.0, 0.0, 1.0, 0.7, 0.0, 0.0, 0.0, 0.0}},
	{"auto_apply", [8]float64{1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0}},
	{"auto_decisions_strategize", [8]float64{1.0, 1.0, 0.0, 0.6, 0.0, 0.0, 0.0, 0.0}},
	{"auto_decisions_execute", [8]float64{1.0, 1.0, 1.0, 0.8, 0.0, 0.0, 0.0, 0.0}},
	{"auto_validation_fix", [8]float64{1.0, 1.0, 1.0, 0.7, 0.0, 0.0, 0.0, 0.0}},
	{"auto_strategy_revision", [8]float64{1.0, 1.0, 1.0, 0.8, 1.0, 0.0, 0.0, 0.0}},
	{"auto_reversion_from_apply", [8]float64{1.0, 1.0, 1.0, 0.9, 1.0, 1.0, 0.0, 0.0}},
	{"auto_child_plans", [8]float64{1.0, 0.0, 1.0, 0.7, 0.0, 0.0, 0.0, 0.0}},
	{"auto_retry_transient", [8]float64{1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
	{"auto_checkpoint_restore", [8]float64{1.0, 1.0, 1.0, 0.6, 1.0, 0.0, 0.0, 0.0}},
}

// seedSafetyFlags is the safety part of the same table.
var seedSafetyFlags = []struct {
	flag   string
	values [8]bool
	get    func(profile.SafetyProfile) bool
}{
	{"require_sandbox", [8]bool{true, true, true, true, true, true, true, false}, func(s profile.SafetyProfile) bool { return s.RequireSandbox }},
	{"require_checkpoints", [8]bool{true, true, true, true, true, true, true, false}, func(s profile.SafetyProfile) bool { return s.RequireCheckpoints }},
	{"allow_unsafe_tools", [8]bool{false, false, false, false, false, false, false, true}, func(s profile.SafetyProfile) bool { return s.AllowUnsafeTools }},
}

func TestSeedTableCoversEveryGate(t *testing.T) {
	var rows []string
	for _, r := range seedThresholds {
		rows = append(rows, r.gate)
	}
	if !slices.Equal(rows, profile.GateNames()) {
		t.Errorf("table rows %v, gates %v", rows, profile.GateNames())
	}
	if !slices.Equal(seedColumns, profile.BuiltinNames) {
		t.Errorf("BuiltinNames = %v, want the table's order %v", profile.BuiltinNames, seedColumns)
	}
}

func TestBuiltinFiles(t *testing.T) {
	files, err := fs.Glob(Builtin, "builtin/*")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, name := range seedColumns {
		want = append(want, "builtin/"+name+".yaml")
	}
	slices.Sort(want)
	if !slices.Equal(files, want) {
		t.Errorf("embedded files %v, want %v", files, want)
	}
}

func TestBuiltinsMatchTheSeed(t *testing.T) {
	for col, name := range seedColumns {
		t.Run(name, func(t *testing.T) {
			path := "builtin/" + name + ".yaml"
			data, err := fs.ReadFile(Builtin, path)
			if err != nil {
				t.Fatal(err)
			}
			p, warnings, err := profile.DecodeProfile(data, path)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if len(warnings) != 0 {
				t.Errorf("warnings: %v", warnings)
			}
			if err := p.Validate(); err != nil {
				t.Errorf("validate: %v", err)
			}
			if p.Name != name || !p.IsBuiltin() {
				t.Errorf("name = %q, want %q", p.Name, name)
			}
			if p.Description == "" {
				t.Error("no description")
			}
			if p.SchemaVersion != "1.0" {
				t.Errorf("schema_version = %q", p.SchemaVersion)
			}
			for _, row := range seedThresholds {
				g, ok := profile.LookupGate(row.gate)
				if !ok {
					t.Fatalf("no gate %s", row.gate)
				}
				if got := g.Value(p); got != row.values[col] {
					t.Errorf("%s = %v, the table says %v", row.gate, got, row.values[col])
				}
			}
			for _, row := range seedSafetyFlags {
				if got := row.get(p.Safety); got != row.values[col] {
					t.Errorf("safety.%s = %v, the table says %v", row.flag, got, row.values[col])
				}
			}
			// The fields the table does not list are the defaults.
			rest := p.Safety
			def := profile.DefaultSafetyProfile()
			rest.RequireSandbox, rest.RequireCheckpoints, rest.AllowUnsafeTools = def.RequireSandbox, def.RequireCheckpoints, def.AllowUnsafeTools
			if !reflect.DeepEqual(rest, def) {
				t.Errorf("safety fields outside the table differ from the defaults: %+v", p.Safety)
			}
			if p.Safety.RequireHumanApproval || len(p.Safety.AllowedSkillCategories) != 0 || p.Safety.MaxCostPerPlan != nil ||
				p.Safety.MaxTotalCost != nil || p.Safety.MaxRetriesPerStep != 3 {
				t.Errorf("safety defaults: %+v", p.Safety)
			}
			if p.Guards != nil {
				t.Errorf("guards = %+v, want none", p.Guards)
			}
		})
	}
}

// TestDescriptionsNameWhatAsks: where a description says which steps still
// ask a person, it names exactly the gates the seed's table sets to 1.0
// among those the profile otherwise runs automatically. The phrases are
// typed here, one per gate at 1.0, not read from the files under test.
func TestDescriptionsNameWhatAsks(t *testing.T) {
	for name, phrases := range map[string]map[string]string{
		"auto": {
			"auto_apply":                "applying changes",
			"auto_reversion_from_apply": "reverting from the apply phase",
		},
	} {
		col := slices.Index(seedColumns, name)
		var asking []string
		for _, row := range seedThresholds {
			if row.values[col] == 1.0 {
				asking = append(asking, row.gate)
			}
		}
		var named []string
		for gate := range phrases {
			named = append(named, gate)
		}
		slices.Sort(asking)
		slices.Sort(named)
		if !slices.Equal(asking, named) {
			t.Errorf("%s: the table sets %v to 1.0; the test names %v", name, asking, named)
		}
		p := Decoded(name)
		for gate, phrase := range phrases {
			if !strings.Contains(p.Description, phrase) {
				t.Errorf("%s asks a person at %s, but its description %q does not say %q", name, gate, p.Description, phrase)
			}
		}
		if strings.Contains(strings.ToLower(p.Description), "throughout") {
			t.Errorf("%s: %q says automatic throughout, but %v ask a person", name, p.Description, asking)
		}
	}
}
