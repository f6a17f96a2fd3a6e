package automationprofile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

const hookSamples = "../../../testdata/hooks/claude-code"

func openSample(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join(hookSamples, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestReadClaudeCodeInput(t *testing.T) {
	tests := []struct {
		file  string
		tool  string
		write bool
	}{
		{"bash.json", "Bash", false},
		{"read.json", "Read", false},
		{"write.json", "Write", true},
		{"edit.json", "Edit", true},
		{"multiedit.json", "MultiEdit", true},
		{"notebookedit.json", "NotebookEdit", true},
		{"mcp-tool.json", "mcp__github__create_issue", false},
		{"future-fields.json", "Bash", false},
		{"minimal.json", "Bash", false},
	}
	base := profile.GuardInput{Category: "coding", NoSandbox: true, NoCheckpoint: true, Attempt: 1}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := readClaudeCodeInput(openSample(t, tt.file), base)
			if err != nil {
				t.Fatal(err)
			}
			want := base
			want.Tool, want.Write = tt.tool, tt.write
			if got != want {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

func TestReadClaudeCodeInputMalformed(t *testing.T) {
	tests := []struct{ file, problem string }{
		{"malformed/empty.json", "nothing was given"},
		{"malformed/not-json.txt", "not JSON"},
		{"malformed/truncated.json", "not valid JSON"},
		{"malformed/array.json", "expected one JSON object, got an array"},
		{"malformed/two-objects.json", "more than one JSON value"},
		{"malformed/tool-name-missing.json", "tool_name: is missing"},
		{"malformed/tool-name-number.json", "tool_name: must be a string, got the number 42"},
		{"malformed/tool-name-null.json", "tool_name: must be a string, got null"},
		{"malformed/tool-name-empty.json", `tool_name: "" is not a tool name`},
		{"malformed/tool-input-string.json", "tool_input: must be an object, got a string"},
		{"malformed/post-tool-use.json", `hook_event_name: is "PostToolUse"; this hook answers PreToolUse only`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, err := readClaudeCodeInput(openSample(t, tt.file), profile.GuardInput{})
			if !errs.Is(err, errs.KindInvalid) {
				t.Fatalf("error %v, want invalid input", err)
			}
			e := err.(*errs.Error)
			if len(e.Problems) != 1 || !strings.Contains(e.Problems[0].String(), tt.problem) {
				t.Errorf("problems %v, want one containing %q", e.Problems, tt.problem)
			}
			if !strings.Contains(e.Hint, "own permission rules apply") {
				t.Errorf("hint %q does not say what happens to the call", e.Hint)
			}
		})
	}
}

func TestReadClaudeCodeInputTolerates(t *testing.T) {
	tests := []struct{ name, in string }{
		{"no tool_input", `{"hook_event_name": "PreToolUse", "tool_name": "Bash"}`},
		{"null tool_input", `{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": null}`},
		{"no hook_event_name", `{"tool_name": "Bash", "tool_input": {}}`},
		{"unknown fields of any type", `{"tool_name": "Bash", "x": null, "y": [1, {"z": true}], "hookSpecificInput": {}}`},
		{"a repeated unknown field", `{"tool_name": "Bash", "x": 1, "x": 2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readClaudeCodeInput(strings.NewReader(tt.in), profile.GuardInput{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Tool != "Bash" {
				t.Errorf("tool %q, want Bash", got.Tool)
			}
		})
	}
}

func TestClaudeCodeAnswer(t *testing.T) {
	ptr := func(v int) *int { return &v }
	guarded := &profile.AutomationProfile{
		Name: "acme/guarded", AutoDecisionsExecute: 0.7, Safety: profile.DefaultSafetyProfile(),
		Guards: &profile.AutomationGuard{ToolDenylist: []string{"Bash"}, MaxToolCallsPerStep: ptr(10)},
	}
	auto := &profile.AutomationProfile{Name: "ci", AutoDecisionsExecute: 0, Safety: profile.DefaultSafetyProfile()}
	tests := []struct {
		name     string
		p        *profile.AutomationProfile
		level    string
		in       profile.GuardInput
		decision string // "" for no answer
		reason   []string
	}{
		{"blocked is deny", auto, "", profile.GuardInput{Tool: "Bash", NoSandbox: true}, "deny",
			[]string{"agents: the safety profile requires a sandbox", "rule safety.require_sandbox", "profile ci"}},
		{"approval is ask", guarded, "", profile.GuardInput{Tool: "Bash"}, "ask",
			[]string{`tool "Bash" is on the profile's denylist`, "rule guards.tool_denylist", "profile acme/guarded"}},
		{"allowed under automatic execution decisions is allow", auto, "", profile.GuardInput{Tool: "Read"}, "allow",
			[]string{"allowed", "sandbox", "rule default", "profile ci"}},
		{"allowed otherwise is no answer", guarded, "", profile.GuardInput{Tool: "Read"}, "", nil},
		{"the level is named", guarded, "plan", profile.GuardInput{Tool: "Bash"}, "ask",
			[]string{"profile acme/guarded from the plan level"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			subj := decisionSubject{Profile: tt.p, Safety: tt.p.Safety, Level: tt.level}
			out := claudeCodeAnswer(profile.CheckGuard(tt.p, subj.Safety, tt.in), subj)
			if tt.decision == "" {
				if out != nil {
					t.Fatalf("answer %+v, want none", out)
				}
				return
			}
			if out == nil {
				t.Fatalf("no answer, want %s", tt.decision)
			}
			d := out.HookSpecificOutput
			if d.HookEventName != "PreToolUse" || d.PermissionDecision != tt.decision {
				t.Errorf("answer %+v, want PreToolUse %s", d, tt.decision)
			}
			for _, want := range tt.reason {
				if !strings.Contains(d.PermissionDecisionReason, want) {
					t.Errorf("reason %q, want it to contain %q", d.PermissionDecisionReason, want)
				}
			}
		})
	}
}

func TestReadClaudeCodeInputRepeatedField(t *testing.T) {
	_, err := readClaudeCodeInput(strings.NewReader(`{"tool_name": "Read", "tool_name": "Bash"}`), profile.GuardInput{})
	if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "tool_name: is given more than once") {
		t.Errorf("error %v, want invalid input naming the repeated tool_name", err)
	}
}
