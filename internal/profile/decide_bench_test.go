package profile_test

import (
	"testing"

	"github.com/agentsctl/agents/internal/profile"
)

var (
	benchGate  profile.GateDecision
	benchGuard profile.GuardResult
)

func BenchmarkDecideGate(b *testing.B) {
	p := &profile.AutomationProfile{Name: "cautious", AutoExecute: 0.7}
	g, _ := profile.LookupGate("auto_execute")
	b.ReportAllocs()
	for b.Loop() {
		benchGate = decideGate(p, g, 0.75)
	}
}

// BenchmarkCheckGuard decides a call that passes every safety rule and
// every guard but the last, so the whole order is walked.
func BenchmarkCheckGuard(b *testing.B) {
	p := guarded()
	p.Guards.ToolAllowlist = []string{"read", "grep", "edit"}
	s := p.Safety
	s.AllowedSkillCategories = []string{"coding"}
	s.MaxCostPerPlan, s.MaxTotalCost = ptr(100.0), ptr(1000.0)
	in := profile.GuardInput{Tool: "edit", Calls: 3, Cost: 1, Write: true, Category: "coding", Attempt: 2}
	b.ReportAllocs()
	for b.Loop() {
		benchGuard = profile.CheckGuard(p, s, in)
	}
}
