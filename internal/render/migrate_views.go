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

// MigrateSummary tells what migrate --write did to each file.
type MigrateSummary struct{ Migrations []Migration }

// Data implements View.
func (v MigrateSummary) Data() any { return v.Migrations }

// Plain implements View.
func (v MigrateSummary) Plain(w *Writer) {
	for _, m := range v.Migrations {
		w.Line(m.File, ": ", m.result())
	}
}

// Tables implements View.
func (v MigrateSummary) Tables() []Table {
	t := Table{Header: []string{"FILE", "NAME", "RESULT"}, Fits: []Fit{FitWrap, FitKeep, FitKeep}}
	for _, m := range v.Migrations {
		t.Rows = append(t.Rows, []string{m.File, m.Name, m.result()})
	}
	return []Table{t}
}

// result is the word every human format gives what migrate did to m's
// file.
func (m Migration) result() string {
	if m.Written {
		return "migrated"
	}
	return "unchanged"
}
