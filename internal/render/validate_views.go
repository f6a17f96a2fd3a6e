package render

import (
	"fmt"

	"github.com/agentsctl/agents/internal/errs"
)

// FileReport is the outcome of checking one file with a validate command.
type FileReport struct {
	File  string `json:"file"`
	Valid bool   `json:"valid"`
	// Name is the document's name when it has one and the file is
	// valid, and null otherwise.
	Name     *string        `json:"name"`
	Problems []errs.Problem `json:"problems"`
	Warnings []string       `json:"warnings"`
	// Outcome is "" for a valid file, else why it is not.
	Outcome string `json:"-"`
}

// The outcomes of a file a validate command checked that is not valid.
const (
	OutcomeMissing  = "not found"
	OutcomeConflict = "conflict"
	OutcomeInvalid  = "invalid"
)

// ValidateView reports what a validate command found in each file.
type ValidateView struct{ Reports []FileReport }

// reportDoc is a FileReport as json and yaml print it.
type reportDoc struct {
	File     string          `json:"file"`
	Valid    bool            `json:"valid"`
	Name     *string         `json:"name"`
	Problems []reportProblem `json:"problems"`
	Warnings []string        `json:"warnings"`
}

// reportProblem is a problem as a report prints it: every field present,
// so line is null when the problem has none (a file not found).
type reportProblem struct {
	File    string `json:"file"`
	Path    string `json:"path"`
	Line    *int   `json:"line"`
	Message string `json:"message"`
}

// Data implements View.
func (v ValidateView) Data() any {
	docs := make([]reportDoc, len(v.Reports))
	for i, r := range v.Reports {
		d := reportDoc{File: r.File, Valid: r.Valid, Name: r.Name, Problems: make([]reportProblem, len(r.Problems)), Warnings: r.Warnings}
		if d.Warnings == nil {
			d.Warnings = []string{}
		}
		for j, p := range r.Problems {
			d.Problems[j] = reportProblem{File: p.File, Path: p.Path, Message: p.Message}
			if p.Line > 0 {
				d.Problems[j].Line = &p.Line
			}
		}
		docs[i] = d
	}
	return docs
}

// Plain implements View.
func (v ValidateView) Plain(w *Writer) {
	for _, r := range v.Reports {
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

// Tables implements View.
func (v ValidateView) Tables() []Table {
	t := Table{
		Header: []string{"FILE", "RESULT", "PROBLEM"},
		Fits:   []Fit{FitWrap, FitKeep, FitWrap},
	}
	for _, r := range v.Reports {
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
	return []Table{t}
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
	if r.Outcome == "" {
		return OutcomeInvalid
	}
	return r.Outcome
}
