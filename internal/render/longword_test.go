package render_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/render/rendertest"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Free text without a space to wrap at: a description, a tool name, a
// skill category, a run of wide characters, a path with a folder name
// longer than the terminal.
var (
	longDesc = strings.Repeat("a", 150)
	longTool = strings.Repeat("t", 100)
	longCat  = strings.Repeat("c", 90)
	longCJK  = strings.Repeat("漢", 55)
	longDir  = "/home/someone/" + strings.Repeat("d", 100)
)

// noSpaceViews are the human views with free text a user can supply
// holding words wider than a terminal.
func noSpaceViews(t *testing.T) []struct {
	name string
	view render.View
} {
	t.Helper()
	nospace := guarded()
	nospace.Name = "acme/nospace"
	nospace.Description = longDesc
	nospace.Safety.AllowedSkillCategories = []string{longCat, "deploy"}
	nospace.Guards.ToolAllowlist = []string{longTool, "read_file"}
	nospace.Guards.ToolDenylist = []string{longTool}
	cjk := cautious()
	cjk.Name = "acme/cjk"
	cjk.Description = longCJK + " " + longCJK
	ci := fullAuto()

	act := &action.Action{
		Name: "acme/long-action", Description: longDesc, DefinitionOfDone: longCJK,
		StrategyActor: "acme/planner", ExecutionActor: "acme/release-bot",
		AutomationProfile: ptr("acme/nospace"), SafetyProfile: &nospace.Safety,
	}
	p := widthPlan(true).Plan
	p.SafetyProfile.SafetyProfile = nospace.Safety
	planView := render.PlanView{Plan: p}

	shipped, err := sp.LoadShipped(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	pack := *shipped
	pack.Pack = shipped.Pack.Clone()
	pack.Pack.Description = longDesc
	id := pack.Pack.BoundaryIDs[0]
	pack.Pack.BoundaryDescriptions[id] = longCJK
	pack.Pack.BoundaryPredicates = map[string]string{id: "tool in [" + strings.Repeat(`"read_file", `, 12) + `"` + longTool + `"]`}
	verdict := sp.Verdict{PackID: pack.Pack.PackID, Upheld: false, ViolatedBoundaries: []string{id}, Warnings: []string{}, Results: []sp.Result{
		{BoundaryID: id, Upheld: false, RuntimeCheckable: true, Reason: longDesc, Evidence: []string{longTool}},
	}}

	gate, _ := profile.LookupGate("auto_execute")
	guard := render.GuardDecisionView{Result: profile.CheckGuard(nospace, nospace.Safety, profile.GuardInput{Tool: longTool, Category: longCat}),
		Profile: nospace.Name}
	return []struct {
		name string
		view render.View
	}{
		{"show", render.ProfileView{Profile: nospace}},
		{"show-cjk", render.ProfileView{Profile: cjk}},
		{"list", render.ProfileListView{Profiles: []*profile.AutomationProfile{ci, nospace, cjk}}},
		{"diff", render.NewDiffView([]*profile.AutomationProfile{nospace, ci}, false, false)},
		{"diff-cjk", render.NewDiffView([]*profile.AutomationProfile{cjk, nospace}, false, false)},
		{"action-show", render.ActionView{Action: act}},
		{"action-list", render.ActionListView{Actions: []*action.Action{act}}},
		{"safety-profile-show", render.SafetyProfileView{File: "deploy.yaml", Safety: nospace.Safety}},
		{"plan-show", planView},
		{"plan-list", render.PlanListView{Plans: []render.PlanView{planView}}},
		{"resolve", render.ResolutionView{Action: act.Name, Result: p}},
		{"safety-pack-show", render.PackView{Loaded: &pack}},
		{"safety-pack-check", render.VerdictView{Verdict: verdict}},
		{"project-list", render.ProjectListView{Projects: []render.TrustedProject{{Project: longDir, Pinned: true}}}},
		{"check-guard", guard},
		{"check-gate", render.GateDecisionView{Decision: decideGate(nospace, gate, 0.5), Profile: nospace.Name, Level: plan.LevelAction}},
	}
}

// TestLongWordsFitTheTerminal draws views whose free text has words wider
// than the terminal: each such word is broken across lines, so no line is
// wider than the terminal, with or without colour, and colour does not
// change where lines break.
func TestLongWordsFitTheTerminal(t *testing.T) {
	for _, v := range noSpaceViews(t) {
		for _, format := range rendertest.Formats {
			for _, width := range []int{80, 60} {
				t.Run(fmt.Sprintf("%s/%s/%d", v.name, format, width), func(t *testing.T) {
					out := rendertest.Render(t, format, width, false, v.view)
					for i, line := range strings.Split(out, "\n") {
						if w := lipgloss.Width(line); w > width {
							t.Errorf("line %d is %d columns wide: %q", i+1, w, line)
						}
					}
					if format == "rich" {
						colored := rendertest.Render(t, format, width, true, v.view)
						if ansi.Strip(colored) != out {
							t.Errorf("colour changes the layout:\n%s\n--- without colour ---\n%s", ansi.Strip(colored), out)
						}
					}
				})
			}
		}
	}
}

// TestLongWordsBrokenWhole checks how a long word is broken: every
// character of it is shown, in order, a wide character is never split and
// a Go escape written in place of a control character stays whole.
func TestLongWordsBrokenWhole(t *testing.T) {
	p := cautious()
	p.Name = "acme/broken"
	p.Description = "x" + strings.Repeat("漢字\x1b", 30)
	for _, width := range []int{60, 61, 80} {
		out := rendertest.Render(t, "rich", width, true, render.ProfileView{Profile: p})
		lines := strings.Split(ansi.Strip(out), "\n")
		var desc strings.Builder
		for _, l := range lines[1:] {
			if !strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "  schema") {
				break
			}
			if strings.HasSuffix(l, `\`) || strings.HasSuffix(l, `\x`) || strings.HasSuffix(l, `\x1`) {
				t.Errorf("at %d columns, a line ends inside an escape: %q", width, l)
			}
			if lipgloss.Width(l) > width {
				t.Errorf("at %d columns, a line is %d wide: %q", width, lipgloss.Width(l), l)
			}
			desc.WriteString(strings.TrimPrefix(l, "  "))
		}
		if want := render.Escape(p.Description); desc.String() != want {
			t.Errorf("at %d columns, the description reads\n%q\nnot\n%q", width, desc.String(), want)
		}
	}
}

// TestLongNamesStayWhole checks that breaking long words leaves a name
// whole: it may stand past the edge, but it is never broken.
func TestLongNamesStayWhole(t *testing.T) {
	p := cautious()
	p.Name = strings.Repeat("n", 63) + "/" + strings.Repeat("m", 63)
	p.Description = longDesc
	for _, format := range rendertest.Formats {
		out := rendertest.Render(t, format, 80, false, render.ProfileView{Profile: p})
		if !strings.Contains(out, p.Name) {
			t.Errorf("-f %s: %q is not shown whole:\n%s", format, p.Name, out)
		}
	}
}

// TestNoSpaceTextUnfittedWhenPiped checks that without a terminal width
// nothing is fitted: a long word is left whole.
func TestNoSpaceTextUnfittedWhenPiped(t *testing.T) {
	p := cautious()
	p.Description = longDesc
	for _, format := range rendertest.Formats {
		out := rendertest.Render(t, format, 0, false, render.ProfileView{Profile: p})
		if !strings.Contains(out, longDesc) {
			t.Errorf("-f %s without a width: the description is not whole:\n%s", format, out)
		}
	}
}

// TestWordsThatFitTheTerminalStayWhole checks that a long word is broken
// only where the terminal is too narrow for it: prose is kept to at most
// 100 columns, but on a wider terminal a longer word (a URL, say) stands
// whole on a line of its own, so that it can still be copied.
func TestWordsThatFitTheTerminalStayWhole(t *testing.T) {
	url := "https://example.com/" + strings.Repeat("u", 110)
	p := cautious()
	p.Name = "acme/url"
	p.Description = "See " + url + " for why."
	out := ansi.Strip(rendertest.Render(t, "rich", 200, false, render.ProfileView{Profile: p}))
	if !strings.Contains(out, "\n  "+url+"\n") {
		t.Errorf("at 200 columns the %d-column URL is not whole on a line of its own:\n%s", len(url), out)
	}
	out = ansi.Strip(rendertest.Render(t, "rich", 100, false, render.ProfileView{Profile: p}))
	if strings.Contains(out, url) {
		t.Errorf("at 100 columns the %d-column URL is not broken:\n%s", len(url), out)
	}
}
