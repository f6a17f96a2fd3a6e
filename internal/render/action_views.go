package render

import (
	"strconv"
	"strings"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/profile"
)

// ActionView renders one action.
type ActionView struct {
	Action *action.Action
}

// Data implements View: the canonical action document, which 'action add
// --config' accepts as it is.
func (v ActionView) Data() any { return v.Action }

// Plain implements View: one "key: value" line per field, the safety
// profile's fields as safety_profile.x, absent values as null.
func (v ActionView) Plain(w *Writer) { actionPlain(w, v.Action) }

// Tables implements View.
func (v ActionView) Tables() []Table { return actionTables(v.Action) }

// Rich implements RichView.
func (v ActionView) Rich(t *Theme) string { return actionRich(t, v.Action) }

func orNull(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

func actionPlain(w *Writer, a *action.Action) {
	w.Field("name", a.Name)
	w.Field("description", a.Description)
	w.Field("definition_of_done", a.DefinitionOfDone)
	w.Field("strategy_actor", a.StrategyActor)
	w.Field("execution_actor", a.ExecutionActor)
	w.Field("automation_profile", orNull(a.AutomationProfile))
	safetyPlain(w, "safety_profile", a.SafetyProfile)
}

// safetyPlain writes a safety profile's fields under prefix, or
// "prefix: null" for none.
func safetyPlain(w *Writer, prefix string, s *profile.SafetyProfile) {
	if s == nil {
		w.Field(prefix, "null")
		return
	}
	for _, f := range safetyFields(*s) {
		w.Field(prefix+"."+f[0], f[1])
	}
}

// safetyFields returns the eight fields of a safety profile as text, in
// canonical order.
func safetyFields(s profile.SafetyProfile) [][2]string {
	return [][2]string{
		{"require_sandbox", strconv.FormatBool(s.RequireSandbox)},
		{"require_checkpoints", strconv.FormatBool(s.RequireCheckpoints)},
		{"allow_unsafe_tools", strconv.FormatBool(s.AllowUnsafeTools)},
		{"require_human_approval", strconv.FormatBool(s.RequireHumanApproval)},
		{"allowed_skill_categories", JoinList(s.AllowedSkillCategories)},
		{"max_cost_per_plan", optFloat(s.MaxCostPerPlan)},
		{"max_total_cost", optFloat(s.MaxTotalCost)},
		{"max_retries_per_step", strconv.Itoa(s.MaxRetriesPerStep)},
	}
}

func actionTables(a *action.Action) []Table {
	id := Table{Title: "action", Header: []string{"FIELD", "VALUE"}, Rows: [][]string{
		{"name", a.Name},
		{"description", a.Description},
		{"definition_of_done", a.DefinitionOfDone},
		{"strategy_actor", a.StrategyActor},
		{"execution_actor", a.ExecutionActor},
		{"automation_profile", orNull(a.AutomationProfile)},
	}}
	if a.SafetyProfile == nil {
		return []Table{id, {Title: "safety profile: none"}}
	}
	return []Table{id, settingsTable("safety profile (standalone)", "SETTING", safetySettings(*a.SafetyProfile))}
}

func actionRich(t *Theme, a *action.Action) string {
	var b strings.Builder
	b.WriteString(t.Para(2, t.Title(a.Name)+" "+t.Badge(ToneAccent, "action")))
	if a.Description != "" {
		b.WriteString(t.Wrap(2, richTextWidth(t)-2, ToneNormal, a.Description))
	}
	auto := t.Muted("not set: the project or global level decides")
	if a.AutomationProfile != nil {
		auto = t.Accent(*a.AutomationProfile)
	}
	b.WriteString("\n" + t.Grid(2, [][]string{
		{t.Muted("done when"), Escape(a.DefinitionOfDone)},
		{t.Muted("strategy by"), Escape(a.StrategyActor)},
		{t.Muted("executed by"), Escape(a.ExecutionActor)},
		{t.Muted("automation profile"), auto},
	}))
	b.WriteString("\n")
	if a.SafetyProfile == nil {
		b.WriteString(t.Para(2, t.Heading("Safety profile")+"  "+t.Muted("none: the resolved automation profile's own safety applies")))
		return b.String()
	}
	b.WriteString(t.Para(2, t.Heading("Safety profile")+"  "+t.Muted("standalone: beats the safety of any automation profile")))
	b.WriteString(t.Grid(2, settingRows(t, safetySettings(*a.SafetyProfile))))
	return b.String()
}

// ActionListView renders a list of actions.
type ActionListView struct {
	Actions []*action.Action
}

// Data implements View: an array of canonical action documents, [] when
// empty.
func (v ActionListView) Data() any {
	return nonNil(v.Actions)
}

// Plain implements View: one name per line.
func (v ActionListView) Plain(w *Writer) {
	plainLines(w, v.Actions, func(a *action.Action) string { return a.Name })
}

func (v ActionListView) table() Table {
	t := Table{
		Header: []string{"NAME", "AUTOMATION PROFILE", "SAFETY PROFILE", "DESCRIPTION"},
		Fits:   []Fit{FitKeep, FitKeep, FitKeep, FitShrink},
	}
	for _, a := range v.Actions {
		auto := "-"
		if a.AutomationProfile != nil {
			auto = *a.AutomationProfile
		}
		t.Rows = append(t.Rows, []string{a.Name, auto, pick(a.SafetyProfile != nil, "standalone", "-"), a.Description})
	}
	return t
}

// Tables implements View.
func (v ActionListView) Tables() []Table { return []Table{v.table()} }

// Rich implements RichView.
func (v ActionListView) Rich(t *Theme) string {
	if len(v.Actions) == 0 {
		return t.Muted("no actions") + "\n"
	}
	tb := v.table()
	tb.Title = "Actions"
	// A rich header takes one line.
	tb.Header = []string{"NAME", "AUTOMATION", "SAFETY", "DESCRIPTION"}
	return t.Table(tb, func(row, col int) Tone {
		switch col {
		case 0:
			return ToneAccent
		case 1, 2:
			if tb.Rows[row][col] == "-" {
				return ToneMuted
			}
		case 3:
			return ToneMuted
		}
		return ToneNormal
	})
}

// SafetyProfileView renders a standalone safety profile read from a file.
type SafetyProfileView struct {
	// File is where it was read, for the human formats.
	File   string
	Safety profile.SafetyProfile
}

// Data implements View: the eight fields, a document that can be read back
// as a standalone safety profile.
func (v SafetyProfileView) Data() any { return v.Safety }

// Plain implements View: one "key: value" line per field.
func (v SafetyProfileView) Plain(w *Writer) {
	for _, f := range safetyFields(v.Safety) {
		w.Field(f[0], f[1])
	}
}

// Tables implements View.
func (v SafetyProfileView) Tables() []Table {
	return []Table{settingsTable("safety profile "+v.File, "SETTING", safetySettings(v.Safety))}
}

// Rich implements RichView.
func (v SafetyProfileView) Rich(t *Theme) string {
	return t.Para(2, t.Title(v.File)+" "+t.Badge(ToneAccent, "safety profile")) +
		t.Grid(2, settingRows(t, safetySettings(v.Safety)))
}
