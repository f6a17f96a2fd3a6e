package automationprofile

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/suggest"
)

// parseGuardFlags runs the check-guard command's flag handling and returns
// the options it would run with.
func parseGuardFlags(t *testing.T, args ...string) (*checkGuardOptions, error) {
	t.Helper()
	ios, _, _, _ := iostreams.Test()
	deps := &cmdutil.Deps{IO: ios}
	var got *checkGuardOptions
	cmd := newCheckGuardCmd(deps, func(o *checkGuardOptions) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	_, err := cmd.ExecuteC()
	return got, err
}

func TestCheckGuardFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want profile.GuardInput
	}{
		{"tool only", []string{"ci", "--tool", "read"}, profile.GuardInput{Tool: "read", Attempt: 1}},
		{"every flag", []string{"ci", "--tool", "edit", "--calls", "3", "--cost", "1.5", "--plan-cost", "2", "--total-cost", "9",
			"--write", "--unsafe", "--category", "coding", "--attempt", "2", "--no-sandbox", "--no-checkpoint"},
			profile.GuardInput{Tool: "edit", Calls: 3, Cost: 1.5, PlanCost: 2, HasPlanCost: true, TotalCost: 9, HasTotalCost: true,
				Write: true, Unsafe: true, Category: "coding", Attempt: 2, NoSandbox: true, NoCheckpoint: true}},
		{"zero plan cost is stated", []string{"ci", "--tool", "t", "--plan-cost", "0"}, profile.GuardInput{Tool: "t", HasPlanCost: true, Attempt: 1}},
		{"equal nested costs", []string{"ci", "--tool", "t", "--cost", "2", "--plan-cost", "2", "--total-cost", "2"},
			profile.GuardInput{Tool: "t", Cost: 2, PlanCost: 2, HasPlanCost: true, TotalCost: 2, HasTotalCost: true, Attempt: 1}},
		{"total against an unstated plan cost", []string{"ci", "--tool", "t", "--cost", "2", "--total-cost", "2"},
			profile.GuardInput{Tool: "t", Cost: 2, TotalCost: 2, HasTotalCost: true, Attempt: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := parseGuardFlags(t, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			if o.input != tt.want {
				t.Errorf("input = %+v, want %+v", o.input, tt.want)
			}
			if o.profile != "ci" || o.stdinJSON || o.hook != "" {
				t.Errorf("options = %+v", o)
			}
		})
	}
}

func TestCheckGuardFlagErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"no tool", []string{"ci"}, "missing --tool"},
		{"blank tool", []string{"ci", "--tool", " "}, "--tool must not be blank"},
		{"padded tool", []string{"ci", "--tool", "read "}, "must not start or end with spaces"},
		{"invisible character in the tool", []string{"ci", "--tool", "shell_exec\u200b"}, `--tool "shell_exec\u200b" holds a control or invisible character (U+200B)`},
		{"control character in the tool", []string{"ci", "--tool", "shell_exec\x7f"}, "holds a control or invisible character (U+007F)"},
		{"variation selector in the tool", []string{"ci", "--tool", "shell\ufe0f"}, "holds a control or invisible character (U+FE0F)"},
		{"Hangul filler in the tool", []string{"ci", "--tool", "shell\u3164"}, "holds a control or invisible character (U+3164)"},
		{"bytes that are not UTF-8 in the tool", []string{"ci", "--tool", "shell_exec\xff"}, "holds a control or invisible character (U+FFFD)"},
		{"line separator in the tool", []string{"ci", "--tool", "read\u2028x"}, "holds a control or invisible character (U+2028)"},
		{"invisible character in the category", []string{"ci", "--tool", "t", "--category", "\ufeffdeploy"}, "holds a control or invisible character (U+FEFF)"},
		{"negative calls", []string{"ci", "--tool", "t", "--calls", "-1"}, "--calls must be 0 or more, got -1"},
		{"negative cost", []string{"ci", "--tool", "t", "--cost", "-0.5"}, "--cost must be a finite number of USD from 0, got -0.5"},
		{"NaN cost", []string{"ci", "--tool", "t", "--cost", "NaN"}, "--cost must be a finite number"},
		{"infinite total", []string{"ci", "--tool", "t", "--total-cost", "Inf"}, "--total-cost must be a finite number"},
		{"negative plan cost", []string{"ci", "--tool", "t", "--plan-cost", "-1"}, "--plan-cost must be a finite number"},
		{"plan cost below cost", []string{"ci", "--tool", "t", "--cost", "5", "--plan-cost", "4"}, "--plan-cost 4.0 is less than --cost 5.0"},
		{"total below plan cost", []string{"ci", "--tool", "t", "--plan-cost", "5", "--total-cost", "4"}, "--total-cost 4.0 is less than the plan's cost 5.0"},
		{"total below cost", []string{"ci", "--tool", "t", "--cost", "5", "--total-cost", "4"}, "--total-cost 4.0 is less than the plan's cost 5.0"},
		{"attempt 0", []string{"ci", "--tool", "t", "--attempt", "0"}, "--attempt must be 1 or more"},
		{"negative attempt", []string{"ci", "--tool", "t", "--attempt", "-2"}, "--attempt must be 1 or more"},
		{"blank category", []string{"ci", "--tool", "t", "--category", ""}, "--category must not be blank"},
		{"stdin-json with a flag", []string{"ci", "--stdin-json", "--tool", "t"}, "--stdin-json cannot be combined with --tool"},
		{"stdin-json with session flags", []string{"ci", "--stdin-json", "--no-sandbox", "--category", "x"}, "--stdin-json cannot be combined with --category, --no-sandbox"},
		{"stdin-json with hook", []string{"ci", "--stdin-json", "--hook", "claude-code"}, "--stdin-json and --hook cannot be combined"},
		{"unknown hook", []string{"ci", "--hook", "cursor"}, `unknown hook "cursor"`},
		{"sandboxed without hook", []string{"ci", "--tool", "t", "--sandboxed"}, "--sandboxed only applies with --hook"},
		{"print-config with plan", []string{"--plan", "01jq3v6m4x8b2c7d9e0f1g2h3k", "--hook", "codex", "--print-config"}, "--print-config cannot be combined with --plan"},
		{"checkpointed and no-checkpoint", []string{"--hook", "codex", "--checkpointed", "--no-checkpoint"}, "contradict"},
		{"hook with a call flag", []string{"ci", "--hook", "claude-code", "--tool", "Bash", "--write"}, "--hook cannot be combined with --tool, --write"},
		{"hook with a blank category", []string{"ci", "--hook", "claude-code", "--category", " "}, "--category must not be blank"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseGuardFlags(t, tt.args...)
			if !errs.Is(err, errs.KindUsage) {
				t.Fatalf("error %v, want a usage error", err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q, want it to contain %q", err, tt.msg)
			}
		})
	}
}

func TestCheckGuardHookSessionFlags(t *testing.T) {
	o, err := parseGuardFlags(t, "ci", "--hook", "claude-code", "--category", "coding", "--no-sandbox", "--no-checkpoint")
	if err != nil {
		t.Fatal(err)
	}
	want := profile.GuardInput{Category: "coding", NoSandbox: true, NoCheckpoint: true, Attempt: 1}
	if o.input != want || o.hook != "claude-code" {
		t.Errorf("options %+v, want input %+v with hook claude-code", o, want)
	}
}

