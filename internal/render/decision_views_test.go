package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/profile"
)

func renderAs(t *testing.T, format string, color bool, v View) string {
	t.Helper()
	r, err := Lookup(format, Options{Color: color})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.Render(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func denied() GuardDecisionView {
	p := &profile.AutomationProfile{Name: "acme/guarded", Safety: profile.DefaultSafetyProfile(),
		Guards: &profile.AutomationGuard{ToolDenylist: []string{"shell_exec"}}}
	return GuardDecisionView{Result: profile.CheckGuard(p, p.Safety, profile.GuardInput{Tool: "shell_exec"}), Profile: p.Name}
}

func allowedWrite(level string) GuardDecisionView {
	p := &profile.AutomationProfile{Name: "ci", Safety: profile.DefaultSafetyProfile()}
	return GuardDecisionView{Result: profile.CheckGuard(p, p.Safety, profile.GuardInput{Tool: "edit", Write: true}), Profile: p.Name, Level: level}
}

func blocked() GuardDecisionView {
	p := &profile.AutomationProfile{Name: "ci", Safety: profile.DefaultSafetyProfile()}
	return GuardDecisionView{Result: profile.CheckGuard(p, p.Safety, profile.GuardInput{Tool: "rm", Unsafe: true}), Profile: p.Name}
}

func TestGuardDecisionViewFormats(t *testing.T) {
	tests := []struct {
		name, format string
		view         GuardDecisionView
		want         string
	}{
		{"json approval", "json", denied(), `{
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
`},
		{"json allowed with a level", "json", allowedWrite("plan"), `{
  "allowed": true,
  "reason": null,
  "requires_approval": false,
  "rule": "default",
  "profile": "ci",
  "level": "plan",
  "plan": null,
  "warnings": [],
  "safety_level": null,
  "safety_source": null,
  "conditions": [
    "sandbox",
    "checkpoint_before_write"
  ]
}
`},
		{"yaml blocked", "yaml", blocked(), `allowed: false
reason: tool "rm" is flagged unsafe, and the safety profile does not allow unsafe tools
requires_approval: false
rule: safety.allow_unsafe_tools
profile: ci
level: null
plan: null
warnings: []
safety_level: null
safety_source: null
conditions: []
`},
		{"plain allowed", "plain", allowedWrite(""), `decision: allowed
allowed: true
requires_approval: false
rule: default
reason: null
tool: edit
profile: ci
level: null
plan: null
safety_level: null
safety_source: null
conditions: sandbox, checkpoint_before_write
warnings: []
`},
		{"rich approval", "rich", denied(), `⚠ NEEDS APPROVAL  tool "shell_exec" under profile acme/guarded
  rule    guards.tool_denylist
  reason  tool "shell_exec" is on the profile's denylist
`},
		{"rich blocked", "rich", blocked(), `✘ BLOCKED  tool "rm" under profile ci
  rule    safety.allow_unsafe_tools
  reason  tool "rm" is flagged unsafe, and the safety profile does not allow unsafe tools
`},
		{"rich allowed with conditions and a level", "rich", allowedWrite("action"), `✔ ALLOWED  tool "edit" under profile ci (from the action level)
  rule       default
  reason     -
  condition  sandbox: run the call in a sandbox
  condition  checkpoint_before_write: take a checkpoint before the write
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := renderAs(t, tt.format, false, tt.view); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestGateDecisionViewFormats(t *testing.T) {
	p := &profile.AutomationProfile{Name: "cautious", AutoExecute: 0.7, AutoApply: 1}
	g, _ := profile.LookupGate("auto_execute")
	a, _ := profile.LookupGate("auto_apply")
	s, _ := profile.LookupGate("auto_strategize")
	at := GateDecisionView{Decision: decideGate(p, g, 0.7), Profile: "cautious"}
	above := GateDecisionView{Decision: decideGate(p, g, 0.75), Profile: "cautious"}
	always := GateDecisionView{Decision: decideGate(p, a, 1), Profile: "cautious", Level: "project"}
	zero := GateDecisionView{Decision: decideGate(p, s, 0), Profile: "cautious"}
	tests := []struct {
		name, format string
		view         GateDecisionView
		want         string
	}{
		{"json at the threshold", "json", at, `{
  "allowed": false,
  "reason": "confidence 0.7 does not exceed the auto_execute threshold of 0.7",
  "requires_approval": true,
  "rule": "auto_execute",
  "profile": "cautious",
  "level": null,
  "plan": null,
  "warnings": [],
  "safety_level": null,
  "safety_source": null,
  "conditions": [],
  "threshold": 0.7,
  "confidence": 0.7
}
`},
		{"yaml above", "yaml", above, `allowed: true
reason: null
requires_approval: false
rule: auto_execute
profile: cautious
level: null
plan: null
warnings: []
safety_level: null
safety_source: null
conditions: []
threshold: 0.7
confidence: 0.75
`},
		{"plain always", "plain", always, `decision: needs approval
allowed: false
requires_approval: true
rule: auto_apply
reason: the auto_apply threshold is 1.0, so this step always needs a person's approval
threshold: 1.0
confidence: 1.0
profile: cautious
level: project
plan: null
safety_level: null
safety_source: null
conditions: []
warnings: []
`},
		{"rich above", "rich", above, `✔ ALLOWED  gate auto_execute under profile cautious
  rule        auto_execute
  threshold   0.7
  confidence  0.75
  reason      confidence 0.75 exceeds the auto_execute threshold of 0.7
`},
		{"rich zero threshold", "rich", zero, `✔ ALLOWED  gate auto_strategize under profile cautious
  rule        auto_strategize
  threshold   0.0
  confidence  0.0
  reason      the auto_strategize threshold is 0.0, so this step is always automatic
`},
		{"rich at the threshold", "rich", at, `⚠ NEEDS APPROVAL  gate auto_execute under profile cautious
  rule        auto_execute
  threshold   0.7
  confidence  0.7
  reason      confidence 0.7 does not exceed the auto_execute threshold of 0.7
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := renderAs(t, tt.format, false, tt.view); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestDecisionViewsEscape: a tool name from an agent cannot drive the
// terminal in a human format, and is kept intact in JSON.
func TestDecisionViewsEscape(t *testing.T) {
	tool := "x\x1b[2Jy"
	p := &profile.AutomationProfile{Name: "ci", Safety: profile.DefaultSafetyProfile(), Guards: &profile.AutomationGuard{ToolDenylist: []string{tool}}}
	v := GuardDecisionView{Result: profile.CheckGuard(p, p.Safety, profile.GuardInput{Tool: tool}), Profile: "ci"}
	for _, f := range []string{"plain", "table", "rich"} {
		for _, color := range []bool{false, true} {
			if got := renderAs(t, f, color, v); strings.Contains(got, "\x1b[2J") {
				t.Errorf("%s (color %v) lets an escape sequence through: %q", f, color, got)
			}
		}
	}
	// The reason quotes the tool Go-style, so even JSON carries no raw
	// escape character.
	if got := renderAs(t, "json", false, v); strings.Contains(got, "\x1b") || !strings.Contains(got, `x\\x1b[2Jy`) {
		t.Errorf("json output %q", got)
	}
}

func TestRichDecisionKeepsTextWithColor(t *testing.T) {
	got := renderAs(t, "rich", true, denied())
	if !strings.Contains(got, "\x1b[") {
		t.Errorf("rich output with colour has no escape codes: %q", got)
	}
	for _, want := range []string{"NEEDS APPROVAL", "guards.tool_denylist", "acme/guarded", `tool "shell_exec" is on the profile's denylist`} {
		if !strings.Contains(got, want) {
			t.Errorf("rich output with colour lacks %q: %q", want, got)
		}
	}
}

// TestDecisionViewTables checks the cells the table format lays out; the
// layout itself is the table renderer's.
func TestDecisionViewTables(t *testing.T) {
	p := &profile.AutomationProfile{Name: "cautious", AutoExecute: 0.7}
	g, _ := profile.LookupGate("auto_execute")
	tests := []struct {
		name string
		view View
		want [][]string
	}{
		{"guard approval", denied(), [][]string{
			{"decision", "needs approval"}, {"allowed", "false"}, {"requires_approval", "true"},
			{"rule", "guards.tool_denylist"}, {"reason", `tool "shell_exec" is on the profile's denylist`},
			{"tool", "shell_exec"}, {"profile", "acme/guarded"}, {"level", "null"}, {"plan", "null"},
			{"safety_level", "null"}, {"safety_source", "null"}, {"conditions", "[]"}, {"warnings", "[]"},
		}},
		{"gate allowed", GateDecisionView{Decision: decideGate(p, g, 0.75), Profile: "cautious", Level: "global"}, [][]string{
			{"decision", "allowed"}, {"allowed", "true"}, {"requires_approval", "false"},
			{"rule", "auto_execute"}, {"reason", "null"}, {"threshold", "0.7"}, {"confidence", "0.75"},
			{"profile", "cautious"}, {"level", "global"}, {"plan", "null"},
			{"safety_level", "null"}, {"safety_source", "null"}, {"conditions", "[]"}, {"warnings", "[]"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tables := tt.view.Tables()
			if len(tables) != 1 {
				t.Fatalf("%d tables, want 1", len(tables))
			}
			tb := tables[0]
			if strings.Join(tb.Header, ",") != "FIELD,VALUE" || len(tb.Rows) != len(tt.want) {
				t.Fatalf("header %q, %d rows; want FIELD, VALUE and %d rows", tb.Header, len(tb.Rows), len(tt.want))
			}
			for i, row := range tb.Rows {
				if strings.Join(row, "|") != strings.Join(tt.want[i], "|") {
					t.Errorf("row %d = %q, want %q", i, row, tt.want[i])
				}
			}
			out := renderAs(t, "table", false, tt.view)
			for _, row := range tt.want {
				if !strings.Contains(out, row[1]) {
					t.Errorf("table output lacks %q:\n%s", row[1], out)
				}
			}
		})
	}
}

// decideGate decides a gate under the profile's own composed safety.
func decideGate(p *profile.AutomationProfile, g profile.Gate, c float64) profile.GateDecision {
	return profile.DecideGateUnder(p, p.Safety, g, c)
}
