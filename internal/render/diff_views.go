package render

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentsctl/agents/internal/profile"
	"github.com/charmbracelet/lipgloss"
)

// Categories of the rows that are not thresholds.
const (
	categorySafety = "safety"
	categoryGuards = "guards"
)

// diffField is one comparable field of a profile.
type diffField struct {
	// path is the field's name in the canonical document, dotted below
	// the top level: auto_apply, safety.require_sandbox.
	path     string
	category string
	// value returns the field's value in p: a float64, bool, int,
	// []string or nil, the types of the canonical document.
	value func(p *profile.AutomationProfile) any
	// safe, for a boolean field, is the value that keeps a constraint; it
	// colours a differing value in rich. nil for other fields.
	safe *bool
}

func (f diffField) name() string {
	_, leaf, ok := strings.Cut(f.path, ".")
	if !ok {
		return f.path
	}
	return leaf
}

func boolPtr(b bool) *bool { return &b }

func thresholdDiffFields() []diffField {
	out := make([]diffField, len(profile.Gates))
	for i, g := range profile.Gates {
		out[i] = diffField{path: g.Name, category: string(g.Category), value: func(p *profile.AutomationProfile) any { return g.Value(p) }}
	}
	return out
}

func safetyField(leaf string, safe *bool, v func(s profile.SafetyProfile) any) diffField {
	return diffField{path: "safety." + leaf, category: categorySafety, safe: safe,
		value: func(p *profile.AutomationProfile) any { return v(p.Safety) }}
}

// safetyFlagFields are the three flags of the specification's matrix.
func safetyFlagFields() []diffField {
	return []diffField{
		safetyField("require_sandbox", boolPtr(true), func(s profile.SafetyProfile) any { return s.RequireSandbox }),
		safetyField("require_checkpoints", boolPtr(true), func(s profile.SafetyProfile) any { return s.RequireCheckpoints }),
		safetyField("allow_unsafe_tools", boolPtr(false), func(s profile.SafetyProfile) any { return s.AllowUnsafeTools }),
	}
}

func safetyDiffFields() []diffField {
	return append(safetyFlagFields(),
		safetyField("require_human_approval", nil, func(s profile.SafetyProfile) any { return s.RequireHumanApproval }),
		safetyField("allowed_skill_categories", nil, func(s profile.SafetyProfile) any { return s.AllowedSkillCategories }),
		safetyField("max_cost_per_plan", nil, func(s profile.SafetyProfile) any { return floatOrNil(s.MaxCostPerPlan) }),
		safetyField("max_total_cost", nil, func(s profile.SafetyProfile) any { return floatOrNil(s.MaxTotalCost) }),
		safetyField("max_retries_per_step", nil, func(s profile.SafetyProfile) any { return s.MaxRetriesPerStep }),
	)
}

// guardField reads a guard setting; a profile without guards has none of
// them, so every guard field is nil there.
func guardField(leaf string, v func(g *profile.AutomationGuard) any) diffField {
	return diffField{path: "guards." + leaf, category: categoryGuards, value: func(p *profile.AutomationProfile) any {
		if p.Guards == nil {
			return nil
		}
		return v(p.Guards)
	}}
}

func guardDiffFields() []diffField {
	return []diffField{
		guardField("max_tool_calls_per_step", func(g *profile.AutomationGuard) any {
			if g.MaxToolCallsPerStep == nil {
				return nil
			}
			return *g.MaxToolCallsPerStep
		}),
		guardField("max_total_cost", func(g *profile.AutomationGuard) any { return floatOrNil(g.MaxTotalCost) }),
		guardField("tool_allowlist", func(g *profile.AutomationGuard) any { return listOrNil(g.ToolAllowlist) }),
		guardField("tool_denylist", func(g *profile.AutomationGuard) any { return listOrNil(g.ToolDenylist) }),
		guardField("require_approval_for_writes", func(g *profile.AutomationGuard) any { return g.RequireApprovalForWrites }),
		guardField("require_approval_for_apply", func(g *profile.AutomationGuard) any { return g.RequireApprovalForApply }),
	}
}

