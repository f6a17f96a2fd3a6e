package automationprofile_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/profiles"
)

// These tests drive the whole command through cli.Run with custom profiles
// in an in-memory store, which the end-to-end scripts cannot do until
// profiles can be stored on disk.

// The seed's two custom profiles, in the canonical nested form, and a few
// more that reach the rules the seed's do not.
var customProfiles = map[string]string{
	"acme/strict": `name: acme/strict
description: Strict profile for production deployments
schema_version: "1.0"
auto_strategize: 0.9
auto_execute: 0.9
auto_apply: 1.0
auto_decisions_strategize: 0.8
auto_decisions_execute: 0.9
auto_validation_fix: 0.5
auto_strategy_revision: 0.9
auto_reversion_from_apply: 1.0
auto_child_plans: 0.8
auto_retry_transient: 0.3
auto_checkpoint_restore: 0.7
safety:
  require_sandbox: true
  require_checkpoints: true
  allow_unsafe_tools: false
`,
	"acme/guarded": `name: acme/guarded
description: Profile with guard constraints
schema_version: "1.0"
auto_strategize: 0.7
auto_execute: 0.7
auto_apply: 1.0
guards:
  max_tool_calls_per_step: 10
  max_total_cost: 5.0
  tool_denylist:
    - shell_exec
    - file_delete
  require_approval_for_writes: true
  require_approval_for_apply: true
`,
	"acme/capped": `name: acme/capped
auto_decisions_execute: 0.0
safety:
  require_sandbox: false
  require_checkpoints: true
  allow_unsafe_tools: false
  require_human_approval: false
  allowed_skill_categories: [coding, docs]
  max_cost_per_plan: 50.0
  max_total_cost: 100.0
  max_retries_per_step: 1
guards:
  tool_allowlist: [read, edit, shell_exec]
  tool_denylist: [shell_exec]
`,
	"acme/ask": `name: acme/ask
auto_decisions_execute: 0.0
safety:
  require_human_approval: true
`,
	"acme/claude": `name: acme/claude
auto_decisions_execute: 0.0
safety:
  require_sandbox: false
guards:
  tool_denylist: [Bash, Read, read_file]
  require_approval_for_writes: true
`,
}

