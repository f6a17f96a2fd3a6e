package project

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/cli/cmdutil/cmdtest"
	"github.com/agentsctl/agents/internal/errs"
)

func TestFlagsToOptions(t *testing.T) {
	for _, trust := range []bool{true, false} {
		newCmd := func(d *cmdutil.Deps, runF func(*trustOptions) error) *cobra.Command {
			return newTrustCmd(d, runF, trust)
		}
		o, err := cmdtest.Options(t, newCmd, "/src/shop")
		if err != nil || o.dir != "/src/shop" || o.trust != trust {
			t.Errorf("trust %v: %+v, %v", trust, o, err)
		}
		if o, err := cmdtest.Options(t, newCmd, "a", "b"); o != nil || !errs.Is(err, errs.KindUsage) {
			t.Errorf("trust %v of two folders: %+v, %v", trust, o, err)
		}
	}
	if o, err := cmdtest.Options(t, newListCmd); err != nil || o == nil {
		t.Errorf("list: %+v, %v", o, err)
	}
}

func TestTrustAndList(t *testing.T) {
	e := cmdtest.New(t, "json")
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "agents.yaml"), []byte("automation_profile: ci\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := e.Run(NewCmd(e.Deps), "trust", proj); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Project string
		SHA256  string
		Trusted bool
		Changed bool
	}
	if err := json.Unmarshal(e.Out.Bytes(), &doc); err != nil || !doc.Trusted || !doc.Changed {
		t.Fatalf("trust printed %s (%v)", e.Out, err)
	}
	e.Out.Reset()
	if err := e.Run(NewCmd(e.Deps), "list"); err != nil {
		t.Fatal(err)
	}
	var list []struct {
		Project string  `json:"project"`
		Pinned  bool    `json:"pinned"`
		SHA256  *string `json:"sha256"`
	}
	real, _ := filepath.EvalSymlinks(proj)
	if err := json.Unmarshal(e.Out.Bytes(), &list); err != nil || len(list) != 1 || list[0].Project != real ||
		!list[0].Pinned || list[0].SHA256 == nil || *list[0].SHA256 != doc.SHA256 || doc.SHA256 == "" {
		t.Errorf("list printed %s (%v), want %s pinned to %s", e.Out, err, real, doc.SHA256)
	}
}