func TestReadStdinCall(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want profile.GuardInput
	}{
		{"tool only", `{"tool": "read"}`, profile.GuardInput{Tool: "read"}},
		{"every key", `{"tool": "edit", "calls": 3, "cost": 1.5, "plan_cost": 2, "total_cost": 9, "write": true, "unsafe": false,
			"category": "coding", "attempt": 2, "no_sandbox": true, "no_checkpoint": true}`,
			profile.GuardInput{Tool: "edit", Calls: 3, Cost: 1.5, PlanCost: 2, HasPlanCost: true, TotalCost: 9, HasTotalCost: true,
				Write: true, Category: "coding", Attempt: 2, NoSandbox: true, NoCheckpoint: true}},
		{"surrounding white space", "\n  {\"tool\": \"t\"}\n\n", profile.GuardInput{Tool: "t"}},
		{"zero plan cost is stated", `{"tool": "t", "plan_cost": 0}`, profile.GuardInput{Tool: "t", HasPlanCost: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readStdinCall(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestReadStdinCallInvalid(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		problems []string // each must appear in one problem, in order
	}{
		{"empty", "", []string{"nothing was given"}},
		{"blank", " \n", []string{"nothing was given"}},
		{"not JSON", "tool=read", []string{"not JSON"}},
		{"truncated", `{"tool": "read"`, []string{"not valid JSON"}},
		{"array", `[{"tool": "read"}]`, []string{"expected one JSON object, got an array"}},
		{"string", `"read"`, []string{"expected one JSON object, got a string"}},
		{"two objects", `{"tool": "a"} {"tool": "b"}`, []string{"more than one JSON value"}},
		{"trailing garbage", `{"tool": "a"} x`, []string{"more than one JSON value"}},
		{"unknown key", `{"tool": "a", "cals": 3}`, []string{`cals: is not a known key (did you mean "calls"?)`}},
		{"unknown key far from any", `{"tool": "a", "zzzzzzzzzz": 3}`, []string{"zzzzzzzzzz: is not a known key"}},
		{"duplicate key", `{"tool": "a", "tool": "b"}`, []string{"tool: is given more than once"}},
		{"null", `{"tool": "a", "calls": null}`, []string{"calls: must not be null"}},
		{"string for a number", `{"tool": "a", "calls": "3"}`, []string{"calls: must be a whole number, got a string"}},
		{"fraction for a count", `{"tool": "a", "attempt": 1.5}`, []string{"attempt: must be a whole number, got the number 1.5"}},
		{"string for a bool", `{"tool": "a", "write": "yes"}`, []string{"write: must be true or false, got a string"}},
		{"number for a string", `{"tool": 7}`, []string{"tool: must be a string, got the number 7"}},
		{"object for a cost", `{"tool": "a", "cost": {}}`, []string{"cost: must be a number, got an object"}},
		{"overflowing cost", `{"tool": "a", "cost": 1e400}`, []string{"cost: must be a number that fits: 1e400 is out of range"}},
		{"overflowing count", `{"tool": "a", "calls": 99999999999999999999}`, []string{"calls: must be a whole number that fits: 99999999999999999999 is out of range"}},
		{"cost too close to 0", `{"tool": "a", "cost": 1e-400}`, []string{"cost: must be a number read at full precision: 1e-400 is closer to 0"}},
		{"subnormal plan cost", `{"tool": "a", "plan_cost": 5e-324}`, []string{"plan_cost: must be a number read at full precision: 5e-324"}},
		{"total cost losing digits", `{"tool": "a", "total_cost": -1e-320}`, []string{"total_cost: must be a number read at full precision"}},
		{"exponent for a count", `{"tool": "a", "calls": 1e3}`, []string{"calls: must be a whole number, got the number 1e3"}},
		{"missing tool", `{"calls": 1}`, []string{"tool: is required"}},
		{"blank tool", `{"tool": ""}`, []string{"tool: must not be blank"}},
		{"negative calls", `{"tool": "a", "calls": -1}`, []string{"calls: must be 0 or more"}},
		{"negative cost", `{"tool": "a", "cost": -1}`, []string{"cost: must be a finite number of USD from 0"}},
		{"attempt 0", `{"tool": "a", "attempt": 0}`, []string{"attempt: must be 1 or more"}},
		{"plan below cost", `{"tool": "a", "cost": 3, "plan_cost": 2}`, []string{"plan_cost: 2.0 is less than cost 3.0"}},
		{"blank category", `{"tool": "a", "category": " "}`, []string{"category: must not be blank"}},
		{"every problem at once", `{"tool": 1, "cals": 2, "write": null}`, []string{"cals: is not a known key", "write: must not be null", "tool: must be a string"}},
		// Keys, types and figures are judged in one pass, each problem
		// under its key; a key found wrong is not judged again.
		{"type and range", `{"tool": "read", "calls": 1.5, "cost": -1}`, []string{"stdin: calls: must be a whole number, got the number 1.5", "stdin: cost: must be a finite number of USD from 0, got -1"}},
		{"unknown key, types and a missing tool", `{"calls": 1.5, "write": "x", "zz": 1}`, []string{"stdin: zz: is not a known key", "stdin: calls: must be a whole number", "stdin: write: must be true or false, got a string", "stdin: tool: is required"}},
		{"null tool is not also missing", `{"tool": null, "attempt": 0}`, []string{"tool: must not be null", "attempt: must be 1 or more"}},
		{"wrong type is not also a bad figure", `{"tool": "", "cost": "x", "plan_cost": 2, "category": 3}`, []string{"cost: must be a number, got a string", "category: must be a string", "tool: must not be blank"}},
		{"every range problem", `{"tool": " t", "calls": -1, "cost": 3, "plan_cost": 2, "total_cost": -1, "attempt": 0, "category": ""}`,
			[]string{"tool: \"", "calls: must be 0 or more", "total_cost: must be a finite number", "attempt: must be 1 or more", "category: must not be blank", "plan_cost: 2.0 is less than cost 3.0"}},
		{"total below a good plan cost", `{"tool": "t", "cost": -3, "plan_cost": 2, "total_cost": 1}`, []string{"cost: must be a finite number", "total_cost: 1.0 is less than the plan's cost 2.0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readStdinCall(strings.NewReader(tt.in))
			if !errs.Is(err, errs.KindInvalid) {
				t.Fatalf("error %v, want invalid input", err)
			}
			e := err.(*errs.Error)
			if len(e.Problems) != len(tt.problems) {
				t.Fatalf("problems %v, want %d", e.Problems, len(tt.problems))
			}
			for i, want := range tt.problems {
				if got := e.Problems[i].String(); !strings.Contains(got, want) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got, want)
				}
			}
			if e.Hint == "" {
				t.Error("no hint")
			}
		})
	}
}

func TestReadStdinCallTooLarge(t *testing.T) {
	big := `{"tool": "` + strings.Repeat("x", maxStdin) + `"}`
	_, err := readStdinCall(strings.NewReader(big))
	if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("error %v, want invalid input about the size", err)
	}
}

