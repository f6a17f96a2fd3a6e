package safetypack

import (
	"strconv"
	"strings"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
	sp "github.com/agentsctl/agents/internal/safetypack"
)

// richWidth is the width prose is wrapped to: the terminal's, at most 100,
// or 80 when it is not known.
func richWidth(t *render.Theme) int {
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

// Rich implements render.RichView.
func (v PackView) Rich(t *render.Theme) string {
	l, p := v.Loaded, v.Loaded.Pack
	var b strings.Builder
	b.WriteString(t.Title(p.PackID) + "  " + t.Muted(p.Version) + "  ")
	if l.Ratified {
		b.WriteString(t.Badge(render.ToneGood, "ratified"))
	} else {
		b.WriteString(t.Badge(render.ToneBad, "NOT RATIFIED: "+cmdutil.EnvAllowUnratified+"=1"))
	}
	b.WriteString("\n")
	b.WriteString(t.Wrap(0, richWidth(t), render.ToneNormal, p.Description))
	b.WriteString("\n")
	seal := render.Escape(short(p.MasteryReportSHA256))
	if p.MasteryReportSHA256 == "" {
		seal = t.Bad("none")
	}
	rows := [][]string{
		{t.Muted("source"), render.Escape(l.Source)},
		{t.Muted("level"), render.Escape(levelText(l))},
		{t.Muted("seal"), seal},
		{t.Muted("report"), render.Escape(l.ReportFile)},
		{t.Muted("schema"), render.Escape(p.SchemaVersion)},
	}
	if l.System != nil {
		rows = append(rows, []string{t.Muted("system pack"), render.Escape(l.System.Pack.PackID + " (" + l.System.Source + ")")})
	}
	b.WriteString(t.Grid(0, rows))
	b.WriteString("\n" + t.Wrap(0, richWidth(t), render.ToneMuted, sealTerms))
	b.WriteString("\n" + t.Heading("Boundaries") + "\n")
	for _, id := range p.BoundaryIDs {
		b.WriteString("  " + t.Accent(id))
		if _, ok := p.BoundaryPredicates[id]; ok {
			b.WriteString("  " + t.Badge(render.ToneWarn, string(p.ModeOf(id))))
		}
		b.WriteString("\n")
		b.WriteString(t.Wrap(4, richWidth(t)-4, render.ToneMuted, p.BoundaryDescriptions[id]))
		if pred, ok := p.BoundaryPredicates[id]; ok {
			b.WriteString("    " + t.Muted("predicate ") + render.Escape(pred) + "\n")
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

// Rich implements render.RichView.
func (v VerifyView) Rich(t *render.Theme) string {
	d := v.doc()
	var b strings.Builder
	b.WriteString(t.Title(d.PackID) + "  " + t.Muted(d.Version) + "  " + t.Badge(render.ToneGood, "verified") + "\n")
	b.WriteString(t.Grid(0, [][]string{
		{t.Muted("source"), render.Escape(d.Source)},
		{t.Muted("report"), render.Escape(d.Report)},
		{t.Muted("pack_sha256"), render.Escape(d.PackSHA256)},
		{t.Muted("report_sha256"), render.Escape(d.ReportSHA256)},
	}))
	b.WriteString("\n")
	rows := make([][]string, len(d.Checks))
	for i, c := range d.Checks {
		rows[i] = []string{t.Check(true), render.Escape(c)}
	}
	b.WriteString(t.Grid(2, rows))
	return b.String()
}

// Rich implements render.RichView.
func (v RatifyView) Rich(t *render.Theme) string {
	d := v.doc()
	var b strings.Builder
	b.WriteString(t.Title(d.PackID) + "  " + t.Badge(render.ToneGood, "ratified") + "\n")
	state := func(w bool) string {
		if w {
			return t.Accent("written")
		}
		return t.Muted("unchanged")
	}
	b.WriteString(t.Grid(0, [][]string{
		{t.Muted("pack"), render.Escape(d.PackFile), state(d.PackWritten)},
		{t.Muted("report"), render.Escape(d.ReportFile), state(d.ReportWritten)},
		{t.Muted("pack_sha256"), render.Escape(d.PackSHA256)},
		{t.Muted("report_sha256"), render.Escape(d.ReportSHA256)},
	}))
	return b.String()
}

// Rich implements render.RichView.
func (v VerdictView) Rich(t *render.Theme) string {
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
		rows = append(rows, []string{mark, t.Accent(r.BoundaryID), status, mode, render.Escape(r.Reason)})
		for _, e := range r.Evidence {
			rows = append(rows, []string{"", "", "", "", t.Muted(e)})
		}
	}
	b.WriteString(t.Grid(2, rows))
	b.WriteString("\n" + t.Wrap(0, richWidth(t), render.ToneMuted, verdictTerms))
	return b.String()
}

var _ = []render.RichView{PackView{}, VerifyView{}, RatifyView{}, VerdictView{}}
