package render

import (
	"github.com/agentsctl/agents/internal/version"
)

// VersionView renders the build of agents.
type VersionView struct{ Info version.Info }

// Data implements View.
func (v VersionView) Data() any { return v.Info }

// Plain implements View: the one-line form.
func (v VersionView) Plain(w *Writer) { w.Line(v.Info.String()) }

// Tables implements View.
func (v VersionView) Tables() []Table {
	i := v.Info
	return []Table{{
		Header: []string{"FIELD", "VALUE"},
		Rows: [][]string{
			{"version", i.Version},
			{"commit", i.Commit},
			{"date", i.Date},
			{"go", i.Go},
			{"platform", i.Platform},
		},
	}}
}

// Rich implements RichView: the one-line form, as plain prints it.
func (v VersionView) Rich(t *Theme) string { return t.Para(2, Escape(v.Info.String())) }
