package render

import (
	"strconv"
	"strings"

	sp "github.com/agentsctl/agents/internal/safetypack"
)

// PackView renders the pack in force.
type PackView struct {
	Loaded *sp.Loaded
}

// packDoc is the pack's own fields plus how it was loaded, in output order.
// The pack's fields are its own type's, so a field the format gains is
// shown too; the predicates and modes, which the pack's file leaves out
// when there are none, are always written here ({} then).
type packDoc struct {
	sp.Pack
	BoundaryPredicates  map[string]string  `json:"boundary_predicates"`
	BoundaryEnforcement map[string]sp.Mode `json:"boundary_enforcement"`
	Ratified            bool               `json:"ratified"`
	Source              string             `json:"source"`
	Level               string             `json:"level"`
	SystemPack          *systemPackDoc     `json:"system_pack"`
}

// systemPackDoc names the system pack that bounds a pack the user
// configured.
type systemPackDoc struct {
	PackID string `json:"pack_id"`
	Source string `json:"source"`
}

func systemPackOf(l *sp.Loaded) *systemPackDoc {
	if l.System == nil {
		return nil
	}
	return &systemPackDoc{PackID: l.System.Pack.PackID, Source: l.System.Source}
}

// levelText says where the pack in force was chosen, for people.
func levelText(l *sp.Loaded) string {
	switch l.Level {
	case sp.LevelSystem:
		return "system (the system configuration names it; only root can change it)"
	case sp.LevelUser:
		if l.System != nil {
			return "user (at least as strict as the system pack " + l.System.Pack.PackID + ")"
		}
		return "user ($AGENTS_HOME/config.yaml names it)"
	}
	return "shipped"
}

// Data implements View.
func (v PackView) Data() any {
	p := v.Loaded.Pack
	d := packDoc{
		Pack: *p, BoundaryPredicates: p.BoundaryPredicates, BoundaryEnforcement: p.BoundaryEnforcement,
		Ratified: v.Loaded.Ratified, Source: v.Loaded.Source, Level: v.Loaded.Level, SystemPack: systemPackOf(v.Loaded),
	}
	if d.BoundaryPredicates == nil {
		d.BoundaryPredicates = map[string]string{}
	}
	if d.BoundaryEnforcement == nil {
		d.BoundaryEnforcement = map[string]sp.Mode{}
	}
	return d
}

func ratification(l *sp.Loaded) string {
	if l.Ratified {
		return "yes, sealed by " + l.ReportFile
	}
	return "NO (loaded under " + sp.EnvAllowUnratified + "=1)"
}

// Plain implements View.
func (v PackView) Plain(w *Writer) {
	l, p := v.Loaded, v.Loaded.Pack
	w.Field("pack_id", p.PackID)
	w.Field("version", p.Version)
	w.Field("description", p.Description)
	w.Field("schema_version", p.SchemaVersion)
	w.Field("source", l.Source)
	w.Field("level", levelText(l))
	if l.System != nil {
		w.Field("system_pack", l.System.Pack.PackID+" ("+l.System.Source+")")
	}
	w.Field("ratified", ratification(l))
	w.Field("mastery_report_sha256", p.MasteryReportSHA256)
	w.Line("boundaries:")
	for _, id := range p.BoundaryIDs {
		w.Line("  ", id, ": ", p.BoundaryDescriptions[id])
		if pred, ok := p.BoundaryPredicates[id]; ok {
			w.Line("    predicate (", string(p.ModeOf(id)), "): ", pred)
		}
	}
}

// Tables implements View.
func (v PackView) Tables() []Table {
	l, p := v.Loaded, v.Loaded.Pack
	head := Table{Title: p.PackID, Header: []string{"FIELD", "VALUE"}, Rows: [][]string{
		{"version", p.Version},
		{"description", p.Description},
		{"schema_version", p.SchemaVersion},
		{"source", l.Source},
		{"level", levelText(l)},
		{"ratified", ratification(l)},
		{"mastery_report_sha256", p.MasteryReportSHA256},
	}}
	if l.System != nil {
		head.Rows = append(head.Rows, []string{"system_pack", l.System.Pack.PackID + " (" + l.System.Source + ")"})
	}
	bounds := Table{Title: "Boundaries", Header: []string{"BOUNDARY", "DESCRIPTION", "PREDICATE", "MODE"}}
	for _, id := range p.BoundaryIDs {
		pred, mode := "-", "-"
		if src, ok := p.BoundaryPredicates[id]; ok {
			pred, mode = src, string(p.ModeOf(id))
		}
		bounds.Rows = append(bounds.Rows, []string{id, p.BoundaryDescriptions[id], pred, mode})
	}
	return []Table{head, bounds}
}

