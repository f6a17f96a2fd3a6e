package hook

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
)

// FuzzReadInput: whatever an agent sends, the reader either refuses it as
// invalid input or returns a call that holds what the protocol requires.
// A hook decides on what this returns, so a call that slipped through
// without a tool, with another event or without a tool_input object would
// be decided on input the agent never meant.
func FuzzReadInput(f *testing.F) {
	f.Add(uint8(0), []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`), false)
	f.Add(uint8(1), []byte(`{"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"apply_patch","tool_input":{"command":"x"},"cwd":"/srv"}`), true)
	f.Add(uint8(2), []byte(`{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{},"mcp_context":null}`), false)
	f.Add(uint8(0), []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":null}`), false)
	f.Add(uint8(0), []byte(`{"tool_name":"Bash","tool_name":"Read","tool_input":{},"hook_event_name":"PreToolUse"}`), false)
	f.Add(uint8(1), []byte(`{"hook_event_name":"PreToolUse","tool_name":" Bash","tool_input":{"a":[[[{}]]]}}`), false)
	f.Fuzz(func(t *testing.T, which uint8, data []byte, needCwd bool) {
		agents := Agents()
		agent := agents[int(which)%len(agents)]
		c, err := ReadInput(agent, bytes.NewReader(data), needCwd)
		if err != nil {
			if !errs.Is(err, errs.KindInvalid) {
				t.Fatalf("error of kind %v, want invalid input: %v", errs.KindOf(err), err)
			}
			return
		}
		if c.Event != protocols[agent].event {
			t.Fatalf("event %q accepted for %s", c.Event, agent)
		}
		if c.Tool == "" || strings.TrimSpace(c.Tool) != c.Tool {
			t.Fatalf("tool name %q accepted", c.Tool)
		}
		if c.Cwd != "" && !filepath.IsAbs(c.Cwd) {
			t.Fatalf("relative cwd %q accepted", c.Cwd)
		}
		if needCwd && c.Cwd == "" {
			t.Fatal("no cwd accepted where one is required")
		}
		if !json.Valid(data) {
			t.Fatalf("accepted input that is not JSON: %q", data)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("accepted input that is not one object: %v", err)
		}
		if in := bytes.TrimSpace(m["tool_input"]); len(in) == 0 || in[0] != '{' {
			t.Fatalf("accepted a tool_input that is not an object: %q", in)
		}
	})
}