func newStore(t *testing.T) store.Store {
	t.Helper()
	st := store.NewMemory()
	for name, doc := range customProfiles {
		p, _, err := profile.DecodeProfile([]byte(doc), name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := st.Profiles().Put(context.Background(), p, false); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

type result struct {
	code           int
	stdout, stderr string
}

func run(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(stdin)
	st := newStore(t)
	env := map[string]string{"AGENTS_HOME": t.TempDir(), "CI": "true"}
	deps := &cmdutil.Deps{
		IO:        ios,
		Builtins:  profiles.Builtin,
		Getenv:    func(k string) string { return env[k] },
		OpenStore: func(cmdutil.Config) (store.Store, error) { return st, nil },
	}
	code := cli.Run(deps, args)
	return result{code, out.String(), errOut.String()}
}

func guard(args ...string) []string {
	return append([]string{"automation-profile", "check-guard"}, args...)
}

func gateArgs(args ...string) []string {
	return append([]string{"automation-profile", "check-gate"}, args...)
}

type decision struct {
	Allowed          bool     `json:"allowed"`
	Reason           *string  `json:"reason"`
	RequiresApproval bool     `json:"requires_approval"`
	Rule             string   `json:"rule"`
	Profile          string   `json:"profile"`
	Level            *string  `json:"level"`
	Plan             *string  `json:"plan"`
	Warnings         []string `json:"warnings"`
	SafetyLevel      *string  `json:"safety_level"`
	SafetySource     *string  `json:"safety_source"`
	Conditions       []string `json:"conditions"`
	Threshold        *float64 `json:"threshold"`
	Confidence       *float64 `json:"confidence"`
}

func decode(t *testing.T, r result) decision {
	t.Helper()
	var d decision
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("stdout is not a decision (%v): %q; stderr %q", err, r.stdout, r.stderr)
	}
	return d
}

func TestCheckGuardCustomProfiles(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		rule       string
		reason     string
		conditions []string
	}{
		{"denylisted tool", guard("acme/guarded", "--tool", "shell_exec"), 10, "guards.tool_denylist", `tool "shell_exec" is on the profile's denylist`, nil},
		{"second denylisted tool", guard("acme/guarded", "--tool", "file_delete"), 10, "guards.tool_denylist", `"file_delete"`, nil},
		{"calls at the limit", guard("acme/guarded", "--tool", "read", "--calls", "10"), 10, "guards.max_tool_calls_per_step", "10 calls reached the limit of 10 per step", nil},
		{"calls under the limit", guard("acme/guarded", "--tool", "read", "--calls", "9"), 0, "default", "", []string{"sandbox"}},
		{"budget reached", guard("acme/guarded", "--tool", "read", "--cost", "5"), 10, "guards.max_total_cost", "a cost of 5.0 USD reached the profile's budget of 5.0 USD", nil},
		{"budget not reached", guard("acme/guarded", "--tool", "read", "--cost", "4.99"), 0, "default", "", []string{"sandbox"}},
		{"write", guard("acme/guarded", "--tool", "edit", "--write"), 10, "guards.require_approval_for_writes", "approval for writes", nil},
		{"apply", guard("acme/guarded", "--tool", "__apply__"), 10, "guards.require_approval_for_apply", "before apply", nil},
		{"strict without sandbox", guard("acme/strict", "--tool", "read", "--no-sandbox"), 11, "safety.require_sandbox", "requires a sandbox", nil},
		{"strict write without checkpoint", guard("acme/strict", "--tool", "edit", "--write", "--no-checkpoint"), 11, "safety.require_checkpoints", "checkpoint", nil},
		{"strict write", guard("acme/strict", "--tool", "edit", "--write"), 0, "default", "", []string{"sandbox", "checkpoint_before_write"}},
		{"unsafe", guard("acme/strict", "--tool", "rm", "--unsafe"), 11, "safety.allow_unsafe_tools", `tool "rm" is flagged unsafe`, nil},
		{"no category", guard("acme/capped", "--tool", "read"), 11, "safety.allowed_skill_categories", `allows only "coding", "docs"`, nil},
		{"wrong category", guard("acme/capped", "--tool", "read", "--category", "deploy"), 11, "safety.allowed_skill_categories", `"deploy"`, nil},
		{"attempt at the limit", guard("acme/capped", "--tool", "read", "--category", "docs", "--attempt", "2"), 0, "default", "", []string{}},
		{"attempt beyond", guard("acme/capped", "--tool", "read", "--category", "docs", "--attempt", "3"), 11, "safety.max_retries_per_step", "attempt 3 is beyond the limit of 1 retry per step (2 attempts in all)", nil},
		{"plan cap on --cost alone", guard("acme/capped", "--tool", "read", "--category", "docs", "--cost", "50"), 11, "safety.max_cost_per_plan", "at least 50.0 USD", nil},
		{"plan cap exactly", guard("acme/capped", "--tool", "read", "--category", "docs", "--plan-cost", "50"), 11, "safety.max_cost_per_plan", "the plan's cost of 50.0 USD reached the safety limit of 50.0 USD per plan", nil},
		{"total cap exactly", guard("acme/capped", "--tool", "read", "--category", "docs", "--plan-cost", "10", "--total-cost", "100"), 11, "safety.max_total_cost", "100.0 USD", nil},
		{"under both caps", guard("acme/capped", "--tool", "read", "--category", "docs", "--plan-cost", "49.5", "--total-cost", "99.5"), 0, "default", "", []string{}},
		{"on both lists", guard("acme/capped", "--tool", "shell_exec", "--category", "coding"), 10, "guards.tool_denylist", `"shell_exec"`, nil},
		{"off the allowlist", guard("acme/capped", "--tool", "grep", "--category", "coding"), 10, "guards.tool_allowlist", `tool "grep" is not on the profile's allowlist`, nil},
		{"write with a checkpoint", guard("acme/capped", "--tool", "edit", "--category", "coding", "--write"), 0, "default", "", []string{"checkpoint_before_write"}},
		{"human approval", guard("acme/ask", "--tool", "read"), 10, "safety.require_human_approval", "approval for every step", nil},
		{"human approval after safety", guard("acme/ask", "--tool", "read", "--no-sandbox"), 11, "safety.require_sandbox", "", nil},
		{"stdin-json", guard("acme/guarded", "--stdin-json"), 10, "guards.max_tool_calls_per_step", "12 calls", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdin := ""
			if strings.Contains(strings.Join(tt.args, " "), "--stdin-json") {
				stdin = `{"tool": "read", "calls": 12}`
			}
			r := run(t, stdin, append(tt.args, "-f", "json")...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d; stdout %q stderr %q", r.code, tt.code, r.stdout, r.stderr)
			}
			if r.stderr != "" {
				t.Errorf("stderr %q, want nothing", r.stderr)
			}
			d := decode(t, r)
			if d.Rule != tt.rule || d.Profile != tt.args[2] || d.Level != nil {
				t.Errorf("rule %q profile %q level %v, want %q %q null", d.Rule, d.Profile, d.Level, tt.rule, tt.args[2])
			}
			wantAllowed, wantApproval := tt.code == 0, tt.code == 10
			if d.Allowed != wantAllowed || d.RequiresApproval != wantApproval {
				t.Errorf("allowed %v requires_approval %v for exit %d", d.Allowed, d.RequiresApproval, tt.code)
			}
			switch {
			case wantAllowed && d.Reason != nil:
				t.Errorf("reason %q, want null when allowed", *d.Reason)
			case !wantAllowed && (d.Reason == nil || !strings.Contains(*d.Reason, tt.reason)):
				t.Errorf("reason %v, want it to contain %q", d.Reason, tt.reason)
			}
			want := tt.conditions
			if want == nil {
				want = []string{}
			}
			if d.Conditions == nil || strings.Join(d.Conditions, ",") != strings.Join(want, ",") {
				t.Errorf("conditions %v, want %v", d.Conditions, want)
			}
			if d.Threshold != nil || d.Confidence != nil {
				t.Error("check-guard printed gate fields")
			}
		})
	}
}

