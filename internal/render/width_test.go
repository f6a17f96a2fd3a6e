package render_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/render/rendertest"
)

// builtinsLike are eight profiles shaped as the built-ins are: short names,
// descriptions of a sentence or two.
func builtinsLike() []*profile.AutomationProfile {
	out := []*profile.AutomationProfile{}
	for _, name := range profile.BuiltinNames {
		p := cautious()
		p.Name = name
		p.Description = "Strategy and execution run on their own; a person reviews before anything is applied."
		out = append(out, p)
	}
	out[len(out)-1] = fullAuto()
	return out
}

func widthPlan(drift bool) render.PlanView {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	name, src, proj := "full-auto", "local/secure-deploy", "/home/someone/projects/website/agents.yaml"
	own := profile.DefaultSafetyProfile()
	own.RequireHumanApproval = true
	own.AllowedSkillCategories = []string{"deploy", "test"}
	own.MaxCostPerPlan = ptr(100.0)
	p := &plan.Plan{
		ID: "01jnkx8w00q3m8d7v2r9c4t6yb", Action: "local/secure-deploy", CreatedAt: at,
		AutomationProfile: plan.AutomationRef{Name: "full-auto", Provenance: plan.LevelPlan, SHA256: strings.Repeat("a1", 32)},
		SafetyProfile:     plan.SafetyRef{Provenance: plan.LevelAction, Source: plan.SourceStandalone, SafetyProfile: own, SHA256: strings.Repeat("b2", 32)},
		Levels: []plan.Setting{
			{Level: plan.LevelPlan, AutomationProfile: &name},
			{Level: plan.LevelAction, SafetyProfile: &own, Source: &src},
			{Level: plan.LevelProject, Source: &proj},
			{Level: plan.LevelGlobal},
		},
		ResolvedAt: at, ProjectDir: "/home/someone/projects/website",
	}
	v := render.PlanView{Plan: p}
	if drift {
		why := "the stored profile acme/strict changed since the plan was resolved"
		v.Drift = &plan.Drift{
			AutomationProfile: &plan.AutomationChange{
				Recorded: p.AutomationProfile,
				Now:      plan.AutomationRef{Name: "acme/strict", Provenance: plan.LevelProject, SHA256: strings.Repeat("c3", 32)},
				Reason:   why,
			},
			Levels: []string{plan.LevelProject},
		}
	}
	return v
}

func widthViews() []struct {
	name string
	view render.View
} {
	guardedProfile := guarded()
	dec := func(p *profile.AutomationProfile, in profile.GuardInput, level, planID string) render.GuardDecisionView {
		return render.GuardDecisionView{Result: profile.CheckGuard(p, p.Safety, in), Profile: p.Name, Level: level, Plan: planID,
			SafetyLevel: plan.LevelAction, SafetySource: plan.SourceStandalone}
	}
	gate, _ := profile.LookupGate("auto_execute")
	longAction := &action.Action{
		Name: "acme/release-website", Description: "Build the website, run every check and publish it to the production bucket behind the CDN once a person has looked.",
		DefinitionOfDone: "The new version answers on the production domain and the smoke tests pass",
		StrategyActor:    "acme/planner", ExecutionActor: "acme/release-bot",
		AutomationProfile: ptr("acme/guarded"), SafetyProfile: &guardedProfile.Safety,
	}
	plain := &action.Action{Name: "local/secure-deploy", Description: "Deploy with safety constraints", DefinitionOfDone: "Deployment verified",
		StrategyActor: "local/default", ExecutionActor: "local/default"}
	p1, p2 := widthPlan(false), widthPlan(true)
	return []struct {
		name string
		view render.View
	}{
		{"show-cautious", render.ProfileView{Profile: cautious()}},
		{"show-guarded", render.ProfileView{Profile: guardedProfile}},
		{"list", render.ProfileListView{Profiles: append(builtinsLike(), guardedProfile)}},
		{"list-empty", render.ProfileListView{}},
		{"action-show", render.ActionView{Action: longAction}},
		{"action-list", render.ActionListView{Actions: []*action.Action{longAction, plain}}},
		{"safety-profile-show", render.SafetyProfileView{File: "examples/safety-profiles/deploy.yaml", Safety: guardedProfile.Safety}},
		{"plan-show", p1},
		{"plan-show-drift", p2},
		{"plan-list", render.PlanListView{Plans: []render.PlanView{p1, p2, p1}}},
		{"resolve", render.ResolutionView{Action: "local/secure-deploy", Result: p1.Plan}},
		{"check-guard-denied", dec(guardedProfile, profile.GuardInput{Tool: "shell_exec"}, "", "")},
		{"check-guard-plan", dec(guardedProfile, profile.GuardInput{Tool: "deploy_to_production_bucket", Write: true, Category: "deploy"}, plan.LevelPlan, p1.Plan.ID)},
		{"check-guard-allowed", dec(cautious(), profile.GuardInput{Tool: "edit", Write: true}, "", "")},
		{"check-gate", render.GateDecisionView{Decision: decideGate(guardedProfile, gate, 0.65), Profile: guardedProfile.Name, Level: plan.LevelProject, Plan: p1.Plan.ID,
			SafetyLevel: plan.LevelAction, SafetySource: "standalone"}},
		{"line", render.Line{Text: "✔ added acme/release-website-with-a-rather-long-name-for-the-team", Doc: map[string]string{}}},
		{"change-plan", render.PlanChange("created", p1.Plan, nil)},
		{"change-unchanged", render.Change{Verb: render.Unchanged, Subject: "acme/release-website", Detail: "the stored profile is the same, so nothing was written", Doc: guardedProfile}},
		{"lines", render.Lines{Items: []string{"/home/someone/projects/website", "/home/someone/projects/a-project-with-a-rather-long-folder-name/and/deeper/still"}}},
		{"kv", render.KV{Title: "status", Pairs: []render.Pair{{Key: "store", Value: "/home/someone/.config/agents"}, {Key: "note", Value: strings.Repeat("a long value with words ", 8)}}}},
		{"tables-wide", render.TablesView{Doc: map[string]int{}, List: []render.Table{{
			Title:  "a table of names that cannot shrink, split at narrow widths",
			Header: []string{"FIELD", "acme/first-profile", "acme/second-profile", "acme/third-profile", "acme/fourth-profile"},
			Rows:   [][]string{{"auto_apply", "1.0", "0.5", "0.0", "1.0"}, {"auto_execute", "0.7", "0.9", "0.2", "0.0"}},
			Fits:   []render.Fit{render.FitKeep, render.FitKeep, render.FitKeep, render.FitKeep, render.FitKeep},
			Repeat: 1,
		}}}},
		{"tables-stacked", render.TablesView{Doc: map[string]int{}, List: []render.Table{{
			Title:  "a table of ids that cannot shrink, stacked at narrow widths",
			Header: []string{"ID", "ACTION", "OTHER ACTION", "AUTOMATION PROFILE"},
			Rows:   [][]string{{"01jnkx8w00q3m8d7v2r9c4t6yb", "acme/release-website", "acme/release-website-again", "acme/guarded (plan)"}},
			Fits:   []render.Fit{render.FitKeep, render.FitKeep, render.FitKeep, render.FitWrap},
		}}}},
	}
}

