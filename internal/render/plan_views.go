package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
)

// planDoc is the canonical document of plan use, show and
// set-automation-profile: the record, then drift (true when resolving now
// would give another answer) with what differs (drift_details, null when
// nothing does), then when it was last resolved and where its project was
// looked for.
type planDoc struct {
	ID                string             `json:"id"`
	Action            string             `json:"action"`
	CreatedAt         time.Time          `json:"created_at"`
	AutomationProfile plan.AutomationRef `json:"automation_profile"`
	SafetyProfile     plan.SafetyRef     `json:"safety_profile"`
	Levels            []plan.Setting     `json:"levels"`
	Drift             bool               `json:"drift"`
	DriftDetails      *plan.Drift        `json:"drift_details"`
	ResolvedAt        time.Time          `json:"resolved_at"`
	ProjectDir        string             `json:"project_dir"`
	SafetyLoosened    *loosenedDoc       `json:"safety_loosened"`
	Record            plan.RecordCheck   `json:"record"`
}

// loosenedDoc says what a standalone safety profile drops of the safety
// composed in the automation profile it replaces (safety_loosened; null
// when it drops nothing).
type loosenedDoc struct {
	// Level is the level the standalone safety profile came from.
	Level string `json:"level"`
	// Replaces names the automation profile whose composed safety it
	// replaces.
	Replaces string `json:"replaces"`
	// Fields are the fields on which it allows more, in canonical order.
	Fields []profile.Loosening `json:"fields"`
}

func loosenedOf(p *plan.Plan, l []profile.Loosening) *loosenedDoc {
	if len(l) == 0 {
		return nil
	}
	return &loosenedDoc{Level: p.SafetyProfile.Provenance, Replaces: p.AutomationProfile.Name, Fields: l}
}

// PlanView renders a plan with its resolution trace and drift.
type PlanView struct {
	Plan *plan.Plan
	// Drift is how resolving now would differ; nil when it would not.
	Drift *plan.Drift
	// Loosened is what the plan's standalone safety profile drops of the
	// safety composed in its automation profile; nil when nothing.
	Loosened []profile.Loosening
	// Record says whether the record agrees with the snapshots it cites.
	Record plan.RecordCheck
}

// PlanChange tells what plan use or set-automation-profile did to p in one
// line, with the profiles it resolved and the levels they came from; its
// document is the plan's, as plan show prints it (with what its standalone
// safety profile loosens, when it does).
func PlanChange(verb string, p *plan.Plan, loosened []profile.Loosening) Change {
	a, s := p.AutomationProfile, p.SafetyProfile
	return Change{
		Verb:    verb,
		Subject: "plan " + p.ID,
		Detail: p.Action + " under " + a.Name + " (" + a.Provenance + " level), " +
			s.Source + " safety (" + s.Provenance + " level)",
		// The record was made just now, from the snapshots it stored.
		Doc: PlanView{Plan: p, Loosened: loosened, Record: plan.RecordCheck{Verified: true}}.Data(),
	}
}

// Data implements View.
func (v PlanView) Data() any {
	p := v.Plan
	return planDoc{
		ID: p.ID, Action: p.Action, CreatedAt: p.CreatedAt,
		AutomationProfile: p.AutomationProfile, SafetyProfile: p.SafetyProfile, SafetyLoosened: loosenedOf(p, v.Loosened),
		Levels: nonNil(p.Levels), Drift: v.Drift != nil, DriftDetails: v.Drift, Record: v.Record,
		ResolvedAt: p.ResolvedAt, ProjectDir: p.ProjectDir,
	}
}

// nonNil returns s, or an empty slice for nil, so that it is [] in JSON.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// plainLines writes one line for each item: its name.
func plainLines[T any](w *Writer, items []T, name func(T) string) {
	for _, it := range items {
		w.Line(name(it))
	}
}

