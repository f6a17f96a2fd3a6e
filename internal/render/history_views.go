package render

import (
	"time"

	"github.com/agentsctl/agents/internal/profile"
)

// HistoryView renders the versions of a profile, oldest first.
type HistoryView struct {
	Name     string
	Builtin  bool
	Versions []profile.Version
}

// historyDoc is the canonical document of a profile's history.
type historyDoc struct {
	Name     string            `json:"name"`
	Builtin  bool              `json:"builtin"`
	Versions []profile.Version `json:"versions"`
}

// Data implements View.
func (v HistoryView) Data() any {
	versions := v.Versions
	if versions == nil {
		versions = []profile.Version{}
	}
	return historyDoc{Name: v.Name, Builtin: v.Builtin, Versions: versions}
}

func (v HistoryView) rows() [][]string {
	var rows [][]string
	for _, ver := range v.Versions {
		when := "-"
		if ver.Time != nil {
			when = ver.Time.UTC().Format(time.RFC3339)
		}
		cur := ""
		if ver.Current {
			cur = "current"
		}
		rows = append(rows, []string{when, ver.Event, ver.Digest, cur})
	}
	return rows
}

// Plain implements View: one version a line, tab-separated time,
// event, digest and "current" on the version in the store now.
func (v HistoryView) Plain(w *Writer) {
	for _, r := range v.rows() {
		if r[3] == "" {
			r = r[:3]
		}
		for i, cell := range r {
			if i > 0 {
				w.Raw("\t")
			}
			w.Raw(Escape(cell))
		}
		w.Raw("\n")
	}
}

// Tables implements View.
func (v HistoryView) Tables() []Table {
	return []Table{{
		Title:  "history of " + v.Name,
		Header: []string{"TIME", "EVENT", "DIGEST", "STATE"},
		Rows:   v.rows(),
		// A digest is shortened, as git shortens commit ids, when the
		// terminal is too narrow for it whole; plain and json keep it.
		Fits: []Fit{FitKeep, FitKeep, FitWrap, FitKeep},
	}}
}
