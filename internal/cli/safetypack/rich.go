package safetypack

import (
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"strconv"
	"strings"

	"github.com/agentsctl/agents/internal/render"
)

// richWidth is the width prose is wrapped to: the terminal's, or 80.
func richWidth(t *render.Theme) int {
	if t.Width > 20 {
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
	b.WriteString(t.Title(vd.PackID) + "  ")
	if vd.Upheld {
		b.WriteString(t.Good("✔ every boundary upheld"))
	} else {
		b.WriteString(t.Bad("✘ violated: " + strings.Join(vd.ViolatedBoundaries, ", ")))
	}
	b.WriteString("\n")
	b.WriteString(t.Muted(strconv.Itoa(vd.RuntimeCheckableCount)+" of "+strconv.Itoa(len(vd.Results))+" judged at run time") + "\n")
	if len(vd.Warnings) > 0 {
		b.WriteString(t.Warn("warnings: "+strings.Join(vd.Warnings, ", ")) + "\n")
	}
	b.WriteString("\n")
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
	return b.String()
}

var _ = []render.RichView{PackView{}, VerifyView{}, RatifyView{}, VerdictView{}}
