package safetypack

import (
	"strconv"
	"strings"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
	sp "github.com/agentsctl/agents/internal/safetypack"
)

// PackView renders the pack in force.
type PackView struct {
	Loaded *sp.Loaded
}

// packDoc is the pack's own fields plus how it was loaded, in output order.
type packDoc struct {
	PackID               string             `json:"pack_id"`
	Version              string             `json:"version"`
	Description          string             `json:"description"`
	SchemaVersion        string             `json:"schema_version"`
	MasteryReportSHA256  string             `json:"mastery_report_sha256"`
	BoundaryIDs          []string           `json:"boundary_ids"`
	BoundaryDescriptions map[string]string  `json:"boundary_descriptions"`
	BoundaryPredicates   map[string]string  `json:"boundary_predicates"`
	BoundaryEnforcement  map[string]sp.Mode `json:"boundary_enforcement"`
	Ratified             bool               `json:"ratified"`
	Source               string             `json:"source"`
	Level                string             `json:"level"`
	SystemPack           *systemPackDoc     `json:"system_pack"`
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

// Data implements render.View.
func (v PackView) Data() any {
	p := v.Loaded.Pack
	d := packDoc{
		PackID: p.PackID, Version: p.Version, Description: p.Description, SchemaVersion: p.SchemaVersion,
		MasteryReportSHA256: p.MasteryReportSHA256, BoundaryIDs: p.BoundaryIDs, BoundaryDescriptions: p.BoundaryDescriptions,
		BoundaryPredicates: p.BoundaryPredicates, BoundaryEnforcement: p.BoundaryEnforcement,
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
	return "NO (loaded under " + cmdutil.EnvAllowUnratified + "=1)"
}

// Plain implements render.View.
func (v PackView) Plain(w *render.Writer) {
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

// Tables implements render.View.
func (v PackView) Tables() []render.Table {
	l, p := v.Loaded, v.Loaded.Pack
	head := render.Table{Title: p.PackID, Header: []string{"FIELD", "VALUE"}, Rows: [][]string{
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
	bounds := render.Table{Title: "Boundaries", Header: []string{"BOUNDARY", "DESCRIPTION", "PREDICATE", "MODE"}}
	for _, id := range p.BoundaryIDs {
		pred, mode := "-", "-"
		if src, ok := p.BoundaryPredicates[id]; ok {
			pred, mode = src, string(p.ModeOf(id))
		}
		bounds.Rows = append(bounds.Rows, []string{id, p.BoundaryDescriptions[id], pred, mode})
	}
	return []render.Table{head, bounds}
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

// Data implements render.View.
func (v VerifyView) Data() any { return v.doc() }

// Plain implements render.View.
func (v VerifyView) Plain(w *render.Writer) {
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

// Tables implements render.View.
func (v VerifyView) Tables() []render.Table {
	d := v.doc()
	head := render.Table{Title: d.PackID + " verified", Header: []string{"FIELD", "VALUE"}, Rows: [][]string{
		{"version", d.Version},
		{"source", d.Source},
		{"report", d.Report},
		{"pack_sha256", d.PackSHA256},
		{"report_sha256", d.ReportSHA256},
	}}
	checks := render.Table{Title: "Checks", Header: []string{"CHECK", "RESULT"}}
	for _, c := range d.Checks {
		checks.Rows = append(checks.Rows, []string{c, "ok"})
	}
	return []render.Table{head, checks}
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

// Data implements render.View.
func (v RatifyView) Data() any { return v.doc() }

func written(b bool) string {
	if b {
		return "written"
	}
	return "unchanged"
}

// Plain implements render.View.
func (v RatifyView) Plain(w *render.Writer) {
	d := v.doc()
	w.Field("pack_id", d.PackID)
	w.Field("pack_file", d.PackFile+" ("+written(d.PackWritten)+")")
	w.Field("report_file", d.ReportFile+" ("+written(d.ReportWritten)+")")
	w.Field("pack_sha256", d.PackSHA256)
	w.Field("report_sha256", d.ReportSHA256)
}

// Tables implements render.View.
func (v RatifyView) Tables() []render.Table {
	d := v.doc()
	return []render.Table{{Title: d.PackID + " ratified", Header: []string{"FIELD", "VALUE"}, Rows: [][]string{
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

// Data implements render.View.
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

// Plain implements render.View.
func (v VerdictView) Plain(w *render.Writer) {
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

// Tables implements render.View.
func (v VerdictView) Tables() []render.Table {
	vd := v.Verdict
	summary, _ := verdictHeadline(vd)
	if len(vd.Warnings) > 0 {
		summary += "; warnings: " + strings.Join(vd.Warnings, ", ")
	}
	t := render.Table{
		Title:  vd.PackID + ": " + summary,
		Header: []string{"BOUNDARY", "UPHELD", "MODE", "RUNTIME CHECKABLE", "REASON", "EVIDENCE"},
		Fits:   []render.Fit{render.FitKeep, render.FitKeep, render.FitKeep, render.FitKeep, render.FitWrap, render.FitWrap},
	}
	for _, r := range vd.Results {
		t.Rows = append(t.Rows, []string{r.BoundaryID, strconv.FormatBool(r.Upheld), modeCell(r), strconv.FormatBool(r.RuntimeCheckable), r.Reason, strings.Join(r.Evidence, "; ")})
	}
	return []render.Table{t}
}
