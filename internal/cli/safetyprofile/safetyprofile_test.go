package safetyprofile

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil/cmdtest"
	"github.com/agentsctl/agents/internal/errs"
)

func TestFlagsToOptions(t *testing.T) {
	v, err := cmdtest.Options(t, newValidateCmd, "a.yaml", "b.yaml")
	if err != nil || strings.Join(v.files, " ") != "a.yaml b.yaml" {
		t.Errorf("validate: %+v, %v", v, err)
	}
	if v, err := cmdtest.Options(t, newValidateCmd); v != nil || !errs.Is(err, errs.KindUsage) {
		t.Errorf("validate without a file: %+v, %v", v, err)
	}
	s, err := cmdtest.Options(t, newShowCmd, "deploy.yaml")
	if err != nil || s.file != "deploy.yaml" {
		t.Errorf("show: %+v, %v", s, err)
	}
	if s, err := cmdtest.Options(t, newShowCmd, "a.yaml", "b.yaml"); s != nil || !errs.Is(err, errs.KindUsage) {
		t.Errorf("show of two files: %+v, %v", s, err)
	}
}

func TestValidateAndShow(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.yaml", "require_human_approval: true\nmax_cost_per_plan: 12.5\n")
	bad := write("bad.yaml", "require_sandbox: yes\nmax_retries_per_step: 101\n")

	e := cmdtest.New(t, "json")
	if err := e.Run(NewCmd(e.Deps), "show", good); err != nil {
		t.Fatal(err)
	}
	var shown map[string]any
	if err := json.Unmarshal(e.Out.Bytes(), &shown); err != nil || shown["require_human_approval"] != true ||
		shown["require_sandbox"] != true || shown["max_retries_per_step"] != 3.0 {
		t.Errorf("show = %v (%v)", shown, err)
	}

	e.Out.Reset()
	err := e.Run(NewCmd(e.Deps), "validate", good, bad, filepath.Join(dir, "none.yaml"))
	if !errs.Is(err, errs.KindNotFound) {
		t.Errorf("validate with a missing file: %v, want not found (it wins over invalid)", err)
	}
	var reports []struct {
		File     string
		Valid    bool
		Problems []struct{ Path, Message string }
	}
	if err := json.Unmarshal(e.Out.Bytes(), &reports); err != nil || len(reports) != 3 {
		t.Fatalf("validate printed %s (%v)", e.Out, err)
	}
	if !reports[0].Valid || reports[1].Valid || len(reports[1].Problems) != 2 {
		t.Errorf("reports = %+v", reports)
	}
	e.Out.Reset()
	if err := e.Run(NewCmd(e.Deps), "validate", bad); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("validate of an invalid file: %v", err)
	}
	if err := e.Run(NewCmd(e.Deps), "show", bad); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("show of an invalid file: %v", err)
	}
	// A file under 1 MiB whose stored form (a line for each list item)
	// would pass it: no plan could keep it, so it is not valid.
	var b strings.Builder
	b.WriteString("allowed_skill_categories: [")
	for i := range 111_111 {
		fmt.Fprintf(&b, "c%06d, ", i)
	}
	b.WriteString("]\n")
	inline := write("inline.yaml", b.String())
	e.Out.Reset()
	if err := e.Run(NewCmd(e.Deps), "validate", inline); !errs.Is(err, errs.KindInvalid) || !strings.Contains(e.Out.String(), "as stored, over the") {
		t.Errorf("validate of a file whose stored form passes 1 MiB: %v\n%s", err, e.Out.String())
	}
}
