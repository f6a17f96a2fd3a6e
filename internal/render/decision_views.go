package render

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/profile"
)

// decisionDoc is the canonical document of a check-guard answer: the
// specification's GuardResult fields, then the rule that decided, the
// profile it was decided under, the level that profile came from (null when
// a profile was named directly) and the conditions an allowed call must
// still meet.
type decisionDoc struct {
	Allowed          bool    `json:"allowed"`
	Reason           *string `json:"reason"`
	RequiresApproval bool    `json:"requires_approval"`
	Rule             string  `json:"rule"`
	Profile          string  `json:"profile"`
	Level            *string `json:"level"`
	// Plan is the plan decided for; null when a profile was named.
	Plan *string `json:"plan"`
	// Warnings name the safety pack's boundaries in warn mode that the
	// profile violates, and the problems of the seal of a pack that loaded
	// only under the development override; empty when there are none.
	Warnings []string `json:"warnings"`
}

// guardDoc adds where the safety profile decided under came from: its
// level (null when a profile was named, whose own safety applies) and
// whether it was standalone or composed.
type guardDoc struct {
	decisionDoc
	decisionSafety
}

// decisionSafety are the fields both decisions add to decisionDoc.
type decisionSafety struct {
	SafetyLevel  *string  `json:"safety_level"`
	SafetySource *string  `json:"safety_source"`
	Conditions   []string `json:"conditions"`
}

// gateDoc is the canonical document of a check-gate answer: the same shape,
// with the threshold and the confidence it was compared with.
type gateDoc struct {
	decisionDoc
	decisionSafety
	Threshold  float64 `json:"threshold"`
	Confidence float64 `json:"confidence"`
}

// The documents of decisions are written by hand, field by field in the
// order of their struct tags: every decision prints one, and encoding/json
// would spend more reflecting over their types, once per run, than the
// decision itself costs. A test holds each to what encoding/json writes.

// appendFields appends the decision's fields after the opening brace.
func (d *decisionDoc) appendFields(b []byte) []byte {
	b = append(b, `{"allowed":`...)
	b = strconv.AppendBool(b, d.Allowed)
	b = append(b, `,"reason":`...)
	b = canon.AppendOptional(b, d.Reason)
	b = append(b, `,"requires_approval":`...)
	b = strconv.AppendBool(b, d.RequiresApproval)
	b = append(b, `,"rule":`...)
	b = canon.AppendString(b, d.Rule)
	b = append(b, `,"profile":`...)
	b = canon.AppendString(b, d.Profile)
	b = append(b, `,"level":`...)
	b = canon.AppendOptional(b, d.Level)
	b = append(b, `,"plan":`...)
	b = canon.AppendOptional(b, d.Plan)
	b = append(b, `,"warnings":`...)
	return canon.AppendStrings(b, d.Warnings)
}

// MarshalJSON implements json.Marshaler.
func (d guardDoc) MarshalJSON() ([]byte, error) { return d.AppendJSON(make([]byte, 0, 256)) }

// AppendJSON implements canon.Appender.
func (d guardDoc) AppendJSON(b []byte) ([]byte, error) {
	b = d.decisionSafety.appendTo(d.appendFields(b))
	return append(b, '}'), nil
}

// appendTo appends the fields after those of decisionDoc.
func (s *decisionSafety) appendTo(b []byte) []byte {
	b = append(b, `,"safety_level":`...)
	b = canon.AppendOptional(b, s.SafetyLevel)
	b = append(b, `,"safety_source":`...)
	b = canon.AppendOptional(b, s.SafetySource)
	b = append(b, `,"conditions":`...)
	return canon.AppendStrings(b, s.Conditions)
}

// MarshalJSON implements json.Marshaler.
func (d gateDoc) MarshalJSON() ([]byte, error) { return d.AppendJSON(make([]byte, 0, 256)) }

