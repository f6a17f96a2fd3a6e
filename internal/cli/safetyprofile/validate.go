package safetyprofile

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
)

type validateOptions struct {
	deps  *cmdutil.Deps
	files []string
}

func newValidateCmd(deps *cmdutil.Deps, runF func(*validateOptions) error) *cobra.Command {
	opts := &validateOptions{deps: deps}
	cmd := &cobra.Command{
		Use:   "validate <file>...",
		Short: "Check standalone safety profile files",
		Long: `Check one or more standalone safety profile files, report every problem in
each, and write nothing.

EXIT STATUS
  0    every file is valid
  3    a file is invalid
  4    a file does not exist (this wins over 3)`,
		Example: `  $ agents safety-profile validate examples/safety-profiles/*.yaml
  $ agents safety-profile validate deploy.yaml -f json | jq '.[].problems'`,
		Args: cmdutil.MinimumArgs(1, "at least one file to validate"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.files = args
			if runF != nil {
				return runF(opts)
			}
			return validateRun(opts)
		},
	}
	return cmd
}

// fileReport is the outcome of checking one file.
type fileReport struct {
	File     string         `json:"file"`
	Valid    bool           `json:"valid"`
	Problems []errs.Problem `json:"problems"`
	Warnings []string       `json:"warnings"`
	missing  bool
}

func checkFile(path string) fileReport {
	r := fileReport{File: path, Problems: []errs.Problem{}, Warnings: []string{}}
	_, warnings, err := profile.LoadSafetyProfile(path)
	r.Warnings = append(r.Warnings, warnings...)
	if err == nil {
		r.Valid = true
		return r
	}
	r.missing = errs.Is(err, errs.KindNotFound)
	var e *errs.Error
	if errors.As(err, &e) && len(e.Problems) > 0 {
		r.Problems = append(r.Problems, e.Problems...)
	} else {
		r.Problems = append(r.Problems, errs.Problem{File: path, Message: err.Error()})
	}
	return r
}

func validateRun(opts *validateOptions) error {
	deps := opts.deps
	reports := make([]fileReport, 0, len(opts.files))
	invalid, missing := 0, 0
	for _, f := range opts.files {
		r := checkFile(f)
		for _, w := range r.Warnings {
			deps.Warn("%s: %s", f, w)
		}
		switch {
		case r.missing:
			missing++
		case !r.Valid:
			invalid++
		}
		reports = append(reports, r)
	}
	if err := deps.Render(validateView{reports}); err != nil {
		return err
	}
	switch {
	case missing > 0:
		return errs.NotFound("%s not found", countFiles(missing, len(reports)))
	case invalid > 0:
		return errs.Invalid("%s invalid", countFiles(invalid, len(reports)))
	}
	return nil
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

type validateView struct{ reports []fileReport }

func (v validateView) Data() any { return v.reports }

func (v validateView) Plain(w *render.Writer) {
	for _, r := range v.reports {
		if r.Valid {
			w.Line(r.File, ": ok")
			continue
		}
		w.Line(r.File, ": ", pick(r.missing, "not found", "invalid"))
		for _, p := range r.Problems {
			p.File = ""
			w.Line("  ", p.String())
		}
	}
}

func (v validateView) Tables() []render.Table {
	t := render.Table{Header: []string{"FILE", "RESULT", "PROBLEM"}}
	for _, r := range v.reports {
		if r.Valid {
			t.Rows = append(t.Rows, []string{r.File, "ok", ""})
			continue
		}
		for i, p := range r.Problems {
			p.File = ""
			result := ""
			if i == 0 {
				result = pick(r.missing, "not found", "invalid")
			}
			t.Rows = append(t.Rows, []string{r.File, result, p.String()})
		}
	}
	return []render.Table{t}
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}
