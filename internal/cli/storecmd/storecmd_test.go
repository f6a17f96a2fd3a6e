package storecmd

import (
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil/cmdtest"
	"github.com/agentsctl/agents/internal/errs"
)

func TestFlagsToOptions(t *testing.T) {
	c, err := cmdtest.Options(t, newCopyCmd, "--from", "/home/a", "--to", "postgres://db/agents", "--force")
	if err != nil || c.from != "/home/a" || c.to != "postgres://db/agents" || !c.force {
		t.Errorf("copy: %+v, %v", c, err)
	}
	if c, err := cmdtest.Options(t, newCopyCmd, "--from", "/home/a"); c != nil || !errs.Is(err, errs.KindUsage) {
		t.Errorf("copy without --to: %+v, %v", c, err)
	}
	if m, err := cmdtest.Options(t, newMigrateCmd); err != nil || m == nil {
		t.Errorf("migrate: %+v, %v", m, err)
	}
}

// TestMigrateFileStore: the file store needs no migration, and says so.
func TestMigrateFileStore(t *testing.T) {
	e := cmdtest.New(t, "json")
	err := e.Run(NewCmd(e.Deps), "migrate")
	if !errs.Is(err, errs.KindUsage) || !strings.Contains(err.Error(), "no PostgreSQL store to migrate") {
		t.Errorf("migrate of the file store: %v", err)
	}
}

// TestCopySameStore: a store is never copied onto itself.
func TestCopySameStore(t *testing.T) {
	e := cmdtest.New(t, "json")
	home := t.TempDir()
	err := e.Run(NewCmd(e.Deps), "copy", "--from", home, "--to", home+"/.")
	if !errs.Is(err, errs.KindUsage) || !strings.Contains(err.Error(), "name the same store") {
		t.Errorf("copy onto itself: %v", err)
	}
}