// FormatTime formats a recorded time for the human formats exactly as JSON
// and YAML give it (RFC 3339, trailing zeros of the fraction dropped), so
// that a time copied from one format matches the same time in another.
func FormatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// Plain implements View: "key: value" lines, nested fields as a.b, the
// levels as levels.<level>.x.
func (v PlanView) Plain(w *Writer) {
	p := v.Plan
	w.Field("id", p.ID)
	w.Field("action", p.Action)
	w.Field("created_at", FormatTime(p.CreatedAt))
	resolutionPlain(w, p, v.Loosened)
	driftPlain(w, v.Drift)
	w.Field("record.verified", fmt.Sprint(v.Record.Verified))
	if v.Record.Problem != nil {
		w.Field("record.problem", *v.Record.Problem)
	}
	w.Field("resolved_at", FormatTime(p.ResolvedAt))
	w.Field("project_dir", p.ProjectDir)
}

func resolutionPlain(w *Writer, p *plan.Plan, loosened []profile.Loosening) {
	a, s := p.AutomationProfile, p.SafetyProfile
	w.Field("automation_profile.name", a.Name)
	w.Field("automation_profile.provenance", a.Provenance)
	w.Field("automation_profile.sha256", a.SHA256)
	w.Field("safety_profile.provenance", s.Provenance)
	w.Field("safety_profile.source", s.Source)
	w.Field("safety_profile.from_profile", orNull(s.FromProfile))
	for _, f := range safetyFields(s.SafetyProfile) {
		w.Field("safety_profile."+f[0], f[1])
	}
	w.Field("safety_profile.sha256", s.SHA256)
	if d := loosenedOf(p, loosened); d != nil {
		w.Field("safety_loosened", plan.LoosenedSummary(p, loosened))
		for _, f := range d.Fields {
			w.Field("safety_loosened."+f.Field, f.Replaced+" → "+f.Now)
		}
	} else {
		w.Field("safety_loosened", "null")
	}
	for _, l := range p.Levels {
		prefix := "levels." + l.Level + "."
		w.Field(prefix+"automation_profile", orNull(l.AutomationProfile))
		safetyPlain(w, prefix+"safety_profile", l.SafetyProfile)
		w.Field(prefix+"source", orNull(l.Source))
	}
}

func driftPlain(w *Writer, d *plan.Drift) {
	if d == nil {
		w.Field("drift", "false")
		w.Field("drift_details", "null")
		return
	}
	w.Field("drift", "true")
	if d.Error != nil {
		w.Field("drift_details.error", *d.Error)
	}
	if c := d.AutomationProfile; c != nil {
		w.Field("drift_details.automation_profile", c.Reason)
	}
	if c := d.SafetyProfile; c != nil {
		w.Field("drift_details.safety_profile", c.Reason)
	}
	if len(d.Levels) > 0 {
		w.Field("drift_details.levels", strings.Join(d.Levels, ", "))
	}
}

// Tables implements View.
func (v PlanView) Tables() []Table {
	p := v.Plan
	head := Table{Title: "plan", Header: []string{"FIELD", "VALUE"}, Rows: [][]string{
		{"id", p.ID},
		{"action", p.Action},
		{"created_at", FormatTime(p.CreatedAt)},
		{"resolved_at", FormatTime(p.ResolvedAt)},
		{"project_dir", p.ProjectDir},
	}}
	// The human formats speak of the record only when its check failed.
	if v.Record.Problem != nil {
		head.Rows = append(head.Rows, []string{"record", "does not verify: " + *v.Record.Problem})
	}
	return append(append([]Table{head}, resolutionTables(p, v.Loosened)...), driftTable(v.Drift))
}

