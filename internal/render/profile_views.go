package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/agentsctl/agents/internal/profile"
	"github.com/charmbracelet/lipgloss"
)

// Autonomy measures how much a profile lets the system do without asking:
// the mean of (1 − threshold) over the eleven gates. 0 means every gate
// always asks (manual), 1 means every gate is automatic (ci, full-auto); a
// gate at 0.7 counts 0.3, the share of the confidence range in which it
// proceeds on its own. It reads thresholds only: the safety flags are shown
// beside it, not folded into it, so two profiles with the same gates but a
// different sandbox rule have the same autonomy.
func Autonomy(p *profile.AutomationProfile) float64 {
	var sum float64
	for _, g := range profile.Gates {
		sum += 1 - g.Value(p)
	}
	return sum / float64(len(profile.Gates))
}

// Percent formats a value in [0, 1] as a whole percentage, such as "36%".
func Percent(v float64) string {
	return strconv.Itoa(int(math.Round(v*100))) + "%"
}

// ThresholdMeaning says in words what a gate's threshold does, following the
// gate rule: 0 proceeds without asking, 1 always asks, and anything between
// proceeds only when the confidence exceeds it.
func ThresholdMeaning(v float64) string {
	switch v {
	case 0:
		return "automatic"
	case 1:
		return "always asks"
	}
	return "automatic if confidence > " + FormatFloat(v)
}

func kind(p *profile.AutomationProfile) string {
	if p.IsBuiltin() {
		return "built-in"
	}
	return "custom"
}

func optFloat(f *float64) string {
	if f == nil {
		return "null"
	}
	return FormatFloat(*f)
}

func optInt(i *int) string {
	if i == nil {
		return "null"
	}
	return strconv.Itoa(*i)
}

// ProfileView renders one automation profile.
type ProfileView struct {
	Profile *profile.AutomationProfile
}

// Data implements View: the canonical profile document.
func (v ProfileView) Data() any { return v.Profile }

// Plain implements View: one "key: value" line per field, nested fields as
// safety.x and guards.x, absent values as null and lists comma-separated.
func (v ProfileView) Plain(w *Writer) { profilePlain(w, v.Profile) }

// Tables implements View: the profile's identity, then its thresholds,
// safety settings and guards, each with what the value means.
func (v ProfileView) Tables() []Table { return profileTables(v.Profile) }

// Rich implements RichView.
func (v ProfileView) Rich(t *Theme) string { return profileRich(t, v.Profile) }

func profilePlain(w *Writer, p *profile.AutomationProfile) {
	w.Field("name", p.Name)
	w.Field("description", p.Description)
	w.Field("schema_version", p.SchemaVersion)
	for _, g := range profile.Gates {
		w.Field(g.Name, FormatFloat(g.Value(p)))
	}
	s := p.Safety
	w.Field("safety.require_sandbox", strconv.FormatBool(s.RequireSandbox))
	w.Field("safety.require_checkpoints", strconv.FormatBool(s.RequireCheckpoints))
	w.Field("safety.allow_unsafe_tools", strconv.FormatBool(s.AllowUnsafeTools))
	w.Field("safety.require_human_approval", strconv.FormatBool(s.RequireHumanApproval))
	w.Field("safety.allowed_skill_categories", JoinList(s.AllowedSkillCategories))
	w.Field("safety.max_cost_per_plan", optFloat(s.MaxCostPerPlan))
	w.Field("safety.max_total_cost", optFloat(s.MaxTotalCost))
	w.Field("safety.max_retries_per_step", strconv.Itoa(s.MaxRetriesPerStep))
	g := p.Guards
	if g == nil {
		w.Field("guards", "null")
		return
	}
	w.Field("guards.max_tool_calls_per_step", optInt(g.MaxToolCallsPerStep))
	w.Field("guards.max_total_cost", optFloat(g.MaxTotalCost))
	w.Field("guards.tool_allowlist", JoinList(g.ToolAllowlist))
	w.Field("guards.tool_denylist", JoinList(g.ToolDenylist))
	w.Field("guards.require_approval_for_writes", strconv.FormatBool(g.RequireApprovalForWrites))
	w.Field("guards.require_approval_for_apply", strconv.FormatBool(g.RequireApprovalForApply))
}

