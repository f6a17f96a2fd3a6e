package hook

import (
	"testing"

	"github.com/agentsctl/agents/internal/canon"
)

// The answers' shapes, for encoding/json to write as the reference.
type (
	refClaude struct {
		HookSpecificOutput struct {
			HookEventName            string `json:"hookEventName"`
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	refGemini struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	}
)

func compactJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := canon.CompactJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAnswersAreEncodingJSON: the hand-written answers are what
// encoding/json writes for their shapes, for every kind and for reasons
// that need escaping.
func TestAnswersAreEncodingJSON(t *testing.T) {
	for _, kind := range []Kind{Deny, Ask, Allow} {
		for _, reason := range []string{"", "agents: blocked by safety.require_sandbox", `quotes " and \ and <tags> & ` + "\n\t\x01 é 😀 \u2028 \xff"} {
			var c refClaude
			c.HookSpecificOutput.HookEventName = "PreToolUse"
			c.HookSpecificOutput.PermissionDecision = kind.String()
			c.HookSpecificOutput.PermissionDecisionReason = reason
			got, err := encodeClaudeStyle(kind, reason)
			if want := compactJSON(t, c); err != nil || string(got) != want {
				t.Errorf("Claude Code answer %s, %q:\n got %s (%v)\nwant %s", kind, reason, got, err, want)
			}
			got, err = encodeGemini(kind, reason)
			if want := compactJSON(t, refGemini{kind.String(), reason}); err != nil || string(got) != want {
				t.Errorf("Gemini CLI answer %s, %q:\n got %s (%v)\nwant %s", kind, reason, got, err, want)
			}
		}
	}
}