func resolutionTables(p *plan.Plan, loosened []profile.Loosening) []Table {
	a, s := p.AutomationProfile, p.SafetyProfile
	auto := Table{Title: "automation profile", Header: []string{"FIELD", "VALUE"}, Rows: [][]string{
		{"name", a.Name}, {"provenance", a.Provenance}, {"sha256", a.SHA256},
	}}
	safety := settingsTable("safety profile", "SETTING", safetySettings(s.SafetyProfile))
	safety.Rows = append([][]string{
		{"provenance", s.Provenance, "the level it came from"},
		{"source", s.Source, safetySourceMeaning(s)},
		{"from_profile", orNull(s.FromProfile), ""},
	}, safety.Rows...)
	safety.Rows = append(safety.Rows, []string{"sha256", s.SHA256, "digest of the snapshot"})
	tables := []Table{auto, safety}
	if d := loosenedOf(p, loosened); d != nil {
		lt := Table{Title: "safety loosened: " + plan.LoosenedSummary(p, loosened), Header: []string{"FIELD", "COMPOSED IN " + d.Replaces, "STANDALONE (" + d.Level + ")"}}
		for _, f := range d.Fields {
			lt.Rows = append(lt.Rows, []string{f.Field, f.Replaced, f.Now})
		}
		tables = append(tables, lt)
	}
	return append(tables, traceTable(p))
}

func safetySourceMeaning(s plan.SafetyRef) string {
	if s.Source == plan.SourceComposed {
		return "the safety composed in the automation profile"
	}
	return "a level's own safety_profile"
}

// winText marks the level that decided, in the plain and table formats.
const winText = " (wins)"

// traceRow is one row of a resolution trace: what a level set, whether it
// decided, and where it was read.
type traceRow struct {
	level                string
	automation, safety   string
	autoWins, safetyWins bool
	autoUnset, safeUnset bool
	source               string
}

func traceRows(p *plan.Plan) []traceRow {
	var rows []traceRow
	a, s := p.AutomationProfile, p.SafetyProfile
	for _, l := range p.Levels {
		r := traceRow{level: l.Level, automation: "-", safety: "-", autoUnset: true, safeUnset: true}
		if l.AutomationProfile != nil {
			r.automation, r.autoUnset = *l.AutomationProfile, false
		}
		if l.SafetyProfile != nil {
			r.safety, r.safeUnset = "standalone", false
		}
		r.autoWins = a.Provenance == l.Level
		if s.Provenance == l.Level {
			r.safetyWins = true
			if s.Source == plan.SourceComposed {
				from := a.Name
				if s.FromProfile != nil {
					from = *s.FromProfile
				}
				r.safety, r.safeUnset = "composed from "+from, false
			}
		}
		r.source = sourceText(l)
		rows = append(rows, r)
	}
	sys := traceRow{level: plan.LevelSystem, automation: profile.SystemDefault, safety: "-", safeUnset: true,
		autoWins: a.Provenance == plan.LevelSystem, source: "the built-in default"}
	return append(rows, sys)
}

func sourceText(l plan.Setting) string {
	if l.Source != nil {
		if l.Level == plan.LevelAction {
			return "action " + *l.Source
		}
		return *l.Source
	}
	switch l.Level {
	case plan.LevelPlan:
		return "this plan"
	case plan.LevelAction:
		return "no action"
	case plan.LevelProject:
		return "no agents.yaml found"
	case plan.LevelGlobal:
		return "not set in config.yaml"
	}
	return "-"
}

func traceTable(p *plan.Plan) Table {
	t := Table{Title: "resolution trace (most specific first)", Header: []string{"LEVEL", "AUTOMATION PROFILE", "SAFETY PROFILE", "SOURCE"}}
	for _, r := range traceRows(p) {
		auto, safety := r.automation, r.safety
		if r.autoWins {
			auto += winText
		}
		if r.safetyWins {
			safety += winText
		}
		t.Rows = append(t.Rows, []string{r.level, auto, safety, r.source})
	}
	return t
}

