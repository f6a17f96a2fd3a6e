package render

import (
	"encoding/json"
	"testing"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
)

// TestValidateReportHasEveryField: the json and yaml report gives every
// problem all its fields, a line it does not have (a file not found)
// included, as null, as every document does with what is unset.
func TestValidateReportHasEveryField(t *testing.T) {
	v := ValidateView{Reports: []FileReport{
		{File: "ok.yaml", Valid: true},
		{File: "bad.yaml", Outcome: OutcomeInvalid, Problems: []errs.Problem{
			{File: "bad.yaml", Path: "auto_aply", Line: 2, Message: "unknown field"},
		}},
		{File: "missing.yaml", Outcome: OutcomeMissing, Problems: []errs.Problem{
			{File: "missing.yaml", Message: "file not found: missing.yaml"},
		}},
	}}
	b, err := canon.CompactJSON(v.Data())
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d reports, want 3: %s", len(got), b)
	}
	for _, r := range got {
		for _, k := range []string{"file", "valid", "name", "problems", "warnings"} {
			if _, ok := r[k]; !ok {
				t.Errorf("report of %v has no %q: %s", r["file"], k, b)
			}
		}
	}
	problem := func(i int) map[string]any {
		ps, _ := got[i]["problems"].([]any)
		if len(ps) != 1 {
			t.Fatalf("report %d: %d problems, want 1: %s", i, len(ps), b)
		}
		p, _ := ps[0].(map[string]any)
		for _, k := range []string{"file", "path", "line", "message"} {
			if _, ok := p[k]; !ok {
				t.Errorf("problem of report %d has no %q: %s", i, k, b)
			}
		}
		return p
	}
	if line := problem(1)["line"]; line != float64(2) {
		t.Errorf("line of a problem at line 2 = %v", line)
	}
	if line, ok := problem(2)["line"]; !ok || line != nil {
		t.Errorf("line of a file not found = %v, want null", line)
	}
	if ps, ok := got[0]["problems"].([]any); !ok || len(ps) != 0 {
		t.Errorf("problems of a valid file = %v, want []", got[0]["problems"])
	}
}