// TestCheckGuardExactJSON pins the whole document, key order included.
func TestCheckGuardExactJSON(t *testing.T) {
	r := run(t, "", guard("acme/guarded", "--tool", "shell_exec", "-f", "json")...)
	want := `{
  "allowed": false,
  "reason": "tool \"shell_exec\" is on the profile's denylist",
  "requires_approval": true,
  "rule": "guards.tool_denylist",
  "profile": "acme/guarded",
  "level": null,
  "plan": null,
  "warnings": [],
  "safety_level": null,
  "safety_source": null,
  "conditions": []
}
`
	if r.stdout != want || r.code != 10 {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s", r.code, r.stdout, want)
	}
}

func TestCheckGateCustomProfiles(t *testing.T) {
	tests := []struct {
		profile, gate, confidence string
		code                      int
		threshold                 float64
	}{
		{"acme/strict", "auto_execute", "0.95", 0, 0.9},
		{"acme/strict", "auto_execute", "0.9", 10, 0.9},
		{"acme/strict", "auto_apply", "1", 10, 1},
		{"acme/strict", "auto_retry_transient", "0.31", 0, 0.3},
		{"acme/guarded", "auto_strategize", "0.7", 10, 0.7},
		// A threshold the file leaves out is 1.0: ask a person.
		{"acme/guarded", "auto_child_plans", "1", 10, 1},
		{"acme/claude", "auto_decisions_execute", "0", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.profile+"/"+tt.gate+"@"+tt.confidence, func(t *testing.T) {
			r := run(t, "", gateArgs(tt.profile, tt.gate, "--confidence", tt.confidence, "-f", "json")...)
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %q", r.code, tt.code, r.stderr)
			}
			d := decode(t, r)
			if d.Rule != tt.gate || d.Profile != tt.profile || d.Threshold == nil || *d.Threshold != tt.threshold || d.Confidence == nil {
				t.Errorf("decision %+v", d)
			}
			if d.Allowed != (tt.code == 0) || d.RequiresApproval != (tt.code == 10) || (d.Reason == nil) != (tt.code == 0) {
				t.Errorf("decision %+v for exit %d", d, tt.code)
			}
		})
	}
}