func driftTable(d *plan.Drift) Table {
	if d == nil {
		return Table{Title: "drift: none (resolving now gives the same answer)"}
	}
	title := "drift: resolving now would answer otherwise"
	if d.Error != nil {
		title = "drift: resolving now fails"
	}
	t := Table{Title: title, Header: []string{"PART", "RECORDED", "NOW", "WHY"}}
	if d.Error != nil {
		t.Rows = append(t.Rows, []string{"resolution", "-", "fails", *d.Error})
	}
	if c := d.AutomationProfile; c != nil {
		t.Rows = append(t.Rows, []string{"automation profile", refText(c.Recorded), refText(c.Now), c.Reason})
	}
	if c := d.SafetyProfile; c != nil {
		t.Rows = append(t.Rows, []string{"safety profile", originText(c.Recorded), originText(c.Now), c.Reason})
	}
	if len(d.Levels) > 0 {
		t.Rows = append(t.Rows, []string{"levels changed", "-", strings.Join(d.Levels, ", "), "their settings differ from the record"})
	}
	return t
}

func refText(r plan.AutomationRef) string {
	return r.Name + " (" + r.Provenance + ", " + shortDigest(r.SHA256) + ")"
}

func originText(o plan.SafetyOrigin) string {
	s := o.Source + " (" + o.Provenance
	if o.FromProfile != nil {
		s += ", from " + *o.FromProfile
	}
	return s + ", " + shortDigest(o.SHA256) + ")"
}

func shortDigest(d string) string {
	if len(d) > 12 {
		return d[:12]
	}
	return d
}

// Rich implements RichView: the two resolved profiles and where each came
// from, the safety settings in force, the trace with the deciding levels
// marked, and the drift.
func (v PlanView) Rich(t *Theme) string {
	p := v.Plan
	var b strings.Builder
	b.WriteString(t.Para(2, t.Title("plan "+p.ID)+" "+t.Badge(ToneAccent, p.Action)))
	b.WriteString(t.Grid(2, [][]string{
		{t.Muted("created"), Escape(FormatTime(p.CreatedAt))},
		{t.Muted("resolved"), Escape(FormatTime(p.ResolvedAt))},
	}))
	b.WriteString(resolutionRich(t, p, v.Loosened))
	b.WriteString("\n" + driftRich(t, v.Drift))
	if v.Record.Problem != nil {
		b.WriteString("\n" + t.Heading("Record") + "  " + t.Warn("does not verify") + t.Muted(": no decision is taken under it") + "\n")
		b.WriteString("  " + Escape(*v.Record.Problem) + "\n")
	}
	return b.String()
}

func resolutionRich(t *Theme, p *plan.Plan, loosened []profile.Loosening) string {
	var b strings.Builder
	a, s := p.AutomationProfile, p.SafetyProfile
	b.WriteString("\n" + t.Para(2, t.Heading("Automation profile")+"  "+t.Accent(a.Name)+t.Muted(" from the "+a.Provenance+" level")))
	b.WriteString(t.Para(2, "  "+t.Muted("sha256 "+a.SHA256)))
	what := "standalone"
	if s.Source == plan.SourceComposed && s.FromProfile != nil {
		what = "composed in " + *s.FromProfile
	}
	b.WriteString("\n" + t.Para(2, t.Heading("Safety profile")+"  "+t.Accent(what)+t.Muted(" from the "+s.Provenance+" level")))
	b.WriteString(t.Para(2, "  "+t.Muted("sha256 "+s.SHA256)))
	b.WriteString(t.Grid(2, settingRows(t, safetySettings(s.SafetyProfile))))
	if d := loosenedOf(p, loosened); d != nil {
		b.WriteString(t.Para(2, "  "+t.Warn("⚠ looser than the safety composed in "+d.Replaces+", which it replaces:")))
		var rows [][]string
		for _, f := range d.Fields {
			rows = append(rows, []string{t.Warn(f.Field), t.Muted(f.Replaced) + " → " + Escape(f.Now)})
		}
		b.WriteString(t.Grid(4, rows))
	}
	b.WriteString("\n" + t.Para(2, t.Heading("Resolution trace")+"  "+t.Muted("most specific first; ◀ marks the level that decided")))
	b.WriteString(traceRich(t, p))
	return b.String()
}

