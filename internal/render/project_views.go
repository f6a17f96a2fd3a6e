package render

// TrustedProject is one project whose agents.yaml a hook may use.
type TrustedProject struct {
	// Project is the project's folder.
	Project string `json:"project"`
	// Pinned reports whether trust lasts only while agents.yaml is
	// unchanged (false for a plain path written into config.yaml by hand).
	Pinned bool `json:"pinned"`
	// SHA256 is the digest agents.yaml must have: null when trust is not
	// pinned, or when the folder had no agents.yaml (and must have none).
	SHA256 *string `json:"sha256"`
}

// ProjectListView renders the trusted projects.
type ProjectListView struct {
	Projects []TrustedProject
}

// Data implements View: an array of documents, [] when empty.
func (v ProjectListView) Data() any { return nonNil(v.Projects) }

// Plain implements View: one folder per line.
func (v ProjectListView) Plain(w *Writer) {
	plainLines(w, v.Projects, func(p TrustedProject) string { return p.Project })
}

// pinnedTo says in words what a project's trust is pinned to.
func (p TrustedProject) pinnedTo() string {
	switch {
	case !p.Pinned:
		return "any content (not pinned)"
	case p.SHA256 == nil:
		return "no agents.yaml"
	default:
		return "sha256 " + *p.SHA256
	}
}

func (v ProjectListView) table() Table {
	t := Table{Header: []string{"PROJECT", "AGENTS.YAML PINNED TO"}, Fits: []Fit{FitWrap, FitShrink}}
	for _, p := range v.Projects {
		t.Rows = append(t.Rows, []string{p.Project, p.pinnedTo()})
	}
	return t
}

// Tables implements View.
func (v ProjectListView) Tables() []Table { return []Table{v.table()} }

// Rich implements RichView.
func (v ProjectListView) Rich(t *Theme) string {
	if len(v.Projects) == 0 {
		return t.Muted("no trusted projects") + "\n"
	}
	tb := v.table()
	tb.Title = "Trusted projects"
	return t.Table(tb, func(row, col int) Tone {
		if col == 1 && !v.Projects[row].Pinned {
			return ToneWarn
		}
		return ToneNormal
	})
}