// allDiffFields are the rows of a comparison: 11 thresholds, 8 safety
// settings, 6 guard settings.
func allDiffFields() []diffField {
	return slices.Concat(thresholdDiffFields(), safetyDiffFields(), guardDiffFields())
}

// matrixDiffFields are the rows of the specification's built-in matrix: the
// thresholds and the three safety flags.
func matrixDiffFields() []diffField {
	return slices.Concat(thresholdDiffFields(), safetyFlagFields())
}

func floatOrNil(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

// listOrNil keeps an absent list absent: a nil []string in an interface
// would not compare equal to an untyped nil.
func listOrNil(l []string) any {
	if l == nil {
		return nil
	}
	return l
}

// sameValue reports whether two field values are equal. Lists compare as
// sets, since every list of a profile is matched by membership; an absent
// list and an empty one stay different.
func sameValue(a, b any) bool {
	la, aList := a.([]string)
	lb, bList := b.([]string)
	if aList || bList {
		if !aList || !bList || (la == nil) != (lb == nil) {
			return false
		}
		sa, sb := slices.Clone(la), slices.Clone(lb)
		slices.Sort(sa)
		slices.Sort(sb)
		return slices.Equal(slices.Compact(sa), slices.Compact(sb))
	}
	return a == b
}

// diffRow is one field across the compared profiles.
type diffRow struct {
	Field    string `json:"field"`
	Category string `json:"category"`
	Values   []any  `json:"values"`
	Differs  bool   `json:"differs"`

	spec diffField
}

// diffDoc is the document of -f json and -f yaml.
type diffDoc struct {
	Profiles    []string  `json:"profiles"`
	Differences int       `json:"differences"`
	Fields      []diffRow `json:"fields"`
}

// diffView renders a comparison of profiles.
type diffView struct {
	profiles []*profile.AutomationProfile
	doc      diffDoc
	// total is the number of fields compared, including those left out
	// by --only-differences.
	total int
	// builtin is set for the built-in matrix, which rich titles so.
	builtin bool
}

func newDiffView(ps []*profile.AutomationProfile, fields []diffField, onlyDifferences bool) diffView {
	v := diffView{profiles: ps, total: len(fields)}
	v.doc.Profiles = make([]string, len(ps))
	for i, p := range ps {
		v.doc.Profiles[i] = p.Name
	}
	v.doc.Fields = []diffRow{}
	for _, f := range fields {
		row := diffRow{Field: f.path, Category: f.category, Values: make([]any, len(ps)), spec: f}
		for i, p := range ps {
			row.Values[i] = f.value(p)
			if i > 0 && !sameValue(row.Values[0], row.Values[i]) {
				row.Differs = true
			}
		}
		if row.Differs {
			v.doc.Differences++
		}
		if onlyDifferences && !row.Differs {
			continue
		}
		v.doc.Fields = append(v.doc.Fields, row)
	}
	return v
}

// Data implements View.
func (v diffView) Data() any { return v.doc }

// cellText is a value as text for plain and table: numbers in their short
// form, lists joined by commas, absent values as null.
func cellText(x any) string {
	switch t := x.(type) {
	case nil:
		return "null"
	case float64:
		return FormatFloat(t)
	case bool:
		return strconv.FormatBool(t)
	case int:
		return strconv.Itoa(t)
	case []string:
		if len(t) == 0 {
			return "[]"
		}
		return joinItems(t, ",")
	}
	return fmt.Sprint(x)
}

func marker(differs bool) string {
	if differs {
		return "*"
	}
	return " "
}

// Plain implements View: a header line, then one line per field in
// aligned columns, starting with * when its values differ, so
// grep '^\*' gives the differences.
func (v diffView) Plain(w *Writer) {
	rows := [][]string{append([]string{" ", "FIELD"}, v.doc.Profiles...)}
	for _, r := range v.doc.Fields {
		row := []string{marker(r.Differs), r.Field}
		for _, x := range r.Values {
			row = append(row, cellText(x))
		}
		rows = append(rows, row)
	}
	for _, line := range alignColumns(rows) {
		w.Line(line)
	}
}

// alignColumns escapes the cells and pads them into left-aligned columns
// separated by two spaces (one after the marker column), without trailing
// spaces.
func alignColumns(rows [][]string) []string {
	var widths []int
	for _, row := range rows {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], lipgloss.Width(Escape(c)))
		}
	}
	out := make([]string, len(rows))
	for n, row := range rows {
		var b strings.Builder
		for i, c := range row {
			c = Escape(c)
			switch {
			case i == 1:
				b.WriteString(" ")
			case i > 1:
				b.WriteString("  ")
			}
			b.WriteString(c)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-lipgloss.Width(c)))
			}
		}
		out[n] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// ladderProfiles is the most profiles whose autonomy is drawn as a ladder in
