package hook

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

const samples = "../../testdata/hooks"

func readSample(t *testing.T, agent, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join(samples, agent, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestReadInputSamples(t *testing.T) {
	tests := []struct {
		agent, file, tool, mode string
	}{
		{ClaudeCode, "bash.json", "Bash", "default"},
		{ClaudeCode, "read.json", "Read", "default"},
		{ClaudeCode, "write.json", "Write", "default"},
		{ClaudeCode, "mcp-tool.json", "mcp__github__create_issue", ""},
		{ClaudeCode, "future-fields.json", "Bash", ""},
		{ClaudeCode, "minimal.json", "Bash", ""},
		{Codex, "bash.json", "Bash", "default"},
		{Codex, "apply-patch.json", "apply_patch", "default"},
		{Codex, "mcp-tool.json", "mcp__github__create_issue", "bypassPermissions"},
		{Codex, "future-fields.json", "Bash", "default"},
		{GeminiCLI, "run-shell-command.json", "run_shell_command", ""},
		{GeminiCLI, "replace.json", "replace", ""},
		{GeminiCLI, "read-file.json", "read_file", ""},
		{GeminiCLI, "mcp-tool.json", "mcp_github_create_issue", ""},
		{GeminiCLI, "mcp-plain-name.json", "search_file_content", ""},
	}
	for _, tt := range tests {
		t.Run(tt.agent+"/"+tt.file, func(t *testing.T) {
			c, err := ReadInput(tt.agent, readSample(t, tt.agent, tt.file), false)
			if err != nil {
				t.Fatal(err)
			}
			if c.Tool != tt.tool || c.Event != eventOf(tt.agent) {
				t.Errorf("call %+v, want tool %q and event %q", c, tt.tool, eventOf(tt.agent))
			}
			if tt.mode != "" && c.Mode != tt.mode {
				t.Errorf("mode %q, want %q", c.Mode, tt.mode)
			}
		})
	}
}

func TestReadInputMalformed(t *testing.T) {
	problems := map[string]string{
		"array.json":              "expected one JSON object, got an array",
		"empty.json":              "nothing was given",
		"not-json.txt":            "not JSON",
		"truncated.json":          "not valid JSON",
		"two-objects.json":        "more than one JSON value",
		"post-tool-use.json":      `hook_event_name: is "PostToolUse"; this hook answers PreToolUse only`,
		"event-missing.json":      "hook_event_name: is missing",
		"tool-name-missing.json":  "tool_name: is missing",
		"tool-name-empty.json":    `tool_name: "" is not a tool name`,
		"tool-name-null.json":     "tool_name: must be a string, got null",
		"tool-name-number.json":   "tool_name: must be a string, got the number 42",
		"tool-name-twice.json":    "tool_name: is given more than once",
		"tool-input-string.json":  "tool_input: must be an object, got a string",
		"tool-input-null.json":    "tool_input: must be an object, got null",
		"tool-input-array.json":   "tool_input: must be an object, got an array",
		"tool-input-missing.json": "tool_input: is missing",
		"tool-input-deep.json":    "nested more than 64 levels deep",
		"cwd-relative.json":       `cwd: "shop" is not an absolute path`,
		"cwd-number.json":         "cwd: must be a string, got the number 7",
		"mode-object.json":        "permission_mode: must be a string, got an object",
		"after-tool.json":         `hook_event_name: is "AfterTool"; this hook answers BeforeTool only`,
		"pre-tool-use.json":       `hook_event_name: is "PreToolUse"; this hook answers BeforeTool only`,
	}
	for _, agent := range Agents() {
		files, err := filepath.Glob(filepath.Join(samples, agent, "malformed", "*"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no malformed samples", agent)
		}
		for _, file := range files {
			name := filepath.Base(file)
			t.Run(agent+"/"+name, func(t *testing.T) {
				want, ok := problems[name]
				if !ok {
					t.Fatalf("no expected problem for %s", name)
				}
				_, err := ReadInput(agent, readSample(t, agent, filepath.Join("malformed", name)), false)
				if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error()+problemText(err), want) {
					t.Errorf("error %v (%s), want invalid input saying %q", err, problemText(err), want)
				}
			})
		}
	}
}

func problemText(err error) string {
	e, ok := err.(*errs.Error)
	if !ok {
		return ""
	}
	var b strings.Builder
	for _, p := range e.Problems {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

func TestReadInputNeedsCwdWithoutProfile(t *testing.T) {
	in := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}`
	if _, err := ReadInput(ClaudeCode, strings.NewReader(in), false); err != nil {
		t.Fatalf("without a profile-less hook, cwd is optional: %v", err)
	}
	_, err := ReadInput(ClaudeCode, strings.NewReader(in), true)
	if !errs.Is(err, errs.KindInvalid) || !strings.Contains(problemText(err), "cwd: is missing") {
		t.Errorf("error %v, want cwd missing", err)
	}
	c, err := ReadInput(ClaudeCode, strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{},"cwd":"/srv/x"}`), true)
	if err != nil || c.Cwd != "/srv/x" {
		t.Errorf("call %+v, err %v", c, err)
	}
}

// TestReadInputTooLarge: an input past the limit is refused whatever it
// holds, without being decided on.
func TestReadInputTooLarge(t *testing.T) {
	big := `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"content":"` +
		strings.Repeat("x", MaxInputBytes) + `"}}`
	_, err := ReadInput(ClaudeCode, strings.NewReader(big), false)
	if !errs.Is(err, errs.KindInvalid) || !strings.Contains(problemText(err), "larger than") {
		t.Errorf("error %v, want too large", err)
	}
	// Just under the limit is read.
	fit := `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"content":"` +
		strings.Repeat("x", MaxInputBytes-100) + `"}}`
	if _, err := ReadInput(ClaudeCode, strings.NewReader(fit), false); err != nil {
		t.Errorf("an input under the limit: %v", err)
	}
}

func TestModeAsks(t *testing.T) {
	tests := []struct {
		agent, mode string
		asks        bool
	}{
		{ClaudeCode, "default", true},
		{ClaudeCode, "plan", true},
		{ClaudeCode, "acceptEdits", false},
		{ClaudeCode, "bypassPermissions", false},
		{ClaudeCode, "dontAsk", false},
		{ClaudeCode, "auto", false},
		{ClaudeCode, "", false},
		{ClaudeCode, "Default", false},
		{Codex, "default", false}, // every approval policy but never: no one may be asked
		{Codex, "bypassPermissions", false},
		{Codex, "", false},
		{GeminiCLI, "default", false},
		{GeminiCLI, "", false},
	}
	edit := map[string]string{ClaudeCode: "Write", Codex: "apply_patch", GeminiCLI: "write_file"}
	for _, tt := range tests {
		if got := ModeAsks(tt.agent, tt.mode, Classify(tt.agent, edit[tt.agent], nil)); got != tt.asks {
			t.Errorf("ModeAsks(%s, %q, an edit) = %v, want %v", tt.agent, tt.mode, got, tt.asks)
		}
		// Every other tool may run without a prompt in some mode (reads,
		// read-only shell commands, MCP resource reads, a tool newer than
		// the table): abstaining there would let it run with nobody asked.
		for _, tool := range []string{"Read", "Bash", "BashOutput", "ReadMcpResourceTool", "mcp__x__y", "Teleport", "WebFetch"} {
			if ModeAsks(tt.agent, tt.mode, Classify(tt.agent, tool, nil)) {
				t.Errorf("ModeAsks(%s, %q, %s) = true", tt.agent, tt.mode, tool)
			}
		}
		// Nor a tool the user reclassified as a write.
		if ModeAsks(tt.agent, tt.mode, Classify(tt.agent, "Bash", map[string]ToolClass{"Bash": {Write: true}})) {
			t.Errorf("ModeAsks(%s, %q) for a reclassified tool = true", tt.agent, tt.mode)
		}
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		agent, tool   string
		write, unsafe bool
		how           string
	}{
		{ClaudeCode, "Read", false, false, "a read tool"},
		{ClaudeCode, "Edit", true, false, "a write tool"},
		{ClaudeCode, "WebFetch", false, true, "a network tool"},
		{ClaudeCode, "Bash", true, true, "a shell tool"},
		{ClaudeCode, "mcp__github__create_issue", true, true, "an MCP tool"},
		{ClaudeCode, "Teleport", true, true, "not in the claude-code tool table"},
		{ClaudeCode, "read", true, true, "not in the claude-code tool table"},
		{Codex, "apply_patch", true, false, "a write tool"},
		{Codex, "Bash", true, true, "a shell tool"},
		{Codex, "Read", true, true, "not in the codex tool table"},
		{GeminiCLI, "read_file", false, false, "a read tool"},
		{GeminiCLI, "write_file", true, false, "a write tool"},
		{GeminiCLI, "run_shell_command", true, true, "a shell tool"},
		{GeminiCLI, "mcp_github_create_issue", true, true, "an MCP tool"},
		{GeminiCLI, "discovered_tool_deploy", true, true, "not in the gemini-cli tool table"},
	}
	for _, tt := range tests {
		c := Classify(tt.agent, tt.tool, nil)
		if c.Write != tt.write || c.Unsafe != tt.unsafe || !strings.HasPrefix(c.Describe(tt.agent), tt.how) {
			t.Errorf("Classify(%s, %s) = %+v %q, want write %v unsafe %v, %q", tt.agent, tt.tool, c.ToolClass, c.Describe(tt.agent), tt.write, tt.unsafe, tt.how)
		}
	}
	// The user's reclassification wins, both ways.
	over := map[string]ToolClass{"Bash": {}, "Read": {Write: true, Unsafe: true}}
	if c := Classify(ClaudeCode, "Bash", over); c.Write || c.Unsafe || !c.Reclassified || !strings.Contains(c.Describe(ClaudeCode), "reclassified in config.yaml") {
		t.Errorf("reclassified Bash = %+v", c)
	}
	if c := Classify(ClaudeCode, "Read", over); !c.Write || !c.Unsafe {
		t.Errorf("reclassified Read = %+v", c)
	}
}

// An MCP server's tool that bears the name of one of the agent's read
// tools is an MCP tool, when the input says it is a server's.
func TestClassifyCallMCP(t *testing.T) {
	tests := []struct {
		file          string
		mcp           bool
		write, unsafe bool
	}{
		{"mcp-plain-name.json", true, true, true},
		{"mcp-tool.json", true, true, true},
		{"read-file.json", false, false, false},
	}
	for _, tt := range tests {
		c, err := ReadInput(GeminiCLI, readSample(t, GeminiCLI, tt.file), false)
		if err != nil {
			t.Fatal(err)
		}
		got := ClassifyCall(GeminiCLI, c, nil)
		if c.MCP != tt.mcp || got.Write != tt.write || got.Unsafe != tt.unsafe {
			t.Errorf("%s: MCP %v, class %+v; want MCP %v, write %v, unsafe %v", tt.file, c.MCP, got.ToolClass, tt.mcp, tt.write, tt.unsafe)
		}
		if tt.mcp && !strings.HasPrefix(got.Describe(GeminiCLI), "an MCP tool") {
			t.Errorf("%s: described as %q", tt.file, got.Describe(GeminiCLI))
		}
	}
	// Whatever its value but null, and only in Gemini CLI's input.
	for v, mcp := range map[string]bool{"null": false, "{}": true, `"x"`: true, "[]": true, "0": true} {
		in := `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{},"mcp_context":` + v + `}`
		if c, err := ReadInput(GeminiCLI, strings.NewReader(in), false); err != nil || c.MCP != mcp {
			t.Errorf("mcp_context %s: MCP %v, error %v; want MCP %v", v, c.MCP, err, mcp)
		}
	}
	in := `{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{},"mcp_context":{}}`
	if c, err := ReadInput(ClaudeCode, strings.NewReader(in), false); err != nil || c.MCP {
		t.Errorf("Claude Code input with mcp_context: MCP %v, error %v", c.MCP, err)
	}
	// The user's reclassification in config.yaml still wins.
	c := Call{Tool: "search_file_content", MCP: true}
	if got := ClassifyCall(GeminiCLI, c, map[string]ToolClass{"search_file_content": {}}); got.Write || got.Unsafe || !got.Reclassified {
		t.Errorf("reclassified MCP tool = %+v", got)
	}
}

func TestEncode(t *testing.T) {
	const (
		allowJSON = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"r"}}`
		askJSON   = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"r"}}`
		denyJSON  = `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`
	)
	tests := []struct {
		agent string
		mode  string
		kind  Kind
		want  string // "" for no output
	}{
		{ClaudeCode, "default", Allow, allowJSON},
		{ClaudeCode, "default", Ask, askJSON},
		{ClaudeCode, "default", Deny, denyJSON},
		{ClaudeCode, "default", Abstain, ""},
		// A person answers an ask in these modes too.
		{ClaudeCode, "plan", Ask, askJSON},
		{ClaudeCode, "acceptEdits", Ask, askJSON},
		// In auto mode Claude Code's classifier settles an ask, and
		// bypassPermissions ran the call before 2.1.233; dontAsk, a
		// missing mode and one it may add later have nobody to ask.
		{ClaudeCode, "auto", Ask, denyJSON},
		{ClaudeCode, "bypassPermissions", Ask, denyJSON},
		{ClaudeCode, "dontAsk", Ask, denyJSON},
		{ClaudeCode, "", Ask, denyJSON},
		{ClaudeCode, "Default", Ask, denyJSON},
		{ClaudeCode, "yolo", Ask, denyJSON},
		{ClaudeCode, "auto", Allow, allowJSON},
		{ClaudeCode, "auto", Deny, denyJSON},
		// Codex rejects a bare allow and has no ask: neither is ever sent.
		{Codex, "default", Allow, ""},
		{Codex, "default", Ask, denyJSON},
		{Codex, "default", Deny, denyJSON},
		{Codex, "default", Abstain, ""},
		// Gemini CLI before its ask merged a value it did not know to allow.
		{GeminiCLI, "", Allow, `{"decision":"allow","reason":"r"}`},
		{GeminiCLI, "", Ask, `{"decision":"deny","reason":"r"}`},
		{GeminiCLI, "default", Ask, `{"decision":"deny","reason":"r"}`},
		{GeminiCLI, "", Deny, `{"decision":"deny","reason":"r"}`},
		{GeminiCLI, "", Abstain, ""},
	}
	for _, tt := range tests {
		b, err := Encode(tt.agent, tt.mode, Answer{Kind: tt.kind}, "r")
		if err != nil || string(b) != tt.want {
			t.Errorf("Encode(%s, %q, %s) = %s, %v; want %s", tt.agent, tt.mode, tt.kind, b, err, tt.want)
		}
		if strings.Contains(string(b), "defer") {
			t.Errorf("Encode(%s, %q, %s) sent defer", tt.agent, tt.mode, tt.kind)
		}
	}
}

