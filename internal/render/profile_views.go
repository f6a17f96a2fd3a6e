package render

import (
	"strconv"

	"github.com/agentsctl/agents/internal/profile"
)

// ProfileView renders one automation profile.
type ProfileView struct {
	Profile *profile.AutomationProfile
}

// Data implements View.
func (v ProfileView) Data() any { return v.Profile }

// Plain implements View.
func (v ProfileView) Plain(w *Writer) {
	p := v.Profile
	w.Field("name", p.Name)
	w.Field("description", p.Description)
	w.Field("schema_version", p.SchemaVersion)
	for _, g := range profile.Gates {
		w.Field(g.Name, FormatFloat(g.Value(p)))
	}
	s := p.Safety
	w.Field("safety.require_sandbox", strconv.FormatBool(s.RequireSandbox))
	w.Field("safety.require_checkpoints", strconv.FormatBool(s.RequireCheckpoints))
	w.Field("safety.allow_unsafe_tools", strconv.FormatBool(s.AllowUnsafeTools))
	w.Field("safety.require_human_approval", strconv.FormatBool(s.RequireHumanApproval))
}

// Tables implements View.
func (v ProfileView) Tables() []Table {
	p := v.Profile
	t := Table{Title: p.Name, Header: []string{"FIELD", "VALUE"}}
	for _, g := range profile.Gates {
		t.Rows = append(t.Rows, []string{g.Name, FormatFloat(g.Value(p))})
	}
	return []Table{t}
}

// ProfileListView renders a list of automation profiles.
type ProfileListView struct {
	Profiles []*profile.AutomationProfile
}

// Data implements View: always an array, [] when empty.
func (v ProfileListView) Data() any {
	if v.Profiles == nil {
		return []*profile.AutomationProfile{}
	}
	return v.Profiles
}

// Plain implements View: one name per line.
func (v ProfileListView) Plain(w *Writer) {
	for _, p := range v.Profiles {
		w.Line(p.Name)
	}
}

// Tables implements View.
func (v ProfileListView) Tables() []Table {
	t := Table{Header: []string{"NAME", "DESCRIPTION"}}
	for _, p := range v.Profiles {
		t.Rows = append(t.Rows, []string{p.Name, p.Description})
	}
	return []Table{t}
}

// FormatFloat formats a number in its shortest form with at least one
// decimal (1.0, 0.7, 12.5).
func FormatFloat(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	for _, c := range s {
		if c == '.' {
			return s
		}
	}
	return s + ".0"
}