// setting is one safety or guard field with its value and what it means.
type setting struct {
	name    string
	value   string
	meaning string
	// flag is set for boolean settings: the value, and whether it is the
	// safe one.
	flag   bool
	isFlag bool
	safe   bool
	// unset marks an absent limit or list, whose meaning replaces its value.
	unset bool
}

func boolSetting(name string, v, safe bool, meaning string) setting {
	return setting{name: name, value: strconv.FormatBool(v), meaning: meaning, flag: v, isFlag: true, safe: safe}
}

func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

func safetySettings(s profile.SafetyProfile) []setting {
	cats := setting{name: "allowed_skill_categories", value: JoinList(s.AllowedSkillCategories), safe: true}
	if len(s.AllowedSkillCategories) == 0 {
		cats.meaning, cats.unset = "all categories", true
	} else {
		cats.meaning = "only skills of these categories"
	}
	limit := func(name string, f *float64, what string) setting {
		st := setting{name: name, value: optFloat(f), safe: true}
		if f == nil {
			st.meaning, st.unset = "no limit", true
		} else {
			st.meaning = what
		}
		return st
	}
	retries := setting{name: "max_retries_per_step", value: strconv.Itoa(s.MaxRetriesPerStep), safe: true}
	retries.meaning = pick(s.MaxRetriesPerStep == 0, "no retries", "retries allowed per step")
	return []setting{
		boolSetting("require_sandbox", s.RequireSandbox, s.RequireSandbox,
			pick(s.RequireSandbox, "runs only in a sandbox", "may run outside a sandbox")),
		boolSetting("require_checkpoints", s.RequireCheckpoints, s.RequireCheckpoints,
			pick(s.RequireCheckpoints, "checkpoint before every write", "writes without a checkpoint")),
		boolSetting("allow_unsafe_tools", s.AllowUnsafeTools, !s.AllowUnsafeTools,
			pick(s.AllowUnsafeTools, "unsafe tools may run", "unsafe tools refused")),
		// Not asking for approval on every call is the normal state, not a
		// relaxation, so both values read as safe.
		boolSetting("require_human_approval", s.RequireHumanApproval, true,
			pick(s.RequireHumanApproval, "every tool call needs approval", "approval only where a gate or guard asks")),
		cats,
		limit("max_cost_per_plan", s.MaxCostPerPlan, "calls refused once a plan has cost this much"),
		limit("max_total_cost", s.MaxTotalCost, "calls refused once all plans together have cost this much"),
		retries,
	}
}

func guardSettings(g *profile.AutomationGuard) []setting {
	calls := setting{name: "max_tool_calls_per_step", value: optInt(g.MaxToolCallsPerStep), safe: true}
	if g.MaxToolCallsPerStep == nil {
		calls.meaning, calls.unset = "no limit", true
	} else {
		calls.meaning = "calls in a step before approval is needed"
	}
	cost := setting{name: "max_total_cost", value: optFloat(g.MaxTotalCost), safe: true}
	if g.MaxTotalCost == nil {
		cost.meaning, cost.unset = "no budget", true
	} else {
		cost.meaning = "cost before approval is needed"
	}
	allow := setting{name: "tool_allowlist", value: JoinList(g.ToolAllowlist), safe: true}
	switch {
	case g.ToolAllowlist == nil:
		allow.meaning, allow.unset = "no allowlist", true
	case len(g.ToolAllowlist) == 0:
		allow.meaning = "no tool runs without approval"
	default:
		allow.meaning = "only these run without approval"
	}
	deny := setting{name: "tool_denylist", value: JoinList(g.ToolDenylist), safe: true}
	if len(g.ToolDenylist) == 0 {
		deny.meaning, deny.unset = "no denylist", true
	} else {
		deny.meaning = "always need approval"
	}
	return []setting{
		calls, cost, allow, deny,
		boolSetting("require_approval_for_writes", g.RequireApprovalForWrites, true,
			pick(g.RequireApprovalForWrites, "writes need approval", "writes need no guard approval")),
		boolSetting("require_approval_for_apply", g.RequireApprovalForApply, true,
			pick(g.RequireApprovalForApply, "__apply__ needs approval", "__apply__ needs no guard approval")),
	}
}