// TestViewsFitEveryWidth draws every view of this package at each common
// terminal width: no line may be wider than the terminal, and the drawings
// are the golden files under testdata/widths.
func TestViewsFitEveryWidth(t *testing.T) {
	for _, v := range widthViews() {
		t.Run(v.name, func(t *testing.T) {
			rendertest.Check(t, filepath.Join("testdata", "widths"), v.name, v.view, *update)
		})
	}
}

// TestNamesAndIDsAreNeverCut checks the rule behind the layout: at every
// width, whatever else gives way, each name and id of a list appears whole.
func TestNamesAndIDsAreNeverCut(t *testing.T) {
	p := widthPlan(false).Plan
	long := guarded()
	long.Name = "acme-platform-team/guarded-releases-for-production"
	longCautious := cautious()
	longCautious.Name = "acme-platform-team/releases-for-production-site"
	composedName := "acme/strict-production-release"
	composedPlan := widthPlan(false)
	composedPlan.Plan.AutomationProfile.Name = composedName
	composedPlan.Plan.Levels[0].AutomationProfile = &composedName
	composedPlan.Plan.SafetyProfile = plan.SafetyRef{Provenance: plan.LevelPlan, Source: plan.SourceComposed, FromProfile: &composedName,
		SafetyProfile: profile.DefaultSafetyProfile(), SHA256: strings.Repeat("b2", 32)}
	composedPlan.Plan.Levels[1].SafetyProfile = nil
	views := []struct {
		view  render.View
		whole []string
	}{
		{render.PlanListView{Plans: []render.PlanView{{Plan: p}}}, []string{p.ID, p.Action}},
		{render.ProfileListView{Profiles: []*profile.AutomationProfile{cautious(), long}}, []string{"cautious", long.Name}},
		// Too wide to draw as one table even in parts: stacked, one block
		// per field, and the category, shown in the wider views, left
		// out where the blocks would not fit with it.
		{render.NewDiffView([]*profile.AutomationProfile{cautious(), longCautious}, false, false), []string{"cautious", longCautious.Name}},
		// A custom name in the trace twice, as the plan level's profile
		// and as the profile its safety is composed from.
		{composedPlan, []string{composedPlan.Plan.ID, composedName}},
		{render.ResolutionView{Action: "local/secure-deploy", Result: composedPlan.Plan}, []string{composedName}},
	}
	for _, v := range views {
		for _, format := range rendertest.Formats {
			for _, width := range rendertest.Widths {
				out := rendertest.Render(t, format, width, false, v.view)
				for _, s := range v.whole {
					if !strings.Contains(out, s) {
						t.Errorf("-f %s at %d columns: %q is not shown whole:\n%s", format, width, s, out)
					}
				}
				if bad := rendertest.TooWide(out, width); len(bad) > 0 {
					t.Errorf("-f %s at %d columns: %v", format, width, bad)
				}
			}
		}
	}
}

// TestEveryWidthFromSixtyUp draws the list views and the tables at each
// width from 60 to 130 columns and every fifth up to 200, not only the
// common ones: a table must not overflow at the odd widths between them
// either (list once clipped at 94 to 98, plan list at 118 to 121). The
// other views are drawn at every seventh width.
func TestEveryWidthFromSixtyUp(t *testing.T) {
	tables := map[string]bool{"list": true, "action-list": true, "plan-list": true, "tables-wide": true, "tables-stacked": true}
	for _, v := range widthViews() {
		for _, format := range rendertest.Formats {
			for width := 60; width <= 200; width++ {
				if width%7 != 0 && (!tables[v.name] || width > 130 && width%5 != 0) {
					continue
				}
				out := rendertest.Render(t, format, width, false, v.view)
				if bad := rendertest.TooWide(out, width); len(bad) > 0 {
					t.Errorf("%s -f %s at %d columns: %s", v.name, format, width, bad[0])
				}
			}
		}
	}
}

// decideGate decides a gate under the profile's own composed safety.
func decideGate(p *profile.AutomationProfile, g profile.Gate, c float64) profile.GateDecision {
	return profile.DecideGateUnder(p, p.Safety, g, c)
}