// sealChecks are the checks a verified seal passed, in the order they are
// made.
var sealChecks = []string{
	"the pack carries a seal (mastery_report_sha256)",
	"the mastery report is present and well formed",
	"the report names this pack",
	"the report's self-seal verifies",
	"the pack's seal matches the report",
	"the pack's content is what the report sealed",
}

// VerifyView renders a verified pack.
type VerifyView struct {
	Loaded *sp.Loaded
	// InForce is true when the pack in force was verified, which also
	// passed the loader's other checks.
	InForce bool
}

type verifyDoc struct {
	PackID       string   `json:"pack_id"`
	Version      string   `json:"version"`
	Source       string   `json:"source"`
	Report       string   `json:"report"`
	PackSHA256   string   `json:"pack_sha256"`
	ReportSHA256 string   `json:"report_sha256"`
	Verified     bool     `json:"verified"`
	Checks       []string `json:"checks"`
}

func (v VerifyView) doc() verifyDoc {
	l := v.Loaded
	d := verifyDoc{
		PackID: l.Pack.PackID, Version: l.Pack.Version, Source: l.Source, Report: l.ReportFile,
		PackSHA256: l.Pack.ContentSHA256(), ReportSHA256: l.Pack.MasteryReportSHA256,
		Verified: l.Ratified, Checks: append([]string{}, sealChecks...),
	}
	if v.InForce && l.Source != sp.SourceEmbedded {
		d.Checks = append(d.Checks,
			"the pack file carries the configured pack id",
			"the pack keeps every boundary of "+sp.ShippedPackID)
	}
	if v.InForce && l.Level == sp.LevelSystem {
		d.Checks = append(d.Checks, "the system configuration, the pack and its report are owned by root and writable by root alone")
	}
	if v.InForce && l.System != nil {
		d.Checks = append(d.Checks, "the pack keeps every boundary of the system pack "+l.System.Pack.PackID+", with its predicates and at least its modes")
	}
	return d
}

// Data implements View.
func (v VerifyView) Data() any { return v.doc() }

// Plain implements View.
func (v VerifyView) Plain(w *Writer) {
	d := v.doc()
	w.Field("pack_id", d.PackID)
	w.Field("version", d.Version)
	w.Field("source", d.Source)
	w.Field("report", d.Report)
	w.Field("pack_sha256", d.PackSHA256)
	w.Field("report_sha256", d.ReportSHA256)
	w.Field("verified", strconv.FormatBool(d.Verified))
	for _, c := range d.Checks {
		w.Line("  ok  ", c)
	}
}

// Tables implements View.
func (v VerifyView) Tables() []Table {
	d := v.doc()
	head := Table{Title: d.PackID + " verified", Header: []string{"FIELD", "VALUE"}, Rows: [][]string{
		{"version", d.Version},
		{"source", d.Source},
		{"report", d.Report},
		{"pack_sha256", d.PackSHA256},
		{"report_sha256", d.ReportSHA256},
	}}
	checks := Table{Title: "Checks", Header: []string{"CHECK", "RESULT"}}
	for _, c := range d.Checks {
		checks.Rows = append(checks.Rows, []string{c, "ok"})
	}
	return []Table{head, checks}
}

// RatifyView renders what ratify did.
type RatifyView struct {
	Result *sp.RatifyResult
}

type ratifyDoc struct {
	PackID        string `json:"pack_id"`
	PackFile      string `json:"pack_file"`
	ReportFile    string `json:"report_file"`
	PackSHA256    string `json:"pack_sha256"`
	ReportSHA256  string `json:"report_sha256"`
	PackWritten   bool   `json:"pack_written"`
	ReportWritten bool   `json:"report_written"`
}

