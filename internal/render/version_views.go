package render

import (
	"github.com/agentsctl/agents/internal/version"
)

// VersionView renders the build of agents.
type VersionView struct{ Info version.Info }

// versionDoc is the document of a build: a commit or date that neither
// the linker nor the build info supplied is null, as every unset field of
// a document is.
type versionDoc struct {
	Version  string  `json:"version"`
	Commit   *string `json:"commit"`
	Date     *string `json:"date"`
	Go       string  `json:"go"`
	Platform string  `json:"platform"`
}

// Data implements View.
func (v VersionView) Data() any {
	i := v.Info
	known := func(s string) *string {
		if s == version.Unknown {
			return nil
		}
		return &s
	}
	return versionDoc{Version: i.Version, Commit: known(i.Commit), Date: known(i.Date), Go: i.Go, Platform: i.Platform}
}

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
