package profile

import (
	"fmt"
	"strings"
	"testing"
)

func costPtr(v float64) *float64 { return &v }

func TestLooserThan(t *testing.T) {
	strict := DefaultSafetyProfile()
	strict.RequireHumanApproval = true
	strict.AllowedSkillCategories = []string{"deploy", "test"}
	strict.MaxCostPerPlan = costPtr(100)
	strict.MaxTotalCost = costPtr(500)

	for _, tc := range []struct {
		name string
		edit func(s *SafetyProfile)
		want string // field:replaced>now, joined by spaces
	}{
		{"same", func(*SafetyProfile) {}, ""},
		{"sandbox dropped", func(s *SafetyProfile) { s.RequireSandbox = false }, "require_sandbox:true>false"},
		{"checkpoints dropped", func(s *SafetyProfile) { s.RequireCheckpoints = false }, "require_checkpoints:true>false"},
		{"unsafe allowed", func(s *SafetyProfile) { s.AllowUnsafeTools = true }, "allow_unsafe_tools:false>true"},
		{"approval dropped", func(s *SafetyProfile) { s.RequireHumanApproval = false }, "require_human_approval:true>false"},
		{"categories to any", func(s *SafetyProfile) { s.AllowedSkillCategories = []string{} }, `allowed_skill_categories:["deploy","test"]>[]`},
		{"categories superset", func(s *SafetyProfile) { s.AllowedSkillCategories = []string{"deploy", "test", "shell"} }, `allowed_skill_categories:["deploy","test"]>["deploy","test","shell"]`},
		{"categories other", func(s *SafetyProfile) { s.AllowedSkillCategories = []string{"shell"} }, `allowed_skill_categories:["deploy","test"]>["shell"]`},
		{"categories narrowed", func(s *SafetyProfile) { s.AllowedSkillCategories = []string{"deploy"} }, ""},
		{"plan cost removed", func(s *SafetyProfile) { s.MaxCostPerPlan = nil }, "max_cost_per_plan:100>null"},
		{"plan cost raised", func(s *SafetyProfile) { s.MaxCostPerPlan = costPtr(100.5) }, "max_cost_per_plan:100>100.5"},
		{"plan cost lowered", func(s *SafetyProfile) { s.MaxCostPerPlan = costPtr(10) }, ""},
		{"total cost removed", func(s *SafetyProfile) { s.MaxTotalCost = nil }, "max_total_cost:500>null"},
		{"retries raised", func(s *SafetyProfile) { s.MaxRetriesPerStep = 4 }, "max_retries_per_step:3>4"},
		{"retries lowered", func(s *SafetyProfile) { s.MaxRetriesPerStep = 0 }, ""},
		{"stricter everywhere", func(s *SafetyProfile) {
			s.MaxRetriesPerStep, s.MaxTotalCost, s.AllowedSkillCategories = 1, costPtr(1), []string{"test"}
		}, ""},
		{"several, in field order", func(s *SafetyProfile) {
			*s = DefaultSafetyProfile()
			s.RequireSandbox = false
		}, `require_sandbox:true>false require_human_approval:true>false allowed_skill_categories:["deploy","test"]>[] max_cost_per_plan:100>null max_total_cost:500>null`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := strict.Clone()
			tc.edit(&s)
			var got []string
			for _, l := range s.LooserThan(strict) {
				got = append(got, fmt.Sprintf("%s:%s>%s", l.Field, l.Replaced, l.Now))
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("LooserThan = %q\nwant          %q", g, tc.want)
			}
		})
	}
}

// TestLooserThanNoLimits: a base without categories or cost limits cannot
// be widened or raised.
func TestLooserThanNoLimits(t *testing.T) {
	base := DefaultSafetyProfile()
	s := base.Clone()
	s.AllowedSkillCategories = []string{"shell"}
	s.MaxTotalCost = costPtr(1e9)
	if l := s.LooserThan(base); len(l) != 0 {
		t.Errorf("LooserThan = %+v", l)
	}
}