func (v RatifyView) doc() ratifyDoc {
	r := v.Result
	return ratifyDoc{
		PackID: r.Pack.PackID, PackFile: r.PackFile, ReportFile: r.ReportFile,
		PackSHA256: r.Report.PackSHA256, ReportSHA256: r.Report.ReportSHA256,
		PackWritten: r.PackWritten, ReportWritten: r.ReportWritten,
	}
}

// Data implements View.
func (v RatifyView) Data() any { return v.doc() }

func written(b bool) string {
	if b {
		return "written"
	}
	return "unchanged"
}

// Plain implements View.
func (v RatifyView) Plain(w *Writer) {
	d := v.doc()
	w.Field("pack_id", d.PackID)
	w.Field("pack_file", d.PackFile+" ("+written(d.PackWritten)+")")
	w.Field("report_file", d.ReportFile+" ("+written(d.ReportWritten)+")")
	w.Field("pack_sha256", d.PackSHA256)
	w.Field("report_sha256", d.ReportSHA256)
}

// Tables implements View.
func (v RatifyView) Tables() []Table {
	d := v.doc()
	return []Table{{Title: d.PackID + " ratified", Header: []string{"FIELD", "VALUE"}, Rows: [][]string{
		{"pack_file", d.PackFile + " (" + written(d.PackWritten) + ")"},
		{"report_file", d.ReportFile + " (" + written(d.ReportWritten) + ")"},
		{"pack_sha256", d.PackSHA256},
		{"report_sha256", d.ReportSHA256},
	}}}
}

// VerdictView renders a SafetyCheck verdict.
type VerdictView struct {
	Verdict sp.Verdict
}

// Data implements View.
func (v VerdictView) Data() any { return v.Verdict }

func upheldWord(r sp.Result) string {
	switch {
	case !r.Upheld:
		return "VIOLATED"
	case !r.RuntimeCheckable:
		return "not judged"
	}
	return "upheld"
}

// Plain implements View.
func (v VerdictView) Plain(w *Writer) {
	vd := v.Verdict
	w.Field("pack_id", vd.PackID)
	w.Field("upheld", strconv.FormatBool(vd.Upheld))
	w.Field("violated_boundaries", strings.Join(vd.ViolatedBoundaries, ", "))
	w.Field("runtime_checkable_count", strconv.Itoa(vd.RuntimeCheckableCount))
	w.Field("warnings", strings.Join(vd.Warnings, ", "))
	for _, r := range vd.Results {
		w.Line(r.BoundaryID, ": ", upheldWord(r), modeText(r), ": ", r.Reason)
		for _, e := range r.Evidence {
			w.Line("  evidence: ", e)
		}
	}
}

// modeText is " (mode)" for a boundary with a mode of its own.
func modeText(r sp.Result) string {
	if r.Mode == nil {
		return ""
	}
	return " (" + string(*r.Mode) + ")"
}

func modeCell(r sp.Result) string {
	if r.Mode == nil {
		return "-"
	}
	return string(*r.Mode)
}

// Tables implements View.
func (v VerdictView) Tables() []Table {
	vd := v.Verdict
	summary, _ := verdictHeadline(vd)
	if len(vd.Warnings) > 0 {
		summary += "; warnings: " + strings.Join(vd.Warnings, ", ")
	}
	t := Table{
		Title:  vd.PackID + ": " + summary,
		Header: []string{"BOUNDARY", "UPHELD", "MODE", "RUNTIME CHECKABLE", "REASON", "EVIDENCE"},
		Fits:   []Fit{FitKeep, FitKeep, FitKeep, FitKeep, FitWrap, FitWrap},
	}
	for _, r := range vd.Results {
		t.Rows = append(t.Rows, []string{r.BoundaryID, strconv.FormatBool(r.Upheld), modeCell(r), strconv.FormatBool(r.RuntimeCheckable), r.Reason, strings.Join(r.Evidence, "; ")})
	}
	return []Table{t}
}

