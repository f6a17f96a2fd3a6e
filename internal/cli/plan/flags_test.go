package plan

import (
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil/cmdtest"
	"github.com/agentsctl/agents/internal/errs"
)

// TestFlagsToOptions: each verb's flags and arguments, as its options
// hold them when the run function would start.
func TestFlagsToOptions(t *testing.T) {
	use, err := cmdtest.Options(t, newUseCmd, "local/deploy", "--automation-profile", "ci", "--safety-profile", "s.yaml", "--project", "/p")
	if err != nil || strings.Join([]string{use.choices.Action, use.choices.AutomationProfile, use.choices.SafetyProfileFile, use.choices.Project}, ",") != "local/deploy,ci,s.yaml,/p" {
		t.Errorf("use: %+v, %v", use, err)
	}
	// The deprecated level is mapped to the profile that replaces it.
	use, err = cmdtest.Options(t, newUseCmd, "local/deploy", "--automation-level", "full_auto")
	if err != nil || use.choices.AutomationProfile != "full-auto" {
		t.Errorf("use --automation-level: %+v, %v", use, err)
	}
	for _, args := range [][]string{
		{"local/deploy", "--automation-level", "auto", "--automation-profile", "ci"},
		{"local/deploy", "--automation-level", "full-auto"},
		{"local/deploy", "--automation-profile", ""},
		{"local/deploy", "--safety-profile", ""},
		{},
	} {
		if use, err := cmdtest.Options(t, newUseCmd, args...); use != nil || !errs.Is(err, errs.KindUsage) {
			t.Errorf("use %q: %+v, %v; want a usage error", args, use, err)
		}
	}
	show, err := cmdtest.Options(t, newShowCmd, "01jq3v")
	if err != nil || show.id != "01jq3v" {
		t.Errorf("show: %+v, %v", show, err)
	}
	ls, err := cmdtest.Options(t, newListCmd, "--action", "local/deploy")
	if err != nil || ls.action != "local/deploy" {
		t.Errorf("list: %+v, %v", ls, err)
	}
	set, err := cmdtest.Options(t, newSetAutomationProfileCmd, "01jq3v", "cautious")
	if err != nil || set.id != "01jq3v" || set.profile != "cautious" {
		t.Errorf("set-automation-profile: %+v, %v", set, err)
	}
	if set, err := cmdtest.Options(t, newSetAutomationProfileCmd, "01jq3v", ""); set != nil || !errs.Is(err, errs.KindUsage) {
		t.Errorf("set-automation-profile to nothing: %+v, %v", set, err)
	}
	level, err := cmdtest.Options(t, newSetAutomationLevelCmd, "01jq3v", "supervised")
	if err != nil || level.id != "01jq3v" || level.profile != "supervised" {
		t.Errorf("set-automation-level: %+v, %v", level, err)
	}
}