func TestPersonTool(t *testing.T) {
	for _, tt := range []struct {
		agent, tool string
		want        bool
	}{
		{ClaudeCode, "AskUserQuestion", true},
		{ClaudeCode, "ExitPlanMode", true},
		{ClaudeCode, "EnterPlanMode", false},
		{ClaudeCode, "Read", false},
		{ClaudeCode, "askuserquestion", false},
		{Codex, "AskUserQuestion", false},
		{GeminiCLI, "ask_user", false},
	} {
		if got := PersonTool(tt.agent, tt.tool); got != tt.want {
			t.Errorf("PersonTool(%s, %s) = %v, want %v", tt.agent, tt.tool, got, tt.want)
		}
	}
}

func TestDenyAnswer(t *testing.T) {
	for _, agent := range Agents() {
		b := DenyAnswer(agent, "why")
		var v map[string]any
		if err := json.Unmarshal(b, &v); err != nil || !strings.Contains(string(b), `"deny"`) || !strings.Contains(string(b), "why") {
			t.Errorf("%s: deny %s (%v)", agent, b, err)
		}
	}
	if DenyAnswer("cursor", "why") != nil {
		t.Error("a deny for an unknown agent")
	}
}

// TestSnippetCommand runs the snippet's command through a shell, as the
// agents do, with paths that need quoting, and with the binary gone.
func TestSnippetCommand(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on this system")
	}
	dir := filepath.Join(t.TempDir(), "it's a \"dir\" with $HOME")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "fake agents")
	// A stand-in binary that prints its arguments and exits as told.
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\"\nexit ${FAKE_EXIT:-0}\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home; rm -rf x")
	for _, agent := range Agents() {
		args := []string{"--home", HomeArg, "automation-profile", "check-guard", "acme/strict", "--hook", agent, "--sandboxed"}
		raw, err := Snippet(agent, SnippetOptions{Binary: bin, Home: home, Args: args})
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Hooks map[string][]struct {
				Matcher string `json:"matcher"`
				Hooks   []struct {
					Type    string `json:"type"`
					Command string `json:"command"`
					Timeout int    `json:"timeout"`
				} `json:"hooks"`
			} `json:"hooks"`
		}
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&doc); err != nil {
			t.Fatalf("%s: snippet is not the settings shape: %v\n%s", agent, err, raw)
		}
		entries := doc.Hooks[eventOf(agent)]
		if len(entries) != 1 || entries[0].Matcher != "*" || len(entries[0].Hooks) != 1 || entries[0].Hooks[0].Type != "command" {
			t.Fatalf("%s: snippet %s", agent, raw)
		}
		h := entries[0].Hooks[0]
		wantTimeout := 30
		if agent == GeminiCLI {
			wantTimeout = 30000 // milliseconds
		}
		if h.Timeout != wantTimeout {
			t.Errorf("%s: timeout %d, want %d", agent, h.Timeout, wantTimeout)
		}
		out, err := exec.Command("sh", "-c", h.Command).Output()
		if err != nil {
			t.Fatalf("%s: command: %v", agent, err)
		}
		want := "--home\n" + home + "\nautomation-profile\ncheck-guard\nacme/strict\n--hook\n" + agent + "\n--sandboxed\n"
		if string(out) != want {
			t.Errorf("%s: the binary got\n%s\nwant\n%s", agent, out, want)
		}
		for code, want := range map[string]int{"0": 0, "2": 2, "1": 2, "3": 2, "75": 2, "130": 2} {
			cmd := exec.Command("sh", "-c", h.Command)
			cmd.Env = append(os.Environ(), "FAKE_EXIT="+code)
			err := cmd.Run()
			got := 0
			if ee, ok := err.(*exec.ExitError); ok {
				got = ee.ExitCode()
			}
			if got != want {
				t.Errorf("%s: binary exit %s became %d, want %d", agent, code, got, want)
			}
		}
	}
	// The binary gone: the call must be blocked, with a reason on stderr.
	cmdline := Command(SnippetOptions{Binary: filepath.Join(dir, "missing"), Home: home, Args: []string{"--home", HomeArg, "automation-profile", "check-guard", "ci", "--hook", ClaudeCode}})
	cmd := exec.Command("sh", "-c", cmdline)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "the tool call is blocked") {
		t.Errorf("missing binary: %v, stderr %q; want exit 2 and a reason", err, stderr.String())
	}
}

