package cmdutil

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render/rendertest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/widths")

// TestValidateViewFitsEveryWidth draws validate's report at each common
// terminal width; see rendertest.Check.
func TestValidateViewFitsEveryWidth(t *testing.T) {
	v := validateView{reports: []FileReport{
		{File: "profiles/strict.yaml", Valid: true},
		{File: "/home/someone/projects/website/profiles/guarded-release.yaml", Problems: []errs.Problem{
			{File: "guarded-release.yaml", Path: "auto_aply", Line: 2, Message: `unknown field "auto_aply" (did you mean "auto_apply"?)`},
			{File: "guarded-release.yaml", Path: "safety.max_retries_per_step", Line: 14, Message: "must be between 0 and 100, got 101"},
		}},
		{File: "missing.yaml", missing: true, Problems: []errs.Problem{{File: "missing.yaml", Message: "file not found: missing.yaml"}}},
	}}
	rendertest.Check(t, filepath.Join("testdata", "widths"), "validate", v, *update)
}
