package cmdutil

import (
	"errors"
	"fmt"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
)

// FileReport is the outcome of checking one file with a validate command.
type FileReport struct {
	File  string `json:"file"`
	Valid bool   `json:"valid"`
	// Name is the document's name when it has one and the file is valid.
	Name     *string        `json:"name,omitempty"`
	Problems []errs.Problem `json:"problems"`
	Warnings []string       `json:"warnings"`
	missing  bool
	conflict bool
}

// CheckFunc checks one file: the document's name (or "" when the kind has
// none), the decoder's warnings, and the error that made it invalid.
type CheckFunc func(path string) (name string, warnings []string, err error)

// ValidateFiles checks every file, prints a report of all of them, warns
// about each decoder warning on stderr, and returns an error that sets the
// exit status: not found (4) when a file is missing, which wins over
// invalid (3) when one is invalid, which wins over conflict (5) when a
// file is well formed but would be refused by the command that registers
// it (a built-in name, as add refuses it).
func ValidateFiles(ui *UI, files []string, check CheckFunc) error {
	reports := make([]FileReport, 0, len(files))
	invalid, missing, conflict := 0, 0, 0
	for _, f := range files {
		r := checkOne(f, check)
		for _, w := range r.Warnings {
			ui.Warn("%s", w)
		}
		switch {
		case r.missing:
			missing++
		case r.conflict:
			conflict++
		case !r.Valid:
			invalid++
		}
		reports = append(reports, r)
	}
	if err := ui.Render(validateView{reports}); err != nil {
		return err
	}
	switch {
	case missing > 0:
		return errs.NotFound("%s not found", countFiles(missing, len(reports)))
	case invalid > 0:
		return errs.Invalid("%s invalid", countFiles(invalid, len(reports)))
	case conflict > 0:
		return errs.Conflict("%s in conflict: registering it would be refused", countFiles(conflict, len(reports))).
			WithHint("give each profile a custom namespace/name: the built-in names are reserved")
	}
	return nil
}

func checkOne(path string, check CheckFunc) FileReport {
	r := FileReport{File: path, Problems: []errs.Problem{}, Warnings: []string{}}
	name, warnings, err := check(path)
	r.Warnings = append(r.Warnings, warnings...)
	if err == nil {
		r.Valid = true
		if name != "" {
			r.Name = &name
		}
		return r
	}
	r.missing = errs.Is(err, errs.KindNotFound)
	r.conflict = errs.Is(err, errs.KindConflict)
	var e *errs.Error
	if errors.As(err, &e) && len(e.Problems) > 0 {
		r.Problems = append(r.Problems, e.Problems...)
	} else {
		r.Problems = append(r.Problems, errs.Problem{File: path, Message: err.Error()})
	}
	return r
}

func countFiles(n, total int) string {
	if total == 1 {
		return "the file is"
	}
	if n == 1 {
		return fmt.Sprintf("1 of %d files is", total)
	}
	return fmt.Sprintf("%d of %d files are", n, total)
}

type validateView struct{ reports []FileReport }

func (v validateView) Data() any { return v.reports }

func (v validateView) Plain(w *render.Writer) {
	for _, r := range v.reports {
		if r.Valid {
			w.Line(r.File, ": ok")
			continue
		}
		w.Line(r.File, ": ", r.result())
		for _, p := range r.Problems {
			w.Line("  ", problemText(p))
		}
	}
}

func (v validateView) Tables() []render.Table {
	t := render.Table{
		Header: []string{"FILE", "RESULT", "PROBLEM"},
		Fits:   []render.Fit{render.FitWrap, render.FitKeep, render.FitWrap},
	}
	for _, r := range v.reports {
		if r.Valid {
			t.Rows = append(t.Rows, []string{r.File, "ok", ""})
			continue
		}
		for i, p := range r.Problems {
			result := ""
			if i == 0 {
				result = r.result()
			}
			t.Rows = append(t.Rows, []string{r.File, result, problemText(p)})
		}
	}
	return []render.Table{t}
}

// problemText is a problem without its file, which the report names, and
// with its line when it has one, as add and every error print it.
func problemText(p errs.Problem) string {
	line := p.Line
	p.File, p.Line = "", 0
	if line > 0 {
		return fmt.Sprintf("line %d: %s", line, p.String())
	}
	return p.String()
}

func (r FileReport) result() string {
	switch {
	case r.missing:
		return "not found"
	case r.conflict:
		return "conflict"
	}
	return "invalid"
}
