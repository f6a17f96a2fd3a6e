package automationprofile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/cli/cmdutil/cmdtest"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

// parsed returns what the verb newCmd makes of args, formatted by show,
// or the error of a refusal.
func parsed[T any](t *testing.T, newCmd func(*cmdutil.Deps, func(*T) error) *cobra.Command, show func(*T) string, args ...string) string {
	t.Helper()
	o, err := cmdtest.Options(t, newCmd, args...)
	if err != nil {
		return "error " + errs.KindOf(err).Code() + ": " + err.Error()
	}
	return show(o)
}

// TestFlagsToOptions: each verb's flags and arguments, as its options
// hold them when the run function would start.
func TestFlagsToOptions(t *testing.T) {
	tests := []struct {
		name string
		got  func(t *testing.T) string
		want string
	}{
		{"add", func(t *testing.T) string {
			return parsed(t, newAddCmd, func(o *addOptions) string { return fmt.Sprint(o.config, " ", o.update) }, "-c", "-", "--update")
		}, "- true"},
		{"add without --config", func(t *testing.T) string {
			return parsed(t, newAddCmd, func(o *addOptions) string { return o.config })
		}, "error usage: --config is required"},
		{"remove", func(t *testing.T) string {
			return parsed(t, newRemoveCmd, func(o *removeOptions) string { return fmt.Sprint(o.name, " ", o.yes) }, "acme/x", "--yes")
		}, "acme/x true"},
		{"list", func(t *testing.T) string {
			return parsed(t, newListCmd, func(o *listOptions) string { return o.filter.Regex + " " + o.filter.Namespace }, "^caut", "--namespace", "acme")
		}, "^caut acme"},
		{"show", func(t *testing.T) string {
			return parsed(t, newShowCmd, func(o *showOptions) string { return o.name }, "cautious")
		}, "cautious"},
		{"history", func(t *testing.T) string {
			return parsed(t, newHistoryCmd, func(o *historyOptions) string { return o.name }, "acme/x")
		}, "acme/x"},
		{"validate", func(t *testing.T) string {
			return parsed(t, newValidateCmd, func(o *validateOptions) string { return strings.Join(o.files, ",") }, "a.yaml", "b.yaml")
		}, "a.yaml,b.yaml"},
		{"migrate", func(t *testing.T) string {
			return parsed(t, newMigrateCmd, func(o *migrateOptions) string { return fmt.Sprint(o.files, " ", o.write) }, "old.yaml", "--write")
		}, "[old.yaml] true"},
		{"check-gate", func(t *testing.T) string {
			return parsed(t, newCheckGateCmd, func(o *checkGateOptions) string {
				return fmt.Sprint(o.profile, " ", o.plan, " ", o.gate.Name, " ", o.confidence)
			}, "cautious", "auto_apply", "--confidence", "0.8")
		}, "cautious  auto_apply 0.8"},
		{"check-gate under a plan", func(t *testing.T) string {
			return parsed(t, newCheckGateCmd, func(o *checkGateOptions) string { return o.plan + " " + o.gate.Name },
				"--plan", "01jq3v6m4x8b2c7d9e0f1g2h3k", "auto_execute", "--confidence", "0.1")
		}, "01jq3v6m4x8b2c7d9e0f1g2h3k auto_execute"},
		{"check-gate with a confidence of 80", func(t *testing.T) string {
			return parsed(t, newCheckGateCmd, func(o *checkGateOptions) string { return "" }, "cautious", "auto_apply", "--confidence", "80")
		}, "error usage: --confidence must be a number from 0 to 1, got 80"},
		{"check-guard", func(t *testing.T) string {
			return parsed(t, newCheckGuardCmd, func(o *checkGuardOptions) string {
				return fmt.Sprintf("%s %s %d %v %v", o.profile, o.input.Tool, o.input.Calls, o.input.Write, o.input.HasPlanCost)
			}, "ci", "--tool", "edit", "--calls", "3", "--write")
		}, "ci edit 3 true false"},
		{"diff", func(t *testing.T) string {
			return parsed(t, newDiffCmd, func(o *diffOptions) string { return fmt.Sprint(o.names, o.builtin, o.onlyDifferences) }, "review", "cautious", "--only-differences")
		}, "[review cautious] false true"},
		{"diff --builtin", func(t *testing.T) string {
			return parsed(t, newDiffCmd, func(o *diffOptions) string { return fmt.Sprint(o.names, o.builtin) }, "--builtin")
		}, "[] true"},
		{"diff of one", func(t *testing.T) string {
			return parsed(t, newDiffCmd, func(o *diffOptions) string { return "" }, "review")
		}, "error usage: name at least two profiles to compare"},
		{"schema", func(t *testing.T) string {
			return parsed(t, newSchemaCmd, func(o *schemaOptions) string { return o.kind }, "--kind", "action")
		}, "action"},
		{"resolve", func(t *testing.T) string {
			return parsed(t, newResolveCmd, func(o *resolveOptions) string {
				return strings.Join([]string{o.choices.Action, o.choices.Project, o.choices.AutomationProfile, o.choices.SafetyProfileFile}, ",")
			}, "--action", "local/deploy", "--project", "/p", "--automation-profile", "ci", "--safety-profile", "s.yaml")
		}, "local/deploy,/p,ci,s.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.got(t); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCheckGateHelpNamesEveryGate: the help's list of gates, written out
// by hand, names every gate there is, in their order.
func TestCheckGateHelpNamesEveryGate(t *testing.T) {
	cmd := newCheckGateCmd(cmdtest.New(t, "plain").Deps, nil)
	flat := strings.Join(strings.Fields(cmd.Long), " ")
	want := "The gates: " + strings.Join(profile.GateNames(), ", ") + "."
	if !strings.Contains(flat, want) {
		t.Errorf("check-gate help does not say %q", want)
	}
}
