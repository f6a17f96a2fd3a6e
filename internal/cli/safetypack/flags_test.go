package safetypack

import (
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil/cmdtest"
	"github.com/agentsctl/agents/internal/errs"
)

// TestFlagsToOptions: each verb's flags and arguments, as its options
// hold them when the run function would start.
func TestFlagsToOptions(t *testing.T) {
	if show, err := cmdtest.Options(t, newShowCmd); err != nil || show == nil {
		t.Errorf("show: %+v, %v", show, err)
	}
	ratify, err := cmdtest.Options(t, newRatifyCmd, "acme_v1.json")
	if err != nil || ratify.file != "acme_v1.json" {
		t.Errorf("ratify: %+v, %v", ratify, err)
	}
	verify, err := cmdtest.Options(t, newVerifyCmd)
	if err != nil || verify.file != "" {
		t.Errorf("verify of the pack in force: %+v, %v", verify, err)
	}
	if verify, err := cmdtest.Options(t, newVerifyCmd, "a.json", "b.json"); verify != nil || !errs.Is(err, errs.KindUsage) {
		t.Errorf("verify of two files: %+v, %v", verify, err)
	}
	check, err := cmdtest.Options(t, newCheckCmd, "--plan", "01jq3v", "--context", "ctx.json", "--enforce")
	if err != nil || check.plan != "01jq3v" || check.contextFile != "ctx.json" || !check.enforce || check.profile != "" {
		t.Errorf("check: %+v, %v", check, err)
	}
	for _, args := range [][]string{{"--plan", "a", "--profile", "ci"}, {"--plan", ""}, {"--profile", ""}} {
		if check, err := cmdtest.Options(t, newCheckCmd, args...); check != nil || !errs.Is(err, errs.KindUsage) {
			t.Errorf("check %q: %+v, %v; want a usage error", args, check, err)
		}
	}
}
