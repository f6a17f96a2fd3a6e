package cmdutil

import (
	"errors"
	"fmt"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
)

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
	reports := make([]render.FileReport, 0, len(files))
	invalid, missing, conflict := 0, 0, 0
	for _, f := range files {
		r := checkOne(f, check)
		for _, w := range r.Warnings {
			ui.Warn("%s", w)
		}
		switch r.Outcome {
		case render.OutcomeMissing:
			missing++
		case render.OutcomeConflict:
			conflict++
		case render.OutcomeInvalid:
			invalid++
		}
		reports = append(reports, r)
	}
	if err := ui.Render(render.ValidateView{Reports: reports}); err != nil {
		return err
	}
	switch {
	case missing > 0:
		return errs.NotFound("%s not found", countFiles(missing, len(reports)))
	case invalid > 0:
		return errs.Invalid("%s invalid", countFiles(invalid, len(reports))).
			WithHint("fix the problems the report lists (each with its file, line and field), then validate again")
	case conflict > 0:
		return errs.Conflict("%s in conflict: registering it would be refused", countFiles(conflict, len(reports))).
			WithHint("give each profile a custom namespace/name: the built-in names are reserved")
	}
	return nil
}

func checkOne(path string, check CheckFunc) render.FileReport {
	r := render.FileReport{File: path, Problems: []errs.Problem{}, Warnings: []string{}}
	name, warnings, err := check(path)
	r.Warnings = append(r.Warnings, warnings...)
	if err == nil {
		r.Valid = true
		if name != "" {
			r.Name = &name
		}
		return r
	}
	switch {
	case errs.Is(err, errs.KindNotFound):
		r.Outcome = render.OutcomeMissing
	case errs.Is(err, errs.KindConflict):
		r.Outcome = render.OutcomeConflict
	default:
		r.Outcome = render.OutcomeInvalid
	}
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
