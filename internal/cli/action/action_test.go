package action

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil/cmdtest"
	"github.com/agentsctl/agents/internal/errs"
)

func TestFlagsToOptions(t *testing.T) {
	add, err := cmdtest.Options(t, newAddCmd, "-c", "deploy.yaml", "--update")
	if err != nil || add.config != "deploy.yaml" || !add.update {
		t.Errorf("add: %+v, %v", add, err)
	}
	if add, err := cmdtest.Options(t, newAddCmd); add != nil || !errs.Is(err, errs.KindUsage) || !strings.Contains(err.Error(), "--config is required") {
		t.Errorf("add without --config: %+v, %v", add, err)
	}
	if add, err := cmdtest.Options(t, newAddCmd, "-c", "a.yaml", "extra"); add != nil || !errs.Is(err, errs.KindUsage) {
		t.Errorf("add with an argument: %+v, %v", add, err)
	}
	rm, err := cmdtest.Options(t, newRemoveCmd, "local/deploy", "-y")
	if err != nil || rm.name != "local/deploy" || !rm.yes {
		t.Errorf("remove: %+v, %v", rm, err)
	}
	if rm, err := cmdtest.Options(t, newRemoveCmd); rm != nil || !errs.Is(err, errs.KindUsage) {
		t.Errorf("remove without a name: %+v, %v", rm, err)
	}
	ls, err := cmdtest.Options(t, newListCmd, "dep", "-n", "local")
	if err != nil || ls.filter.Regex != "dep" || ls.filter.Namespace != "local" {
		t.Errorf("list: %+v, %v", ls, err)
	}
	show, err := cmdtest.Options(t, newShowCmd, "local/deploy")
	if err != nil || show.name != "local/deploy" {
		t.Errorf("show: %+v, %v", show, err)
	}
}

const deploy = `name: local/deploy
description: Deploy the site
definition_of_done: Deployed
strategy_actor: local/default
execution_actor: local/default
automation_profile: cautious
`

// TestActionVerbs adds, shows, lists and removes an action through the
// command group, as a person would.
func TestActionVerbs(t *testing.T) {
	e := cmdtest.New(t, "json")
	file := filepath.Join(t.TempDir(), "deploy.yaml")
	if err := os.WriteFile(file, []byte(deploy), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := e.Run(NewCmd(e.Deps), "add", "-c", file); err != nil {
		t.Fatal(err)
	}
	var added struct{ Name, AutomationProfile string }
	if err := json.Unmarshal(e.Out.Bytes(), &added); err != nil || added.Name != "local/deploy" {
		t.Fatalf("add printed %s (%v)", e.Out, err)
	}
	if _, err := e.Store.Actions().Get(context.Background(), "local/deploy"); err != nil {
		t.Fatalf("not stored: %v", err)
	}
	if err := e.Run(NewCmd(e.Deps), "add", "-c", file); !errs.Is(err, errs.KindConflict) {
		t.Errorf("a second add without --update: %v", err)
	}
	e.Out.Reset()
	e.Deps.Config.Format = "plain"
	if err := e.Run(NewCmd(e.Deps), "list"); err != nil || strings.TrimSpace(e.Out.String()) != "local/deploy" {
		t.Errorf("list -f plain: %q, %v", e.Out, err)
	}
	e.Out.Reset()
	e.Deps.Config.Format = "json"
	if err := e.Run(NewCmd(e.Deps), "show", "local/deploy"); err != nil || !strings.Contains(e.Out.String(), `"definition_of_done": "Deployed"`) {
		t.Errorf("show: %s, %v", e.Out, err)
	}
	if err := e.Run(NewCmd(e.Deps), "show", "local/deplo"); !errs.Is(err, errs.KindNotFound) {
		t.Errorf("show of a misspelt name: %v", err)
	}
	if err := e.Run(NewCmd(e.Deps), "remove", "local/deploy"); !errs.Is(err, errs.KindUsage) {
		t.Errorf("remove without --yes, not at a terminal: %v", err)
	}
	if err := e.Run(NewCmd(e.Deps), "remove", "local/deploy", "--yes"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Store.Actions().Get(context.Background(), "local/deploy"); !errs.Is(err, errs.KindNotFound) {
		t.Errorf("after remove: %v", err)
	}
	// An action that names a profile nobody registered is refused.
	if err := os.WriteFile(file, []byte(strings.Replace(deploy, "cautious", "acme/none", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := e.Run(NewCmd(e.Deps), "add", "-c", file); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), `"acme/none", which does not exist`) {
		t.Errorf("add naming a missing profile: %v", err)
	}
}