func traceRich(t *Theme, p *plan.Plan) string {
	rows := [][]string{{t.Muted("LEVEL"), t.Muted("AUTOMATION PROFILE"), t.Muted("SAFETY PROFILE"), t.Muted("SOURCE")}}
	cell := func(text string, unset, wins bool) string {
		switch {
		case wins:
			return t.Good(text + " ◀")
		case unset:
			return t.Muted(text)
		}
		return Escape(text)
	}
	for _, r := range traceRows(p) {
		level := Escape(r.level)
		if r.autoWins || r.safetyWins {
			level = t.Strong(r.level)
		}
		rows = append(rows, []string{level, cell(r.automation, r.autoUnset, r.autoWins), cell(r.safety, r.safeUnset, r.safetyWins), t.Muted(r.source)})
	}
	if t.Width <= 0 || traceLeadWidth(rows) <= t.Width {
		return t.Grid(2, rows)
	}
	// Profile names too long for the columns side by side (a custom
	// name, and the same name again in "composed from ..."): one block
	// per level, each setting on a line of its own, as a table too wide
	// to draw is stacked.
	var b strings.Builder
	for _, row := range rows[1:] {
		b.WriteString(t.Para(4, "  "+row[0]))
		b.WriteString(t.Grid(4, [][]string{
			{t.Muted("automation profile"), row[1]},
			{t.Muted("safety profile"), row[2]},
			{t.Muted("source"), row[3]},
		}))
	}
	return b.String()
}

// traceLeadWidth is the width of the widest line of the trace's grid
// before its last column, which the grid wraps or moves to a line of its
// own: the indent, the other columns and the gaps after them.
func traceLeadWidth(rows [][]string) int {
	widths := make([]int, 3)
	for _, row := range rows {
		for i := range widths {
			widths[i] = max(widths[i], lipgloss.Width(row[i]))
		}
	}
	return 2 + widths[0] + 2 + widths[1] + 2 + widths[2]
}

func driftRich(t *Theme, d *plan.Drift) string {
	if d == nil {
		return t.Para(2, t.Heading("Drift")+"  "+t.Good("none")+t.Muted(": resolving now gives the same answer"))
	}
	var b strings.Builder
	what := "resolving now would answer otherwise"
	if d.Error != nil {
		what = "resolving now fails"
	}
	b.WriteString(t.Para(2, t.Heading("Drift")+"  "+t.Warn(what)))
	var rows [][]string
	if d.Error != nil {
		rows = append(rows, []string{t.Warn("resolution"), Escape(*d.Error)})
	}
	if c := d.AutomationProfile; c != nil {
		rows = append(rows, []string{t.Warn("automation profile"), Escape(c.Reason)})
	}
	if c := d.SafetyProfile; c != nil {
		rows = append(rows, []string{t.Warn("safety profile"), Escape(c.Reason)})
	}
	if len(d.Levels) > 0 {
		rows = append(rows, []string{t.Muted("levels changed"), Escape(strings.Join(d.Levels, ", "))})
	}
	b.WriteString(t.Grid(2, rows))
	b.WriteString(t.Para(2, "  "+t.Muted("the plan keeps its recorded profiles; 'agents plan set-automation-profile' resolves it again")))
	return b.String()
}

// PlanListView renders plans in creation order, each as plan show
// renders it.
type PlanListView struct {
	Plans []PlanView
}

// Data implements View: an array of the documents plan show prints, []
// when empty.
func (v PlanListView) Data() any {
	docs := make([]any, len(v.Plans))
	for i, p := range v.Plans {
		docs[i] = p.Data()
	}
	return docs
}

// Plain implements View: one id per line.
func (v PlanListView) Plain(w *Writer) {
	plainLines(w, v.Plans, func(p PlanView) string { return p.Plan.ID })
}

