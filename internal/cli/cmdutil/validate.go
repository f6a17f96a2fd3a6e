package cmdutil

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/storeurl"
)

// CheckFunc checks the content of one file, called file in messages: the
// document's name (or "" when the kind has none), the decoder's warnings,
// and the error that made it invalid.
type CheckFunc func(data []byte, file string) (name string, warnings []string, err error)

// StdinOnce refuses, as a usage error, files that name standard input
// more than once: it can be read only once.
func StdinOnce(files []string) error {
	if i := slices.Index(files, Stdin); i >= 0 && slices.Contains(files[i+1:], Stdin) {
		return errs.Usage("%q (standard input) is given more than once", Stdin).
			WithHint("name standard input once; it can be read only once")
	}
	return nil
}

// ValidateFiles checks every file ("-" is standard input, which can be
// read once), prints a report of all of them, warns
// about each decoder warning on stderr, and returns an error that sets the
// exit status: not found (4) when a file is missing, which wins over
// invalid (3) when one is invalid, which wins over conflict (5) when a
// file is well formed but would be refused by the command that registers
// it (a built-in name, as add refuses it).
func ValidateFiles(ui *UI, files []string, check CheckFunc) error {
	if err := StdinOnce(files); err != nil {
		return err
	}
	reports := make([]render.FileReport, 0, len(files))
	invalid, missing, conflict := 0, 0, 0
	var missed []string
	for _, f := range files {
		r := checkOne(ui, f, check)
		for _, w := range r.Warnings {
			ui.Warn("%s", w)
		}
		switch r.Outcome {
		case render.OutcomeMissing:
			missing++
			missed = append(missed, r.File)
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
	err := validateError(reports, missed, invalid, conflict)
	if err != nil && render.IsMachine(ui.Format()) {
		// The error of -f json and -f yaml carries every failing file's
		// problems, as any invalid input's does; the text formats have
		// just shown them in the report.
		for _, r := range reports {
			if !r.Valid {
				err.Problems = append(err.Problems, r.Problems...)
			}
		}
	}
	if err == nil {
		return nil
	}
	return err
}

// validateError is the error of a validation, nil when every file passed.
func validateError(reports []render.FileReport, missed []string, invalid, conflict int) *errs.Error {
	missing := len(missed)
	switch {
	case missing > 0:
		// The message names the files not found, so that it says what
		// to fix without the report (which -f json leaves on stdout).
		msg, hint := "file "+missed[0]+" not found", "check the file's path"
		if len(reports) > 1 {
			msg = fmt.Sprintf("%s not found: %s", countFiles(missing, len(reports)), strings.Join(missed, ", "))
		}
		if missing > 1 {
			hint = "check the path of each file not found"
		}
		return errs.NotFound("%s%s", msg, alsoFailing(invalid, conflict)).WithHint("%s", hint)
	case invalid > 0:
		return errs.Invalid("%s invalid%s", countFiles(invalid, len(reports)), alsoFailing(0, conflict)).
			WithHint("fix the problems the report lists (each with its file, line and field), then validate again")
	case conflict > 0:
		return errs.Conflict("%s in conflict: registering it would be refused", countFiles(conflict, len(reports))).
			WithHint("give each profile a custom namespace/name: the built-in names are reserved")
	}
	return nil
}

func checkOne(ui *UI, path string, check CheckFunc) render.FileReport {
	data, file, err := ui.ReadInput(path)
	r := render.FileReport{File: file, Problems: []errs.Problem{}, Warnings: []string{}}
	var name string
	if err == nil {
		var warnings []string
		name, warnings, err = check(data, file)
		r.Warnings = append(r.Warnings, warnings...)
	}
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
		r.Problems = append(r.Problems, errs.Problem{File: file, Message: err.Error()})
	}
	// A problem quotes what was typed or written (a file name, a value):
	// a store URL there keeps its password hidden, as in an error.
	r.File = storeurl.RedactValue(r.File)
	for i, p := range r.Problems {
		r.Problems[i].File, r.Problems[i].Path, r.Problems[i].Message = storeurl.RedactValue(p.File), storeurl.RedactValue(p.Path), storeurl.RedactText(p.Message)
	}
	return r
}

// alsoFailing says how many other files failed, and how, beside those
// the exit status speaks of ("" when none did): the message names every
// failure, since with -f json the report is on stdout.
func alsoFailing(invalid, conflict int) string {
	var also []string
	if invalid > 0 {
		also = append(also, fmt.Sprintf("%d invalid", invalid))
	}
	if conflict > 0 {
		also = append(also, fmt.Sprintf("%d in conflict", conflict))
	}
	if len(also) == 0 {
		return ""
	}
	return " (and " + strings.Join(also, ", ") + ": see the report)"
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
