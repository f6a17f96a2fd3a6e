package render

import (
	"strings"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/profile"
)

// MigratedView prints converted profiles: the canonical documents in json
// and yaml, the YAML text itself in the human formats.
type MigratedView struct{ Profiles []*profile.AutomationProfile }

// Data implements View.
func (v MigratedView) Data() any {
	if len(v.Profiles) == 1 {
		return v.Profiles[0]
	}
	return v.Profiles
}

// Plain implements View.
func (v MigratedView) Plain(w *Writer) {
	for i, p := range v.Profiles {
		if i > 0 {
			w.Raw("---\n")
		}
		b, err := canon.YAML(p)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			w.Line(line)
		}
	}
}

// Tables implements View.
func (v MigratedView) Tables() []Table {
	var ts []Table
	for _, p := range v.Profiles {
		ts = append(ts, ProfileView{Profile: p}.Tables()...)
	}
	return ts
}

// Rich implements RichView.
func (v MigratedView) Rich(*Theme) string {
	var b strings.Builder
	v.Plain(NewWriter(&b))
	return b.String()
}

// Migration is what migrate did to one file.
type Migration struct {
	File    string `json:"file"`
	Name    string `json:"name"`
	Legacy  bool   `json:"legacy"`
	Written bool   `json:"written"`
}

// MigrateSummary tells what migrate --write did to each file: a change,
// so one line per file in every human format, as each other change is
// told in one line.
type MigrateSummary struct{ Migrations []Migration }

// Data implements View.
func (v MigrateSummary) Data() any { return v.Migrations }

// Plain implements View.
func (v MigrateSummary) Plain(w *Writer) {
	for _, m := range v.Migrations {
		w.Line(m.text())
	}
}

// Tables implements View: each file's line as a table's title, which the
// table format writes one under another.
func (v MigrateSummary) Tables() []Table {
	ts := make([]Table, 0, len(v.Migrations))
	for _, m := range v.Migrations {
		ts = append(ts, Table{Title: m.text()})
	}
	return ts
}

// Rich implements RichView: each file's line after ✔ when it was
// rewritten, or after = and muted when it was left as it was.
func (v MigrateSummary) Rich(t *Theme) string {
	var b strings.Builder
	for _, m := range v.Migrations {
		if m.Written {
			b.WriteString(t.Para(2, t.Good("✔")+" "+Escape(m.File)+": "+m.result()))
		} else {
			b.WriteString(t.Para(2, t.Muted("=")+" "+Escape(m.File)+t.Muted(": "+m.result())))
		}
	}
	return b.String()
}

// text is the line every human format gives m: its file and what was
// done to it.
func (m Migration) text() string { return m.File + ": " + m.result() }

// result is the word every human format gives what migrate did to m's
// file.
func (m Migration) result() string {
	if m.Written {
		return "migrated"
	}
	return "unchanged"
}