func TestParseGate(t *testing.T) {
	if g, err := parseGate("auto_apply"); err != nil || g.Name != "auto_apply" {
		t.Errorf("parseGate(auto_apply) = %v, %v", g.Name, err)
	}
	tests := []struct{ in, hint string }{
		{"auto_aply", `did you mean "auto_apply"?`},
		{"auto-execute", `did you mean "auto_execute"?`},
		{"AUTO_APPLY", `did you mean "auto_apply"? The gates are: auto_strategize, auto_execute`},
		{"", "the gates are:"},
	}
	for _, tt := range tests {
		_, err := parseGate(tt.in)
		var e *errs.Error
		if !errs.Is(err, errs.KindUsage) {
			t.Fatalf("parseGate(%q) error %v, want usage", tt.in, err)
		}
		e = err.(*errs.Error)
		if !strings.Contains(e.Hint, tt.hint) || !strings.Contains(e.Hint, "auto_checkpoint_restore") {
			t.Errorf("parseGate(%q) hint %q, want it to contain %q and list every gate", tt.in, e.Hint, tt.hint)
		}
	}
}

func TestCheckConfidence(t *testing.T) {
	for _, c := range []float64{0, 0.5, 1} {
		if err := checkConfidence(c); err != nil {
			t.Errorf("checkConfidence(%v) = %v", c, err)
		}
	}
	for _, c := range []float64{-0.0001, 1.0001, 80, nan()} {
		if err := checkConfidence(c); !errs.Is(err, errs.KindUsage) {
			t.Errorf("checkConfidence(%v) = %v, want a usage error", c, err)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"tool", "calls", "cost", "plan_cost", "total_cost"}
	tests := map[string]string{"tol": "tool", "cals": "calls", "plancost": "plan_cost", "totl_cost": "total_cost", "zzzzzzzz": "", "": ""}
	for in, want := range tests {
		if got := suggest.Key(in, names); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func nan() float64 { return math.NaN() }

func TestCheckGuardStdinTerminal(t *testing.T) {
	for _, tt := range []struct {
		args []string
		hint string
	}{
		{[]string{"ci", "--stdin-json"}, "| agents automation-profile check-guard ci --stdin-json"},
		{[]string{"--plan", "01jq3v6m4x8b2c7d9e0f1g2h3k", "--stdin-json"}, "check-guard --plan 01jq3v6m4x8b2c7d9e0f1g2h3k --stdin-json"},
		// A hook's JSON is the agent's, and it may name no profile: the
		// hint must not show a command with the profile left out.
		{[]string{"ci", "--hook", "claude-code"}, "docs/hooks.md"},
		{[]string{"--hook", "claude-code"}, "docs/hooks.md"},
	} {
		ios, _, _, _ := iostreams.Test()
		ios.SetStdinTTY(true)
		cmd := newCheckGuardCmd(&cmdutil.Deps{IO: ios}, func(*checkGuardOptions) error { return nil })
		cmd.SetArgs(tt.args)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		_, err := cmd.ExecuteC()
		if !errs.Is(err, errs.KindUsage) || !strings.Contains(err.Error(), "stdin is a terminal") {
			t.Errorf("%v: error %v, want a usage error about the terminal", tt.args, err)
			continue
		}
		var e *errs.Error
		if !errors.As(err, &e) || !strings.Contains(e.Hint, tt.hint) || strings.Contains(e.Hint, "  ") {
			t.Errorf("%v: hint %q, want it to say %q", tt.args, e.Hint, tt.hint)
		}
	}
}

// TestInputHintFor: a tool or a category named wrong gets a hint about
// names; every other figure the hint about figures.
func TestInputHintFor(t *testing.T) {
	for msg, want := range map[string]string{
		"--tool must not be blank":              "name the tool as the agent does",
		`--category " x" must not start or end`: "name the skill category",
		"--calls must be 0 or more, got -1":     "counts are whole numbers",
		"--plan-cost 1.0 is less than --cost 2.0, but the plan's cost includes this invocation's": "costs nest",
	} {
		if got := inputHintFor(msg); !strings.Contains(got, want) {
			t.Errorf("inputHintFor(%q) = %q, want it to say %q", msg, got, want)
		}
	}
}

// TestHookArgsKeepTheCategory: the command --print-config installs keeps
// the session's --category, quoted for the shell, so the installed hook
// decides as the command that printed it would.
func TestHookArgsKeepTheCategory(t *testing.T) {
	opts := &checkGuardOptions{profile: "ci"}
	opts.hookOpts.agent, opts.hookOpts.sandboxed = "claude-code", true
	opts.input.Category = "it's build"
	got := strings.Join(hookArgs(opts, false), " ")
	want := `--home "$1" automation-profile check-guard ci --hook claude-code --sandboxed --category 'it'\''s build'`
	if got != want {
		t.Errorf("hookArgs = %s\nwant        %s", got, want)
	}
}

// TestHookArgsKeepWhatIsNotMet: --no-sandbox and --no-checkpoint win over
// config.yaml's declarations, so the command --print-config installs must
// carry them, or the installed hook would take config.yaml's word.
func TestHookArgsKeepWhatIsNotMet(t *testing.T) {
	opts := &checkGuardOptions{profile: "trusted"}
	opts.hookOpts.agent = "codex"
	opts.input.NoSandbox, opts.input.NoCheckpoint = true, true
	got := strings.Join(hookArgs(opts, false), " ")
	want := `--home "$1" automation-profile check-guard trusted --hook codex --no-sandbox --no-checkpoint`
	if got != want {
		t.Errorf("hookArgs = %s\nwant        %s", got, want)
	}
}

// TestCheckGuardUsageHookWithoutProfile: with --hook the profile may be left
// out (the profiles resolve from the input's cwd), and the usage line must
// say so rather than ask for one.
func TestCheckGuardUsageHookWithoutProfile(t *testing.T) {
	if _, err := parseGuardFlags(t, "--hook", "codex"); err != nil {
		t.Fatalf("--hook without a profile: %v", err)
	}
	cmd := newCheckGuardCmd(&cmdutil.Deps{}, func(*checkGuardOptions) error { return nil })
	if !strings.Contains(cmd.Use, "[<profile> | --plan <id>] --hook <agent>") {
		t.Errorf("usage %q asks for a profile with --hook", cmd.Use)
	}
}
