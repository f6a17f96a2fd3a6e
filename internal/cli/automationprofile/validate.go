package automationprofile

import (
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
		Short: "Check profile files without registering them",
		Long: `Check one or more profile files with the same rules as 'add', report every
problem in each, and write nothing.

Exit status is 0 when every file is valid, 3 when any file is invalid, and 4
when a file does not exist.`,
		Example: `  $ agents automation-profile validate profiles/*.yaml
  $ agents automation-profile validate strict.yaml -f json | jq '.[].problems'`,
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
	Name     *string        `json:"name"`
	Problems []errs.Problem `json:"problems"`
	Warnings []string       `json:"warnings"`
	missing  bool
}

func checkFile(path string) fileReport {
	r := fileReport{File: path, Problems: []errs.Problem{}, Warnings: []string{}}
	data, err := profile.ReadFile(path)
	if err == nil {
		var p *profile.AutomationProfile
		var warnings []string
		p, warnings, err = profile.DecodeProfile(data, path)
		r.Warnings = append(r.Warnings, warnings...)
		if err == nil {
			r.Valid = true
			r.Name = &p.Name
			return r
		}
	}
	r.missing = errs.Is(err, errs.KindNotFound)
	if e, ok := err.(*errs.Error); ok && len(e.Problems) > 0 {
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
			deps.Warn("%s", w)
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
		w.Line(r.File, ": invalid")
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
				result = "invalid"
			}
			t.Rows = append(t.Rows, []string{r.File, result, p.String()})
		}
	}
	return []render.Table{t}
}