// eventOf is the pre-tool event agent's hook answers.
func eventOf(agent string) string { return protocols[agent].event }

// TestDecideUnknownVerdictDenies: only an explicit allowed verdict can let
// a call through; one this code does not know is a deny.
func TestDecideUnknownVerdictDenies(t *testing.T) {
	p := &profile.AutomationProfile{}
	if a := Decide(profile.GuardResult{Verdict: profile.Verdict(99)}, p, Options{}); a.Kind != Deny {
		t.Errorf("an unknown verdict gave %v", a.Kind)
	}
	if a := Decide(profile.GuardResult{Verdict: profile.VerdictAllowed}, p, Options{}); a.Kind != Allow {
		t.Errorf("allowed, under a profile with no threshold, gave %v", a.Kind)
	}
}

// TestReadInputPaths: the files a tool's input names are every value of
// its path members, a member given twice included (the agent acts on one
// of them, this side cannot tell which), and the files a patch in Codex's
// format adds, changes, removes or moves to.
func TestReadInputPaths(t *testing.T) {
	for _, tt := range []struct {
		agent string
		in    string
		want  []string
	}{
		{ClaudeCode, `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"/h/config.yaml","file_path":"/tmp/x","content":"y"}}`,
			[]string{"/h/config.yaml", "/tmp/x"}},
		{ClaudeCode, `{"hook_event_name":"PreToolUse","tool_name":"NotebookEdit","tool_input":{"notebook_path":"/n.ipynb","path":"/p"}}`,
			[]string{"/n.ipynb", "/p"}},
		{Codex, `{"hook_event_name":"PreToolUse","tool_name":"apply_patch","cwd":"/w","tool_input":{"command":"*** Begin Patch\n*** Add File: /h/config.yaml\n+x\n*** Update File: a.go\n*** Move to: ../h/profiles/acme/x.yaml\n@@\n-a\n+b\n*** Delete File: b.go\r\n*** End Patch\n"}}`,
			[]string{"/h/config.yaml", "a.go", "../h/profiles/acme/x.yaml", "b.go"}},
		{Codex, `{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/w","tool_input":{"command":"echo '*** Add File: /h/config.yaml'"}}`,
			nil},
		// Codex trims a header line and unwraps a patch sent as a heredoc.
		{Codex, `{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n   *** Add File: /h/config.yaml\n+x\n\t*** Update File:/h/a.yaml \n*** End Patch"}}`,
			[]string{"/h/config.yaml", "/h/a.yaml", "/h/a.yaml "}},
		{Codex, `{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"<<'EOF'\n*** Begin Patch\n*** Add File: /h/config.yaml\n+x\n*** End Patch\nEOF"}}`,
			[]string{"/h/config.yaml"}},
		// Codex keeps the spaces after "File: " as part of the path.
		{Codex, `{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Add File:  /../h/config.yaml\n"}}`,
			[]string{"/../h/config.yaml", " /../h/config.yaml"}},
		// "*** Move to:" is read as it stands, trailing spaces and all.
		{Codex, `{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Update File: a\n*** Move to: evil \r\n*** Move to: bad\r\r\n"}}`,
			[]string{"a", "evil", "evil ", "bad", "bad\r"}},
		// A command given as its words: apply_patch through the shell.
		{Codex, `{"hook_event_name":"PreToolUse","tool_name":"shell","tool_input":{"command":["apply_patch","*** Begin Patch\n*** Delete File: /h/config.yaml\n*** End Patch"],"workdir":"/w"}}`,
			[]string{"/h/config.yaml"}},
		{Codex, `{"hook_event_name":"PreToolUse","tool_name":"shell","tool_input":{"command":["bash","-lc",["nested"],{"k":"v"}]}}`,
			nil},
		// An MCP file server's move names its target as destination,
		// and other servers' tools name theirs in a list or otherwise.
		{ClaudeCode, `{"hook_event_name":"PreToolUse","tool_name":"mcp__fs__move_file","tool_input":{"source":"/w/a","destination":"/h/config.yaml"}}`,
			[]string{"/w/a", "/h/config.yaml"}},
		{GeminiCLI, `{"hook_event_name":"BeforeTool","tool_name":"mcp_fs_edit","tool_input":{"paths":["/w/a","/h/b"],"target":"/h/c","filename":"d","new_path":"e","old_path":"f"}}`,
			[]string{"/w/a", "/h/b", "/h/c", "d", "e", "f"}},
	} {
		c, err := ReadInput(tt.agent, strings.NewReader(tt.in), false)
		if err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		if !slices.Equal(c.Paths, tt.want) {
			t.Errorf("%s: paths %q, want %q", tt.in, c.Paths, tt.want)
		}
	}
}