func TestCheckNotFound(t *testing.T) {
	for _, args := range [][]string{
		guard("acme/missing", "--tool", "read"),
		gateArgs("acme/missing", "auto_apply", "--confidence", "0.5"),
	} {
		stdin := `{"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {}}`
		r := run(t, stdin, args...)
		if r.code != 4 || r.stdout != "" || !strings.Contains(r.stderr, `profile "acme/missing" not found`) {
			t.Errorf("%v: exit %d stdout %q stderr %q, want exit 4 and the error on stderr", args, r.code, r.stdout, r.stderr)
		}
	}
}

type hookAnswer struct {
	HookSpecificOutput struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

func TestCheckUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		msg  string
	}{
		{gateArgs("ci", "auto_aply", "--confidence", "0.5"), `did you mean "auto_apply"?`},
		{gateArgs("ci", "auto_apply"), "missing --confidence"},
		{gateArgs("ci", "auto_apply", "--confidence", "NaN"), "--confidence must be a number from 0 to 1, got NaN"},
		{gateArgs("ci", "auto_apply", "--confidence", "-0.1"), "got -0.1"},
		{gateArgs("ci", "auto_apply", "--confidence", "1.01"), "got 1.01"},
		{gateArgs("ci", "auto_apply", "--confidence", "high"), `invalid value "high" for --confidence: not a number`},
		{gateArgs("ci", "auto_apply", "extra", "--confidence", "0.5"), "too many arguments"},
		{gateArgs("ci"), "missing a gate after the profile name ci"},
		{gateArgs(), "missing a profile name and a gate"},
		{gateArgs("auto_execute", "--confidence", "0.8"), "missing a profile name before the gate auto_execute"},
		{gateArgs("ci", "auto_apply", "--confidence", "0,8"), `invalid value "0,8" for --confidence: not a number`},
		{guard("ci"), "missing --tool"},
		{guard("ci", "--tool", "t", "--calls", "-3"), "--calls must be 0 or more"},
		{guard("ci", "--tool", "t", "--cost", "-1"), "--cost must be a finite number"},
		{guard("ci", "--tool", "t", "--attempt", "0"), "--attempt must be 1 or more"},
		{guard("ci", "--stdin-json", "--calls", "3"), "--stdin-json cannot be combined with --calls"},
		{guard("ci", "--hook", "cursor"), `unknown hook "cursor"`},
		{guard(), "missing a profile name"},
	}
	for _, tt := range tests {
		r := run(t, "", tt.args...)
		if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, tt.msg) {
			t.Errorf("%v: exit %d stdout %q stderr %q, want exit 2 and %q", tt.args, r.code, r.stdout, r.stderr, tt.msg)
		}
	}
}

func TestCheckGuardStdinJSONInvalid(t *testing.T) {
	for _, in := range []string{`{"tool": "read", "extra": 1}`, `{"tool": "read", "calls": "many"}`, `{"tool": "a"}{"tool": "b"}`, `not json`, ``} {
		r := run(t, in, guard("ci", "--stdin-json", "-f", "json")...)
		if r.code != 3 || r.stdout != "" || !strings.Contains(r.stderr, `"code":"invalid"`) {
			t.Errorf("%q: exit %d stdout %q stderr %q, want exit 3 and a JSON error", in, r.code, r.stdout, r.stderr)
		}
	}
}