func (v PlanListView) table() Table {
	t := Table{
		Header: []string{"ID", "ACTION", "AUTOMATION PROFILE", "SAFETY PROFILE", "CREATED"},
		// Ids and action names stay whole. When the terminal is narrow the
		// creation time goes first, as the order already tells which plan
		// is older, then the safety profile's source, which plan show
		// gives.
		Fits: []Fit{FitKeep, FitKeep, FitWrap, FitDrop, FitDrop},
	}
	for _, pv := range v.Plans {
		p := pv.Plan
		s := p.SafetyProfile
		t.Rows = append(t.Rows, []string{
			p.ID, p.Action,
			p.AutomationProfile.Name + " (" + p.AutomationProfile.Provenance + ")",
			s.Source + " (" + s.Provenance + ")",
			p.CreatedAt.UTC().Format("2006-01-02 15:04"),
		})
	}
	return t
}

// Tables implements View.
func (v PlanListView) Tables() []Table { return []Table{v.table()} }

// Rich implements RichView.
func (v PlanListView) Rich(t *Theme) string {
	if len(v.Plans) == 0 {
		return t.Muted("no plans") + "\n"
	}
	tb := v.table()
	tb.Title = "Plans (oldest first)"
	// A rich header takes one line: the short words, which the title
	// explains.
	tb.Header = []string{"ID", "ACTION", "AUTOMATION", "SAFETY", "CREATED"}
	return t.Table(tb, func(row, col int) Tone {
		switch col {
		case 0:
			return ToneAccent
		case 4:
			return ToneMuted
		}
		return ToneNormal
	})
}

// resolutionDoc is the canonical document of 'automation-profile resolve':
// the plan document's resolution without a plan.
type resolutionDoc struct {
	Action            *string            `json:"action"`
	ProjectDir        string             `json:"project_dir"`
	AutomationProfile plan.AutomationRef `json:"automation_profile"`
	SafetyProfile     plan.SafetyRef     `json:"safety_profile"`
	Levels            []plan.Setting     `json:"levels"`
	SafetyLoosened    *loosenedDoc       `json:"safety_loosened"`
}

// ResolutionView renders a resolution made without a plan: the answer a
// plan would record now, and why.
type ResolutionView struct {
	// Action is the action resolved for; "" when none.
	Action string
	// Result holds the resolution in a plan's fields (its id and times
	// are not shown).
	Result *plan.Plan
	// Loosened is what the standalone safety profile drops of the safety
	// composed in the automation profile; nil when nothing.
	Loosened []profile.Loosening
}

// Data implements View.
func (v ResolutionView) Data() any {
	p := v.Result
	return resolutionDoc{
		Action: optional(v.Action), ProjectDir: p.ProjectDir,
		AutomationProfile: p.AutomationProfile, SafetyProfile: p.SafetyProfile, SafetyLoosened: loosenedOf(p, v.Loosened),
		Levels: nonNil(p.Levels),
	}
}

// Plain implements View.
func (v ResolutionView) Plain(w *Writer) {
	w.Field("action", orNull(optional(v.Action)))
	w.Field("project_dir", v.Result.ProjectDir)
	resolutionPlain(w, v.Result, v.Loosened)
}

// Tables implements View.
func (v ResolutionView) Tables() []Table {
	head := Table{Title: "resolution", Header: []string{"FIELD", "VALUE"}, Rows: [][]string{
		{"action", orNull(optional(v.Action))},
		{"project_dir", v.Result.ProjectDir},
	}}
	return append([]Table{head}, resolutionTables(v.Result, v.Loosened)...)
}

// Rich implements RichView.
func (v ResolutionView) Rich(t *Theme) string {
	var b strings.Builder
	title := "resolution"
	if v.Action != "" {
		title += " for " + v.Action
	}
	b.WriteString(t.Para(2, t.Title(title)))
	b.WriteString(t.Para(4, "  "+t.Muted("project looked for from ")+Escape(v.Result.ProjectDir)))
	b.WriteString(resolutionRich(t, v.Result, v.Loosened))
	return b.String()
}