// TestSettingsFiles: the settings files the environment moves or names
// are given with the administrators' files; unset variables add none.
func TestSettingsFiles(t *testing.T) {
	env := map[string]string{
		"CLAUDE_CONFIG_DIR":               "/c",
		"CODEX_HOME":                      "/x",
		"GEMINI_CLI_SYSTEM_SETTINGS_PATH": "g.json",
	}
	got := SettingsFiles(func(k string) string { return env[k] })
	for _, want := range []string{"/c/settings.json", "/c/settings.local.json", "/x/hooks.json", "/x/config.toml", "g.json", systemClaudeManaged[0], systemGemini[0]} {
		if !slices.Contains(got, want) {
			t.Errorf("SettingsFiles = %q, want %s among them", got, want)
		}
	}
	if none := SettingsFiles(func(string) string { return "" }); len(none) != len(systemSettings) {
		t.Errorf("with no variables set: %q", none)
	}
}

// TestReadInputNamed: the other strings of a tool's input that may name a
// file, at any depth, a file:// URI's path among them; text is not, and
// past MaxNamed the call says so.
func TestReadInputNamed(t *testing.T) {
	in := `{"hook_event_name":"PreToolUse","tool_name":"mcp__x__w","tool_input":{
		"relative_path":"../h/config.yaml","name":"notes","mode":"fast",
		"files":[{"path":"/h/a","content":"x"},{"uri":"FILE:///h/b%20c"}],
		"body":"line one\nline two /h/c","opts":{"deep":{"deeper":["~/d"]}},"n":3}}`
	c, err := ReadInput(ClaudeCode, strings.NewReader(in), false)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"../h/config.yaml", "notes", "/h/a", "/h/b c", "/h/b%20c", "FILE:///h/b%20c", "~/d"}
	if !slices.Equal(c.Named, want) || c.NamedTooMany {
		t.Errorf("Named = %q (too many %v), want %q", c.Named, c.NamedTooMany, want)
	}
	var b strings.Builder
	b.WriteString(`{"hook_event_name":"PreToolUse","tool_name":"mcp__x__w","tool_input":{"files":[`)
	for i := range MaxNamed + 1 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/w/%d"`, i)
	}
	b.WriteString(`]}}`)
	c, err = ReadInput(ClaudeCode, strings.NewReader(b.String()), false)
	if err != nil || len(c.Named) != MaxNamed || !c.NamedTooMany {
		t.Errorf("%d strings: %d named, too many %v, %v", MaxNamed+1, len(c.Named), c.NamedTooMany, err)
	}
}