// rich; more columns of ladders would not fit a terminal.
const ladderProfiles = 3

// tableCellWidth bounds a list in a table or rich cell; plain, json and
// yaml carry it whole.
const tableCellWidth = 24

// Tables implements View: one table, differing fields marked with
// * before their name, the category named on the first row of its group.
// A table too wide for the terminal loses its category column, then is
// split into parts that each repeat the field column, and at last is
// stacked, one block per field.
func (v diffView) Tables() []Table {
	t := Table{
		Header: append([]string{"FIELD", "CATEGORY"}, v.doc.Profiles...),
		Fits:   []Fit{FitKeep, FitDrop},
		Repeat: 1,
	}
	for range v.doc.Profiles {
		t.Fits = append(t.Fits, FitKeep)
	}
	prev := ""
	for _, r := range v.doc.Fields {
		cat := ""
		if r.Category != prev {
			cat, prev = r.Category, r.Category
		}
		row := []string{marker(r.Differs) + " " + r.spec.name(), cat}
		for i, x := range r.Values {
			row = append(row, listText(x))
			if _, ok := x.([]string); ok {
				t.Fits[2+i] = FitWrap
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return []Table{t}
}

// listText is cellText with lists joined by ", ", so that a table can wrap
// them.
func listText(x any) string {
	if l, ok := x.([]string); ok && len(l) > 0 {
		return strings.Join(l, ", ")
	}
	return cellText(x)
}

// Rich implements RichView: the profiles across, the fields down and
// grouped under their category, rows that agree muted and rows that differ
// marked and bright. Flags read ✔ and ✘; a differing flag that relaxes a
// constraint is in the warning tone. A last line gives each profile's
// autonomy, the share of its gates that proceed on their own. When the
// terminal is too narrow for every profile, the profiles are shown in
// groups that fit, one after the other, each with the field names.
func (v diffView) Rich(t *Theme) string {
	var b strings.Builder
	title := "Comparing " + strconv.Itoa(len(v.profiles)) + " profiles"
	if v.builtin {
		title = "The built-in profiles"
	}
	b.WriteString(t.Para(2, t.Heading(title)+"  "+
		t.Muted(fmt.Sprintf("%d of %d fields differ", v.doc.Differences, v.total))) + "\n")

	if len(v.doc.Fields) == 0 {
		b.WriteString(t.Muted("no differences") + "\n")
	} else {
		rows := v.richRows(t)
		groups := profileGroups(rows, len(v.profiles), t.Width)
		for i, g := range groups {
			if len(groups) > 1 {
				if i > 0 {
					b.WriteString("\n")
				}
				part := fmt.Sprintf("profiles %d to %d of %d", g[0]+1, g[len(g)-1]+1, len(v.profiles))
				if len(g) == 1 {
					part = fmt.Sprintf("profile %d of %d", g[0]+1, len(v.profiles))
				}
				b.WriteString(t.Muted(part) + "\n")
			}
			cols := append([]int{0, 1}, g...)
			for j := range g {
				cols[2+j] = 2 + g[j]
			}
			part := make([][]string, len(rows))
			for r, row := range rows {
				for _, c := range cols {
					if c < len(row) {
						part[r] = append(part[r], row[c])
					}
				}
			}
			b.WriteString(t.Grid(0, part))
		}
	}
	b.WriteString("\n" + t.Wrap(0, legendWidth(t), ToneMuted, "* differs · ✔ true · ✘ false · — not set · autonomy: mean of (1 − threshold)"))
	return b.String()
}

func legendWidth(t *Theme) int {
	if t.Width > 0 {
		return min(t.Width, 100)
	}
	return 80
}

// richRows are the rows of the rich comparison: a header of profile names,
// each category's heading and fields, a blank row and the autonomy row.
// Columns 0 and 1 are the marker and the field; column 2+i is profile i.
func (v diffView) richRows(t *Theme) [][]string {
	header := []string{" ", ""}
	for _, p := range v.profiles {
		header = append(header, t.Title(p.Name))
	}
	rows := [][]string{header}
	prev := ""
	for _, r := range v.doc.Fields {
		if r.Category != prev {
			prev = r.Category
			rows = append(rows, []string{" ", t.Strong(capitalize(r.Category))})
		}
		row := []string{" ", "  " + t.Muted(r.spec.name())}
		if r.Differs {
			row = []string{t.Warn("*"), "  " + Escape(r.spec.name())}
		}
		for _, x := range r.Values {
			row = append(row, richCell(t, r, x))
		}
		rows = append(rows, row)
	}
	auto := []string{" ", t.Strong("Autonomy")}
	for _, p := range v.profiles {
		a := Autonomy(p)
		cell := t.Accent(Percent(a))
		if len(v.profiles) <= ladderProfiles {
			cell = t.Ladder(a) + " " + Percent(a)
		}
		auto = append(auto, cell)
	}
	return append(rows, []string{" "}, auto)
}

// profileGroups splits the n profile columns of rows into groups, in
// order, each as many as fit beside the marker and field columns in width
// (every profile in one group when width is 0). A profile too wide to
// share the width has a group of its own.
func profileGroups(rows [][]string, n, width int) [][]int {
	widths := make([]int, n+2)
	for _, row := range rows {
		for i, c := range row {
			widths[i] = max(widths[i], lipgloss.Width(c))
		}
	}
	base := widths[0] + 2 + widths[1]
	var groups [][]int
	var cur []int
	used := base
	for i := range n {
		w := 2 + widths[2+i]
		if width > 0 && len(cur) > 0 && used+w > width {
			groups = append(groups, cur)
			cur, used = nil, base
		}
		cur = append(cur, i)
		used += w
	}
	return append(groups, cur)
}

// richCell renders one value: muted when its row agrees, and otherwise in
// the accent tone, or for a flag in the good or warning tone by whether it
// keeps the constraint.
func richCell(t *Theme, r diffRow, x any) string {
	if b, ok := x.(bool); ok {
		if !r.Differs {
			return t.Muted(pickMark(b))
		}
		if r.spec.safe != nil {
			return t.Flag(b, b == *r.spec.safe)
		}
		return t.Accent(pickMark(b))
	}
	s := cellText(x)
	if x == nil {
		s = "—"
	}
	s = Truncate(Escape(s), tableCellWidth)
	if !r.Differs || x == nil {
		return t.Muted(s)
	}
	return t.Accent(s)
}

func pickMark(b bool) string {
	if b {
		return "✔"
	}
	return "✘"
}

// NewDiffView compares profiles field by field, in the order given: every
// threshold, safety and guard setting, or, for the built-in matrix
// (builtin), the thresholds and the three main safety flags; with
// onlyDifferences, without the rows whose values are all the same.
func NewDiffView(ps []*profile.AutomationProfile, builtin, onlyDifferences bool) View {
	fields := allDiffFields()
	if builtin {
		fields = matrixDiffFields()
	}
	v := newDiffView(ps, fields, onlyDifferences)
	v.builtin = builtin
	return v
}