// richWidth is the width prose is wrapped to: the terminal's, at most 100,
// or 80 when it is not known.
func richWidth(t *Theme) int {
	if t.Width > 0 {
		return min(t.Width, 100)
	}
	return 80
}

// short shortens a sha256 for people; the full value is in every other
// format.
func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12] + "…"
	}
	return sum
}

// Rich implements RichView.
func (v PackView) Rich(t *Theme) string {
	l, p := v.Loaded, v.Loaded.Pack
	var b strings.Builder
	b.WriteString(t.Title(p.PackID) + "  " + t.Muted(p.Version) + "  ")
	if l.Ratified {
		b.WriteString(t.Badge(ToneGood, "ratified"))
	} else {
		b.WriteString(t.Badge(ToneBad, "NOT RATIFIED: "+sp.EnvAllowUnratified+"=1"))
	}
	b.WriteString("\n")
	b.WriteString(t.Wrap(0, richWidth(t), ToneNormal, p.Description))
	b.WriteString("\n")
	seal := Escape(short(p.MasteryReportSHA256))
	if p.MasteryReportSHA256 == "" {
		seal = t.Bad("none")
	}
	rows := [][]string{
		{t.Muted("source"), Escape(l.Source)},
		{t.Muted("level"), Escape(levelText(l))},
		{t.Muted("seal"), seal},
		{t.Muted("report"), Escape(l.ReportFile)},
		{t.Muted("schema"), Escape(p.SchemaVersion)},
	}
	if l.System != nil {
		rows = append(rows, []string{t.Muted("system pack"), Escape(l.System.Pack.PackID + " (" + l.System.Source + ")")})
	}
	b.WriteString(t.Grid(0, rows))
	b.WriteString("\n" + t.Wrap(0, richWidth(t), ToneMuted, sealTerms))
	b.WriteString("\n" + t.Heading("Boundaries") + "\n")
	for _, id := range p.BoundaryIDs {
		b.WriteString("  " + t.Accent(id))
		if _, ok := p.BoundaryPredicates[id]; ok {
			b.WriteString("  " + t.Badge(ToneWarn, string(p.ModeOf(id))))
		}
		b.WriteString("\n")
		b.WriteString(t.Wrap(4, richWidth(t)-4, ToneMuted, p.BoundaryDescriptions[id]))
		if pred, ok := p.BoundaryPredicates[id]; ok {
			// A long predicate continues under its first character.
			b.WriteString(t.Para(len("    predicate "), "    "+t.Muted("predicate ")+Escape(pred)))
		}
	}
	return b.String()
}

// sealTerms says what the pack's seal and mastery report are, in the
// words show prints them with.
const sealTerms = "The mastery report is the record of the pack's ratification; the seal is " +
	"its sha256, which the pack carries. The pack is in force only while the seal " +
	"matches the report and the report matches the pack, so any edit to either " +
	"is refused."

// verdictTerms says what the verdict's words mean.
const verdictTerms = "upheld: the evidence shows the boundary kept. not judged: the context " +
	"holds no evidence for it (give --plan or --context), so it is counted as " +
	"upheld without being checked. The versor condition is a caller's own " +
	"measure of how far its state has drifted from closure; only a --context " +
	"file supplies it."

// verdictHeadline sums a verdict up without claiming more than was judged:
// a violation, every boundary upheld, or no violation among the few judged.
func verdictHeadline(vd sp.Verdict) (text string, judgedAll bool) {
	total := len(vd.Results)
	switch {
	case !vd.Upheld:
		return "violated: " + strings.Join(vd.ViolatedBoundaries, ", "), false
	case vd.RuntimeCheckableCount == total:
		return "every boundary upheld (all " + strconv.Itoa(total) + " judged)", true
	}
	return "no violation found, but only " + strconv.Itoa(vd.RuntimeCheckableCount) + " of " +
		strconv.Itoa(total) + " boundaries could be judged", false
}