// AppendJSON implements canon.Appender.
func (d gateDoc) AppendJSON(b []byte) ([]byte, error) {
	b = d.decisionSafety.appendTo(d.appendFields(b))
	b = append(b, `,"threshold":`...)
	b, err := canon.AppendFloat(b, d.Threshold)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"confidence":`...)
	if b, err = canon.AppendFloat(b, d.Confidence); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// GuardDecisionView renders the answer to check-guard.
type GuardDecisionView struct {
	Result profile.GuardResult
	// Profile is the name of the automation profile decided under.
	Profile string
	// Level is where the profile came from (plan, action, project,
	// global), or "" when it was named directly.
	Level string
	// Plan is the id of the plan decided for, or "".
	Plan string
	// SafetyLevel is where the safety profile came from, for a plan.
	SafetyLevel string
	// SafetySource is standalone or composed; "" means composed (a named
	// profile's own safety).
	SafetySource string
	// Warnings are the pack's warn-mode boundaries the profile violates,
	// and the seal problems of a pack loaded under the development
	// override.
	Warnings []string
}

func (v GuardDecisionView) safetySource() string {
	if v.SafetySource == "" {
		return "composed"
	}
	return v.SafetySource
}

// Data implements View.
func (v GuardDecisionView) Data() any {
	r := v.Result
	doc := guardDoc{
		decisionDoc: decisionDoc{
			Allowed:          r.Allowed(),
			Reason:           optional(r.Reason()),
			RequiresApproval: r.RequiresApproval(),
			Rule:             string(r.Rule),
			Profile:          v.Profile,
			Level:            optional(v.Level),
			Plan:             optional(v.Plan),
			Warnings:         nonNil(v.Warnings),
		},
		decisionSafety: decisionSafety{Conditions: r.Conditions.Names()},
	}
	if v.Plan != "" {
		doc.SafetyLevel = optional(v.SafetyLevel)
		doc.SafetySource = optional(v.safetySource())
	}
	return doc
}

func (v GuardDecisionView) fields() [][2]string {
	r := v.Result
	fields := [][2]string{
		{"decision", r.Verdict.String()},
		{"allowed", strconv.FormatBool(r.Allowed())},
		{"requires_approval", strconv.FormatBool(r.RequiresApproval())},
		{"rule", string(r.Rule)},
		{"reason", orNullText(r.Reason())},
		{"tool", r.Input().Tool},
	}
	safetyLevel, safetySource := "", ""
	if v.Plan != "" {
		safetyLevel, safetySource = v.SafetyLevel, v.safetySource()
	}
	return append(fields, subjectFields(v.Profile, v.Level, v.Plan, safetyLevel, safetySource, r.Conditions.Names(), v.Warnings)...)
}

// subjectFields are the fields both decisions end with, in the order of
// their documents: what the decision was taken under (null where the
// document has null), the conditions still to meet and the warnings ([]
// for none, as every list in these formats).
func subjectFields(profileName, level, plan, safetyLevel, safetySource string, conditions, warnings []string) [][2]string {
	return [][2]string{
		{"profile", profileName},
		{"level", orNullText(level)},
		{"plan", orNullText(plan)},
		{"safety_level", orNullText(safetyLevel)},
		{"safety_source", orNullText(safetySource)},
		{"conditions", JoinList(nonNil(conditions))},
		{"warnings", warningList(warnings)},
	}
}

// orNullText is s, or null when it is empty: a field the document writes
// as null then.
func orNullText(s string) string {
	if s == "" {
		return "null"
	}
	return s
}

// warningList is the warnings on one line: [] for none, else separated by
// "; ", since a warning is a sentence that may hold commas.
func warningList(warnings []string) string {
	if len(warnings) == 0 {
		return "[]"
	}
	return strings.Join(warnings, "; ")
}

// withWarnings adds one "warning" row for each warning.
func withWarnings(fields [][2]string, warnings []string) [][2]string {
	for _, w := range warnings {
		fields = append(fields, [2]string{"warning", w})
	}
	return fields
}

// Plain implements View: one "key: value" line per field.
func (v GuardDecisionView) Plain(w *Writer) { plainFields(w, v.fields()) }

// Tables implements View.
func (v GuardDecisionView) Tables() []Table { return fieldTable(v.fields()) }

// Rich implements RichView: a verdict line, then what decided it.
func (v GuardDecisionView) Rich(t *Theme) string {
	r := v.Result
	subject := "tool " + strconv.Quote(r.Input().Tool) + " under " + planPhrase(v.Plan) + profilePhrase(v.Profile, v.Level)
	rows := [][2]string{
		{"rule", string(r.Rule)},
		{"reason", orDash(r.Reason())},
	}
	if v.Plan != "" {
		rows = append(rows, [2]string{"safety", v.safetySource() + " safety profile from the " + v.SafetyLevel + " level"})
	}
	for _, c := range r.Conditions.Names() {
		rows = append(rows, [2]string{"condition", conditionText(c, false)})
	}
	rows = withWarnings(rows, v.Warnings)
	return richDecision(t, r.Verdict, subject, rows)
}

// GateDecisionView renders the answer to check-gate.
type GateDecisionView struct {
	Decision profile.GateDecision
	// Profile is the name of the automation profile decided under.
	Profile string
	// Level is where the profile came from, or "" when it was named
	// directly.
	Level string
	// Plan is the id of the plan decided for, or "".
	Plan string
	// SafetyLevel and SafetySource say where the plan's safety profile
	// came from (its require_human_approval can decide a gate); "" for a
	// profile named directly.
	SafetyLevel, SafetySource string
	// Warnings are the pack's warn-mode boundaries the profile violates,
	// and the seal problems of a pack loaded under the development
	// override.
	Warnings []string
}

// Data implements View.
func (v GateDecisionView) Data() any {
	d := v.Decision
	doc := gateDoc{
		decisionDoc: decisionDoc{
			Allowed:          d.Automatic,
			Reason:           optional(d.Reason()),
			RequiresApproval: d.Verdict() == profile.VerdictNeedsApproval,
			Rule:             d.Rule(),
			Profile:          v.Profile,
			Level:            optional(v.Level),
			Plan:             optional(v.Plan),
			Warnings:         nonNil(v.Warnings),
		},
		decisionSafety: decisionSafety{Conditions: d.Conditions.Names()},
		Threshold:      d.Threshold,
		Confidence:     d.Confidence,
	}
	if v.Plan != "" {
		doc.SafetyLevel = optional(v.SafetyLevel)
		doc.SafetySource = optional(cmp.Or(v.SafetySource, "composed"))
	}
	return doc
}

func (v GateDecisionView) fields() [][2]string {
	d := v.Decision
	fields := [][2]string{
		{"decision", d.Verdict().String()},
		{"allowed", strconv.FormatBool(d.Automatic)},
		{"requires_approval", strconv.FormatBool(d.Verdict() == profile.VerdictNeedsApproval)},
		{"rule", d.Rule()},
		{"reason", orNullText(d.Reason())},
		{"threshold", FormatFloat(d.Threshold)},
		{"confidence", FormatFloat(d.Confidence)},
	}
	safetyLevel, safetySource := "", ""
	if v.Plan != "" {
		safetyLevel, safetySource = v.SafetyLevel, cmp.Or(v.SafetySource, "composed")
	}
	return append(fields, subjectFields(v.Profile, v.Level, v.Plan, safetyLevel, safetySource, d.Conditions.Names(), v.Warnings)...)
}

// Plain implements View: one "key: value" line per field.
func (v GateDecisionView) Plain(w *Writer) { plainFields(w, v.fields()) }

// Tables implements View.
func (v GateDecisionView) Tables() []Table { return fieldTable(v.fields()) }

// Rich implements RichView: a verdict line, then the figures compared.
func (v GateDecisionView) Rich(t *Theme) string {
	d := v.Decision
	subject := "gate " + d.Gate + " under " + planPhrase(v.Plan) + profilePhrase(v.Profile, v.Level)
	why := d.Reason()
	if why == "" {
		why = gateAllowedWhy(d)
	}
	rows := [][2]string{
		{"rule", d.Rule()},
		{"threshold", FormatFloat(d.Threshold)},
		{"confidence", FormatFloat(d.Confidence)},
		{"reason", why},
	}
	if v.Plan != "" {
		// A plan's standalone safety profile can send every gate to a
		// person: say where the safety profile came from, as check-guard
		// does.
		rows = append(rows, [2]string{"safety", cmp.Or(v.SafetySource, "composed") + " safety profile from the " + v.SafetyLevel + " level"})
	}
	for _, c := range d.Conditions.Names() {
		rows = append(rows, [2]string{"condition", conditionText(c, true)})
	}
	return richDecision(t, d.Verdict(), subject, withWarnings(rows, v.Warnings))
}

// gateAllowedWhy says why a gate passed; the canonical reason is null then,
// as the specification keeps reasons for refusals.
func gateAllowedWhy(d profile.GateDecision) string {
	if d.Threshold == 0 {
		return "the " + d.Gate + " threshold is 0.0, so this step is always automatic"
	}
	return "confidence " + FormatFloat(d.Confidence) + " exceeds the " + d.Gate + " threshold of " + FormatFloat(d.Threshold)
}

func profilePhrase(name, level string) string {
	if level == "" {
		return "profile " + name
	}
	return "profile " + name + " (from the " + level + " level)"
}

func planPhrase(id string) string {
	if id == "" {
		return ""
	}
	return "plan " + id + ": "
}

func conditionText(c string, gate bool) string {
	switch {
	case c == "sandbox" && gate:
		return "sandbox: run the step in a sandbox"
	case c == "sandbox":
		return "sandbox: run the call in a sandbox"
	case c == "checkpoint_before_write" && gate:
		return "checkpoint_before_write: take a checkpoint before any write"
	case c == "checkpoint_before_write":
		return "checkpoint_before_write: take a checkpoint before the write"
	}
	return c
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func plainFields(w *Writer, fields [][2]string) {
	for _, f := range fields {
		w.Field(f[0], f[1])
	}
}

func fieldTable(fields [][2]string) []Table {
	t := Table{Header: []string{"FIELD", "VALUE"}}
	for _, f := range fields {
		t.Rows = append(t.Rows, []string{f[0], f[1]})
	}
	return []Table{t}
}

var verdictMarks = map[profile.Verdict]struct {
	tone Tone
	text string
}{
	profile.VerdictAllowed:       {ToneGood, "✔ ALLOWED"},
	profile.VerdictNeedsApproval: {ToneWarn, "⚠ NEEDS APPROVAL"},
	profile.VerdictBlocked:       {ToneBad, "✘ BLOCKED"},
}

// richDecision lays out a verdict line and labelled rows. The theme escapes
// every value and styles only when colour is on.
func richDecision(t *Theme, v profile.Verdict, subject string, rows [][2]string) string {
	m := verdictMarks[v]
	grid := make([][]string, len(rows))
	for i, r := range rows {
		grid[i] = []string{t.Muted(r[0]), Escape(r[1])}
	}
	return t.Para(2, t.Paint(m.tone, m.text)+"  "+Escape(subject)) + t.Grid(2, grid)
}