// TestPermitsEdits: a Claude Code settings file lets an edit run without
// asking when it allows an edit tool (or any) or sets another default
// mode; content of another shape could say anything.
func TestPermitsEdits(t *testing.T) {
	const ours = "/usr/local/bin/agents automation-profile check-guard review --hook claude-code --abstain"
	self := func(command string) bool { return command == ours }
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{`{}`, false},
		{`{"permissions":{"allow":["Bash(go test:*)","Read","WebFetch(domain:example.com)"],"deny":["Edit"]}}`, false},
		{`{"permissions":{"defaultMode":"default"}}`, false},
		{`{"permissions":{"defaultMode":"plan"}}`, false},
		{`{"permissions":{"allow":["Edit(src/**)"]}}`, true},
		{`{"permissions":{"allow":["write"]}}`, true},
		{`{"permissions":{"allow":[" MultiEdit "]}}`, true},
		{`{"permissions":{"allow":["NotebookEdit"]}}`, true},
		{`{"permissions":{"allow":["*"]}}`, true},
		{`{"permissions":{"defaultMode":"acceptEdits"}}`, true},
		{`{"permissions":{"allow":"Edit"}}`, true},
		{`{"permissions":[]}`, true},
		// Keys are read as Claude Code reads them: a key in other letter
		// case cannot hide one, and the last of a key given twice wins.
		{`{"permissions":{"allow":["Edit"]},"PERMISSIONS":null}`, true},
		{`{"permissions":{"allow":["Edit"],"Allow":[]}}`, true},
		{`{"permissions":{"defaultMode":"acceptEdits","defaultmode":"default"}}`, true},
		{`{"permissions":{"allow":["Read"]},"permissions":{"allow":["Edit"]}}`, true},
		{`{"permissions":{"allow":["Edit"]},"permissions":{"allow":["Read"]}}`, false},
		{`{"permissions":{"allow":[1]}}`, true},
		{`{"permissions":null}`, false},
		// Another pre-tool hook may answer allow; this one may not. Nor
		// may one that runs agents under another profile, or only names it.
		{`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/usr/local/bin/agents automation-profile check-guard review --hook claude-code --abstain"}]}]}}`, false},
		{`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"http","url":"http://127.0.0.1:9/allow","command":"/usr/local/bin/agents automation-profile check-guard review --hook claude-code --abstain"}]}]}}`, true},
		{`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"command":"/usr/local/bin/agents automation-profile check-guard review --hook claude-code --abstain"}]}]}}`, true},
		{`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"agents automation-profile check-guard full-auto --hook claude-code"}]}]}}`, true},
		{`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"./approve-all.sh # agents check-guard"}]}]}}`, true},
		// A permission-request hook may answer the prompt for the person.
		{`{"hooks":{"PermissionRequest":[{"matcher":"*","hooks":[{"type":"command","command":"./approve.sh"}]}]}}`, true},
		{`{"hooks":{"permissionRequest":[]}}`, true},
		{`{"hooks":{"PermissionRequest":[]}}`, false},
		// A plugin may bring a hook of its own.
		{`{"enabledPlugins":{"x@market":true}}`, true},
		{`{"enabledPlugins":{"x@market":false}}`, false},
		{`{"hooks":{"PreToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"./approve.sh"}]}]}}`, true},
		{`{"hooks":{"PostToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"./fmt.sh"}]}]}}`, false},
		{`{"hooks":{"preToolUse":[]}}`, true},
		{`{"hooks":[]}`, true},
		{`null`, true},
		{`not json`, true},
	} {
		if got := PermitsEdits([]byte(tt.in), self); got != tt.want {
			t.Errorf("PermitsEdits(%s) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestAnswersAsks: only a PermissionRequest hook, or a plugin that may
// bring one, answers an ask in a person's place; a rule or another
// pre-tool hook does not, as an ask wins over their allow.
func TestAnswersAsks(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{`{}`, false},
		{`{"permissions":{"allow":["Bash","Edit","*"],"defaultMode":"acceptEdits"}}`, false},
		{`{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"./approve.sh"}]}]}}`, false},
		{`{"hooks":{"PostToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"./fmt.sh"}]}]}}`, false},
		{`{"hooks":{"PermissionRequest":[]}}`, false},
		{`{"hooks":null}`, false},
		{`{"enabledPlugins":{"x@market":false}}`, false},
		{`{"hooks":{"PermissionRequest":[{"matcher":"Bash","hooks":[{"type":"command","command":"./approve.sh"}]}]}}`, true},
		{`{"hooks":{"PermissionRequest":{}}}`, true},
		{`{"hooks":{"permissionrequest":[]}}`, true},
		{`{"HOOKS":{}}`, true},
		{`{"hooks":[]}`, true},
		{`{"enabledPlugins":{"x@market":true}}`, true},
		{`{"enabledplugins":{}}`, true},
		{`{"enabledPlugins":[]}`, true},
		{`null`, true},
		{`not json`, true},
	} {
		if got := AnswersAsks([]byte(tt.in)); got != tt.want {
			t.Errorf("AnswersAsks(%s) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestReadInputNamedNested: strings nested in a list under a key read as
// a path are named too; a folder key's value is a folder; a path too long
// to read leaves the files untold.
func TestReadInputNamedNested(t *testing.T) {
	in := `{"hook_event_name":"PreToolUse","tool_name":"mcp__x__w","tool_input":{
		"paths":["/top",["/h/a"],{"path":"/h/b"}],"source":[{"uri":"file:///h/c"}],
		"dir":"/h/.claude","name":"settings.json","workspace":"/w"}}`
	c, err := ReadInput(ClaudeCode, strings.NewReader(in), false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/h/a", "/h/b", "/h/c", "file:///h/c", "/h/.claude", "settings.json", "/w", "/top"}; !slices.Equal(c.Named, want) {
		t.Errorf("Named = %q, want %q", c.Named, want)
	}
	if !slices.Equal(c.Paths, []string{"/top"}) || !slices.Equal(c.NamedDirs, []string{"/h/.claude", "/w"}) || c.NamedTooMany {
		t.Errorf("Paths %q, NamedDirs %q, too many %v", c.Paths, c.NamedDirs, c.NamedTooMany)
	}
	// A path too long to open is taken as a server would tidy it; one
	// that stays too long names nothing a system could open. Space around
	// a path, which a server may trim, does not hide it; nor does being a
	// word of a command.
	long := "x/" + strings.Repeat("./", 2100) + "../.config/agents/config.yaml"
	in = `{"hook_event_name":"PreToolUse","tool_name":"mcp__x__w","tool_input":{"to":"` + long + `","text":"` + strings.Repeat("x/", 3000) +
		`","nested":{"to":" /h/a\n"},"command":["cp","x","/h/b"]}}`
	c, err = ReadInput(ClaudeCode, strings.NewReader(in), false)
	if want := []string{".config/agents/config.yaml", "/h/a", "/h/b"}; err != nil || len(c.Named) == 0 || c.Named[0] != want[0] ||
		!slices.Contains(c.Named, want[1]) || !slices.Contains(c.Named, want[2]) || c.NamedTooMany {
		t.Errorf("Named = %q (too many %v), want among them %q; %v", c.Named, c.NamedTooMany, want, err)
	}
	if slices.ContainsFunc(c.Named, func(n string) bool { return len(n) > 4096 }) {
		t.Errorf("a string too long to open was named: %d names", len(c.Named))
	}
}

// TestReadInputNamedKeysAndURLs: a value under a key read as a path is read
// as any other string too (a file: URI however written, space a server
// trims); a URL of another scheme is read as a path too ("zz://../x"
// joined to a folder is one); a string named twice counts once; a few
// hundred URLs are read one by one.
func TestReadInputNamedKeysAndURLs(t *testing.T) {
	in := `{"hook_event_name":"PreToolUse","tool_name":"mcp__fs__write_file","tool_input":{
		"path":"file:///h/config.yaml","destination":" /h/d","out":"zz://../h/e",
		"uris":["file:h/f","FILE:\\\\/h/g","file:///h/%68","file:///h/i\\config.yaml","file:///h/\tj\n"," \u001ffile:///h/k"],"a":"/h/same","b":"/h/same"}}`
	c, err := ReadInput(ClaudeCode, strings.NewReader(in), false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"/h/config.yaml", "/h/d", "zz://../h/e", "/h/f", "/h/g", "/h/h", "/h/i/config.yaml", "/h/j", "/h/k"} {
		if !slices.Contains(c.Named, want) {
			t.Errorf("Named = %q, want %s among them", c.Named, want)
		}
	}
	if n := len(slices.Compact(slices.Sorted(slices.Values(c.Named)))); n != len(c.Named) {
		t.Errorf("a string named twice: %q", c.Named)
	}
	var b strings.Builder
	b.WriteString(`{"hook_event_name":"PreToolUse","tool_name":"mcp__crawler__crawl","tool_input":{"urls":[`)
	for i := range 300 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"https://example.com/p/%d"`, i)
	}
	b.WriteString(`]}}`)
	if c, err = ReadInput(ClaudeCode, strings.NewReader(b.String()), false); err != nil || c.NamedTooMany || len(c.Named) != 300 {
		t.Errorf("300 web URLs: %d named, too many %v, %v", len(c.Named), c.NamedTooMany, err)
	}
}