// Rich implements RichView.
func (v VerifyView) Rich(t *Theme) string {
	d := v.doc()
	var b strings.Builder
	b.WriteString(t.Title(d.PackID) + "  " + t.Muted(d.Version) + "  " + t.Badge(ToneGood, "verified") + "\n")
	b.WriteString(t.Grid(0, [][]string{
		{t.Muted("source"), Escape(d.Source)},
		{t.Muted("report"), Escape(d.Report)},
		{t.Muted("pack_sha256"), Escape(d.PackSHA256)},
		{t.Muted("report_sha256"), Escape(d.ReportSHA256)},
	}))
	b.WriteString("\n")
	rows := make([][]string, len(d.Checks))
	for i, c := range d.Checks {
		rows[i] = []string{t.Check(true), Escape(c)}
	}
	b.WriteString(t.Grid(2, rows))
	return b.String()
}

// Rich implements RichView.
func (v RatifyView) Rich(t *Theme) string {
	d := v.doc()
	var b strings.Builder
	b.WriteString(t.Title(d.PackID) + "  " + t.Badge(ToneGood, "ratified") + "\n")
	state := func(w bool) string {
		if w {
			return t.Accent("written")
		}
		return t.Muted("unchanged")
	}
	b.WriteString(t.Grid(0, [][]string{
		{t.Muted("pack"), Escape(d.PackFile), state(d.PackWritten)},
		{t.Muted("report"), Escape(d.ReportFile), state(d.ReportWritten)},
		{t.Muted("pack_sha256"), Escape(d.PackSHA256)},
		{t.Muted("report_sha256"), Escape(d.ReportSHA256)},
	}))
	return b.String()
}

// Rich implements RichView.
func (v VerdictView) Rich(t *Theme) string {
	vd := v.Verdict
	var b strings.Builder
	headline, all := verdictHeadline(vd)
	switch {
	case !vd.Upheld:
		headline = t.Bad("✘ " + headline)
	case all:
		headline = t.Good("✔ " + headline)
	default:
		headline = t.Warn("· " + headline)
	}
	b.WriteString(t.Para(2, t.Title(vd.PackID)+"  "+headline))
	notJudged := len(vd.Results) - vd.RuntimeCheckableCount
	b.WriteString(t.Para(2, t.Muted(strconv.Itoa(vd.RuntimeCheckableCount)+" judged from the evidence, "+
		strconv.Itoa(notJudged)+" not judged")) + "\n")
	if len(vd.Warnings) > 0 {
		b.WriteString(t.Para(2, t.Warn("warnings: "+strings.Join(vd.Warnings, ", "))) + "\n")
	}
	var rows [][]string
	for _, r := range vd.Results {
		var mark, status string
		switch {
		case !r.Upheld:
			mark, status = t.Check(false), t.Bad("violated")
		case r.RuntimeCheckable:
			mark, status = t.Check(true), t.Good("upheld")
		default:
			mark, status = t.Muted("·"), t.Muted("not judged")
		}
		mode := ""
		if r.Mode != nil {
			mode = t.Muted(string(*r.Mode))
		}
		rows = append(rows, []string{mark, t.Accent(r.BoundaryID), status, mode, Escape(r.Reason)})
		for _, e := range r.Evidence {
			rows = append(rows, []string{"", "", "", "", t.Muted(e)})
		}
	}
	b.WriteString(t.Grid(2, rows))
	b.WriteString("\n" + t.Wrap(0, richWidth(t), ToneMuted, verdictTerms))
	return b.String()
}

var _ = []RichView{PackView{}, VerifyView{}, RatifyView{}, VerdictView{}}

// RatifyChange tells what ratify did in one line; its document is
// RatifyView's, with both files and both digests.
func RatifyChange(res *sp.RatifyResult) Change {
	c := Change{Verb: "ratified", Subject: res.Pack.PackID, Doc: RatifyView{Result: res}.Data()}
	var wrote []string
	if res.PackWritten {
		wrote = append(wrote, res.PackFile)
	}
	if res.ReportWritten {
		wrote = append(wrote, res.ReportFile+" (its mastery report, the seal)")
	}
	if len(wrote) == 0 {
		c.Verb, c.Detail = Unchanged, "already sealed by "+res.ReportFile
		return c
	}
	c.Detail = "wrote " + strings.Join(wrote, " and ")
	return c
}