func settingsTable(title, header string, list []setting) Table {
	t := Table{Title: title, Header: []string{header, "VALUE", "MEANING"}}
	for _, s := range list {
		t.Rows = append(t.Rows, []string{s.name, s.value, s.meaning})
	}
	return t
}

func profileTables(p *profile.AutomationProfile) []Table {
	id := Table{Title: "profile", Header: []string{"FIELD", "VALUE"}, Rows: [][]string{
		{"name", p.Name},
		{"description", p.Description},
		{"schema_version", p.SchemaVersion},
	}}
	th := Table{Title: "thresholds", Header: []string{"GATE", "CATEGORY", "VALUE", "MEANING"}}
	for _, g := range profile.Gates {
		v := g.Value(p)
		th.Rows = append(th.Rows, []string{g.Name, string(g.Category), FormatFloat(v), ThresholdMeaning(v)})
	}
	tables := []Table{id, th, settingsTable("safety", "SETTING", safetySettings(p.Safety))}
	if p.Guards == nil {
		return append(tables, Table{Title: "guards: none"})
	}
	return append(tables, settingsTable("guards", "GUARD", guardSettings(p.Guards)))
}

// categories returns the threshold categories in the order of the gates.
func categories() []profile.Category {
	var out []profile.Category
	for _, g := range profile.Gates {
		if len(out) == 0 || out[len(out)-1] != g.Category {
			out = append(out, g.Category)
		}
	}
	return out
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// richTextWidth is the width rich text is wrapped to: the terminal's when
// known, within reason, else a width every terminal has.
func richTextWidth(t *Theme) int {
	if t.Width > 0 {
		return min(max(t.Width, 40), 100)
	}
	return 80
}

func profileRich(t *Theme, p *profile.AutomationProfile) string {
	var b strings.Builder
	badge := t.Badge(ToneMuted, "built-in")
	if !p.IsBuiltin() {
		badge = t.Badge(ToneAccent, "custom")
	}
	b.WriteString(t.Para(2, t.Title(p.Name)+" "+badge))
	if p.Description != "" {
		b.WriteString(t.Wrap(2, richTextWidth(t)-2, ToneNormal, p.Description))
	}
	a := Autonomy(p)
	b.WriteString("  " + t.Muted("schema") + " " + Escape(p.SchemaVersion) +
		t.Muted("  ·  autonomy ") + t.Ladder(a) + " " + Percent(a) + "\n")

	b.WriteString("\n" + t.Heading("Thresholds") + "  " + t.Muted("a fuller bar asks more often") + "\n")
	var rows [][]string
	for _, c := range categories() {
		rows = append(rows, []string{t.Strong(capitalize(string(c)))})
		for _, g := range profile.Gates {
			if g.Category != c {
				continue
			}
			v := g.Value(p)
			rows = append(rows, []string{"  " + g.Name, t.Gauge(v), t.Muted(ThresholdMeaning(v))})
		}
	}
	b.WriteString(t.Grid(2, rows))

	b.WriteString("\n" + t.Heading("Safety") + "\n")
	b.WriteString(t.Grid(2, settingRows(t, safetySettings(p.Safety))))

	b.WriteString("\n" + t.Heading("Guards") + "\n")
	if p.Guards == nil {
		b.WriteString("  " + t.Muted("none") + "\n")
	} else {
		b.WriteString(t.Grid(2, settingRows(t, guardSettings(p.Guards))))
	}
	return b.String()
}

// settingRows lays out settings as mark, name and detail. Flags show their
// value as ✔ or ✘ rather than true or false; a flag that relaxes a
// constraint is in the warning tone and says so in words too, so the warning
// survives without colour. Other settings show their value and its meaning,
// or only the meaning when they are unset. The meanings of values line
// up, but a value wider than the terminal leaves beside the names, which
// Grid puts on lines of its own, does not push the others' aside.
func settingRows(t *Theme, list []setting) [][]string {
	names := 0
	for _, s := range list {
		names = max(names, lipgloss.Width(Escape(s.name)))
	}
	// The columns before a value when the rows are drawn with Grid(2, …):
	// the indent, the mark and the name, each followed by two spaces.
	lead := 2 + 1 + 2 + names + 2
	width := 0
	for _, s := range list {
		w := lipgloss.Width(Escape(s.value))
		if !s.isFlag && !s.unset && (t.Width <= 0 || lead+w <= t.Width) {
			width = max(width, w)
		}
	}
	rows := make([][]string, len(list))
	for i, s := range list {
		switch {
		case s.isFlag && !s.safe:
			rows[i] = []string{t.Flag(s.flag, false), t.Warn(s.name), t.Warn(s.meaning + " (relaxed)")}
		case s.isFlag:
			rows[i] = []string{t.Flag(s.flag, true), Escape(s.name), t.Muted(s.meaning)}
		case s.unset:
			rows[i] = []string{" ", Escape(s.name), t.Muted(s.meaning)}
		default:
			pad := strings.Repeat(" ", max(width-lipgloss.Width(Escape(s.value)), 0))
			rows[i] = []string{" ", Escape(s.name), t.Accent(s.value) + pad + "  " + hangMark + t.Muted(s.meaning)}
		}
	}
	return rows
}

// ProfileListView renders a list of automation profiles.
type ProfileListView struct {
	Profiles []*profile.AutomationProfile
}

// Data implements View: always an array of canonical profile documents, []
// when empty.
func (v ProfileListView) Data() any {
	return nonNil(v.Profiles)
}

// Plain implements View: one name per line.
func (v ProfileListView) Plain(w *Writer) {
	plainLines(w, v.Profiles, func(p *profile.AutomationProfile) string { return p.Name })
}

// SafetySummary says in a few words how a safety profile differs from the
// default one (sandbox and checkpoints required, unsafe tools refused, no
// approval on every call, no limits but the default retries): "default",
// or what it relaxes and what it adds. relaxed reports that it gives up
// one of the default's constraints.
func SafetySummary(s profile.SafetyProfile) (summary string, relaxed bool) {
	var looser, stricter []string
	if !s.RequireSandbox {
		looser = append(looser, "no sandbox")
	}
	if !s.RequireCheckpoints {
		looser = append(looser, "no checkpoints")
	}
	if s.AllowUnsafeTools {
		looser = append(looser, "unsafe tools")
	}
	if s.MaxRetriesPerStep > profile.DefaultMaxRetriesPerStep {
		looser = append(looser, "more retries")
	}
	if s.RequireHumanApproval {
		stricter = append(stricter, "approval for every call")
	}
	if len(s.AllowedSkillCategories) > 0 {
		stricter = append(stricter, "some skills only")
	}
	if s.MaxCostPerPlan != nil || s.MaxTotalCost != nil {
		stricter = append(stricter, "cost caps")
	}
	if s.MaxRetriesPerStep < profile.DefaultMaxRetriesPerStep {
		stricter = append(stricter, "fewer retries")
	}
	var parts []string
	if len(looser) > 0 {
		parts = append(parts, "relaxed: "+strings.Join(looser, ", "))
	}
	if len(stricter) > 0 {
		parts = append(parts, "stricter: "+strings.Join(stricter, ", "))
	}
	if len(parts) == 0 {
		return "default", false
	}
	return strings.Join(parts, "; "), len(looser) > 0
}

// Tables implements View: one row per profile with its kind, autonomy (see
// Autonomy), how its safety differs from the default, and its
// description, shortened to the room the terminal leaves.
func (v ProfileListView) Tables() []Table {
	t := Table{
		Header: []string{"NAME", "KIND", "AUTONOMY", "SAFETY", "DESCRIPTION"},
		Fits:   []Fit{FitKeep, FitKeep, FitKeep, FitWrap, FitShrink},
	}
	for _, p := range v.Profiles {
		safety, _ := SafetySummary(p.Safety)
		t.Rows = append(t.Rows, []string{p.Name, kind(p), Percent(Autonomy(p)), safety, p.Description})
	}
	return []Table{t}
}

// ListLegend explains the columns of a profile list and the order of the
// built-ins, which is their customary one and not sorted by the measure.
const ListLegend = "autonomy: mean of (1 − threshold) over the 11 gates. " +
	"safety: what differs from the default (sandbox and checkpoints required, " +
	"unsafe tools refused). Built-ins keep their customary order, manual to " +
	"full-auto, which autonomy does not follow exactly."

// Rich implements RichView: built-in and custom profiles in two tables,
// each row with its autonomy as a ladder and its safety in words, then a
// legend.
func (v ProfileListView) Rich(t *Theme) string {
	var builtin, custom []*profile.AutomationProfile
	for _, p := range v.Profiles {
		if p.IsBuiltin() {
			builtin = append(builtin, p)
		} else {
			custom = append(custom, p)
		}
	}
	if len(builtin)+len(custom) == 0 {
		return t.Muted("no profiles") + "\n"
	}
	var parts []string
	if len(builtin) > 0 {
		parts = append(parts, richProfileTable(t, "Built-in profiles", builtin, ToneNormal))
	}
	if len(custom) > 0 {
		parts = append(parts, richProfileTable(t, "Custom profiles", custom, ToneAccent))
	}
	legend := t.Wrap(0, textWidth(t), ToneMuted, ListLegend)
	return strings.Join(parts, "\n") + legend
}

// textWidth is the width prose is wrapped to: the terminal's up to 100,
// which reads better than longer lines, or 80 when it is not known.
func textWidth(t *Theme) int {
	if t.Width > 0 {
		return min(t.Width, 100)
	}
	return 80
}

func richProfileTable(t *Theme, title string, list []*profile.AutomationProfile, nameTone Tone) string {
	tb := Table{
		Title:  title,
		Header: []string{"NAME", "AUTONOMY", "SAFETY", "DESCRIPTION"},
		Fits:   []Fit{FitKeep, FitKeep, FitWrap, FitShrink},
	}
	relaxed := make([]bool, len(list))
	for i, p := range list {
		a := Autonomy(p)
		var safety string
		safety, relaxed[i] = SafetySummary(p.Safety)
		tb.Rows = append(tb.Rows, []string{p.Name, ladderText(a) + " " + Percent(a), safety, p.Description})
	}
	// Cells must be plain text (the table escapes them), so colour comes
	// from a tone per cell.
	tone := func(row, col int) Tone {
		switch col {
		case 0:
			return nameTone
		case 1:
			return ToneAccent
		case 2:
			if relaxed[row] {
				return ToneWarn
			}
			return ToneGood
		case 3:
			return ToneMuted
		}
		return ToneNormal
	}
	return t.Table(tb, tone)
}

// FormatFloat formats a number in its shortest form with at least one
// decimal (1.0, 0.7, 12.5); see profile.FormatFloat.
func FormatFloat(f float64) string { return profile.FormatFloat(f) }
