package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// copyBinary puts a copy of the built binary in a folder of its own, so a
// test can take it away.
func copyBinary(t *testing.T) string {
	t.Helper()
	src, err := os.Open(agentsBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst := filepath.Join(t.TempDir(), "bin dir", "agents")
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(f, src); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestPrintConfigSnippets installs each agent's snippet as the agent
// would read it, runs its command through a shell with a real hook input,
// then runs it again with the binary gone: that must block too.
func TestPrintConfigSnippets(t *testing.T) {
	inputs := map[string]string{
		"claude-code": `{"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Read","tool_input":{"file_path":"/x"}}`,
		"codex":       `{"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** End Patch\n"}}`,
		"gemini-cli":  `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"file_path":"/x"}}`,
	}
	want := map[string]string{
		"claude-code": `"permissionDecision":"allow"`,
		"codex":       `"permissionDecision":"deny"`, // a write without a declared checkpoint
		"gemini-cli":  `"decision":"allow"`,
	}
	events := map[string]string{"claude-code": "PreToolUse", "codex": "PreToolUse", "gemini-cli": "BeforeTool"}
	for agent, input := range inputs {
		t.Run(agent, func(t *testing.T) {
			bin := copyBinary(t)
			home := t.TempDir()
			cmd := exec.Command(bin, "automation-profile", "check-guard", "ci", "--hook", agent, "--print-config", "--sandboxed")
			cmd.Env = append(os.Environ(), "AGENTS_HOME="+home)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("--print-config: %v", err)
			}
			var settings struct {
				Hooks map[string][]struct {
					Matcher string `json:"matcher"`
					Hooks   []struct {
						Type    string `json:"type"`
						Command string `json:"command"`
						Timeout int    `json:"timeout"`
					} `json:"hooks"`
				} `json:"hooks"`
			}
			dec := json.NewDecoder(bytes.NewReader(out))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&settings); err != nil {
				t.Fatalf("the snippet is not the agent's settings shape: %v\n%s", err, out)
			}
			entries := settings.Hooks[events[agent]]
			if len(entries) != 1 || entries[0].Matcher != "*" || len(entries[0].Hooks) != 1 || entries[0].Hooks[0].Type != "command" {
				t.Fatalf("snippet %s", out)
			}
			command := entries[0].Hooks[0].Command
			if !strings.Contains(command, bin) {
				t.Errorf("the command %q does not name the binary by its absolute path %s", command, bin)
			}
			run := func() (int, string, string) {
				c := exec.Command("sh", "-c", command)
				c.Stdin = strings.NewReader(input)
				c.Env = []string{"PATH=/usr/bin:/bin"} // no AGENTS_HOME: the snippet names the home
				var stdout, stderr bytes.Buffer
				c.Stdout, c.Stderr = &stdout, &stderr
				err := c.Run()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				}
				return code, stdout.String(), stderr.String()
			}
			code, stdout, stderr := run()
			if code != 0 || !strings.Contains(stdout, want[agent]) {
				t.Errorf("hook: exit %d stdout %q stderr %q, want 0 and %s", code, stdout, stderr, want[agent])
			}
			if err := os.Remove(bin); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr = run()
			if code != 2 || stdout != "" || !strings.Contains(stderr, "the tool call is blocked") {
				t.Errorf("binary gone: exit %d stdout %q stderr %q, want 2 and a reason", code, stdout, stderr)
			}
		})
	}
}

// TestHookSignalBlocks: a hook interrupted or terminated exits 2, whether
// the signal comes before or while it waits, with a deny on stdout.
func TestHookSignalBlocks(t *testing.T) {
	home := t.TempDir()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		// The hook waits for its input on a pipe that stays open.
		cmd := exec.Command(agentsBinary(t), "automation-profile", "check-guard", "ci", "--hook", "claude-code")
		cmd.Env = append(os.Environ(), "AGENTS_HOME="+home)
		w, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		_ = cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("%v: the hook did not end", sig)
		}
		w.Close()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != 2 {
			t.Errorf("%v: exit %d (%v), stderr %q; want 2", sig, code, err, stderr.String())
		}
		if !strings.Contains(stdout.String(), `"permissionDecision":"deny"`) {
			t.Errorf("%v: no deny on stdout: %q", sig, stdout.String())
		}
	}
}

// TestLockdownExample: the example organisation pack refuses full-auto in
// every command that takes a decision or makes a plan, and in each hook.
func TestLockdownExample(t *testing.T) {
	home := t.TempDir()
	packs := filepath.Join(home, "packs", "safety")
	if err := os.MkdirAll(packs, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"acme_lockdown_v1.json", "acme_lockdown_v1.mastery_report.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", "packs", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(packs, f), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("safety_pack: acme_lockdown_v1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	action := filepath.Join(t.TempDir(), "deploy.yaml")
	if err := os.WriteFile(action, []byte("name: local/deploy\ndescription: Deploy\ndefinition_of_done: Deployed\nstrategy_actor: local/default\nexecution_actor: local/default\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := runAgents(t, home, "action", "add", "-c", action); r.code != 0 {
		t.Fatalf("action add: %d %s", r.code, r.stderr)
	}
	const rule = "pack.no_unsafe_tools_outside_sandbox"
	for _, args := range [][]string{
		{"automation-profile", "check-gate", "full-auto", "auto_apply", "--confidence", "1", "-f", "json"},
		{"automation-profile", "check-guard", "full-auto", "--tool", "read", "-f", "json"},
	} {
		r := runAgents(t, home, args...)
		if r.code != 11 || !strings.Contains(r.stdout, `"rule": "`+rule+`"`) {
			t.Errorf("%v: exit %d stdout %s stderr %s; want 11 by %s", args, r.code, r.stdout, r.stderr, rule)
		}
	}
	if r := runAgents(t, home, "plan", "use", "local/deploy", "--automation-profile", "full-auto"); r.code != 6 || !strings.Contains(r.stderr, rule) {
		t.Errorf("plan use: exit %d stderr %s; want 6 by %s", r.code, r.stderr, rule)
	}
	// resolve answers as plan use would: it does not report a choice the
	// pack refuses to record.
	if r := runAgents(t, home, "automation-profile", "resolve", "--action", "local/deploy", "--automation-profile", "full-auto"); r.code != 6 || !strings.Contains(r.stderr, rule) {
		t.Errorf("resolve: exit %d stderr %s; want 6 by %s", r.code, r.stderr, rule)
	}
	inputs := map[string]string{
		"claude-code": `{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{}}`,
		"codex":       `{"hook_event_name":"PreToolUse","tool_name":"read_file","tool_input":{}}`,
		"gemini-cli":  `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{}}`,
	}
	for agent, in := range inputs {
		cmd := exec.Command(agentsBinary(t), "automation-profile", "check-guard", "full-auto", "--hook", agent)
		cmd.Env = append(os.Environ(), "AGENTS_HOME="+home)
		cmd.Stdin = strings.NewReader(in)
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), `"deny"`) || !strings.Contains(string(out), "rule "+rule) {
			t.Errorf("%s hook: %v %s; want a deny by %s", agent, err, out, rule)
		}
	}
	// A profile that upholds the lock-down is decided as usual.
	if r := runAgents(t, home, "automation-profile", "check-guard", "trusted", "--tool", "read", "-f", "json"); r.code != 0 {
		t.Errorf("trusted under the lock-down: exit %d %s", r.code, r.stderr)
	}
}

// TestHookBrokenPipeBlocks: an agent that stops reading the hook's answer
// makes the write fail; the hook exits 2, not 141 from SIGPIPE, which the
// agent would take for "go ahead".
func TestHookBrokenPipeBlocks(t *testing.T) {
	home := t.TempDir()
	call := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`
	for i := 0; i < 3; i++ {
		cmd := exec.Command(agentsBinary(t), "automation-profile", "check-guard", "manual", "--hook", "claude-code")
		cmd.Env = append(os.Environ(), "AGENTS_HOME="+home)
		cmd.Stdin = strings.NewReader(call)
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close() // nobody will read the answer
		cmd.Stdout = w
		err = cmd.Run()
		w.Close()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != 2 {
			t.Fatalf("a hook whose answer nobody reads: exit %d (%v), want 2", code, err)
		}
	}
}

// TestHookAfterDoubleDash: "--" taken as a flag's value does not hide
// --hook after it: a failure still exits 2, never a code the agent reads
// as "go ahead".
func TestHookAfterDoubleDash(t *testing.T) {
	home := t.TempDir()
	cmd := exec.Command(agentsBinary(t), "automation-profile", "check-guard", "acme/none", "--category", "--", "--hook", "claude-code")
	cmd.Env = append(os.Environ(), "AGENTS_HOME="+home)
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}`)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 2 || !strings.Contains(stdout.String(), `"permissionDecision":"deny"`) {
		t.Errorf("exit %d, stdout %q; want 2 and a deny", code, stdout.String())
	}
	// A flag that fails to parse before --hook (pflag stops there, so
	// --hook itself is never set) is still a hook's failure: exit 2 and a
	// deny in the agent's protocol.
	for _, args := range [][]string{
		{"automation-profile", "check-guard", "--bogus", "--hook", "claude-code"},
		{"automation-profile", "check-guard", "full-auto", "--sandboxed=maybe", "--hook", "claude-code"},
		{"help", "automation-profile", "check-guard", "--hook", "claude-code"},
	} {
		cmd := exec.Command(agentsBinary(t), args...)
		cmd.Env = append(os.Environ(), "AGENTS_HOME="+home)
		cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{}}`)
		var out bytes.Buffer
		cmd.Stdout = &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != 2 || !strings.Contains(out.String(), `"permissionDecision":"deny"`) {
			t.Errorf("%v: exit %d, stdout %q; want 2 and a deny", args, code, out.String())
		}
	}
	// Once the command has run without an error, "--hook" as another
	// flag's value, or as an argument after a real "--", is no hook: the
	// command answers as it would otherwise.
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "--hook"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"automation-profile", "check-guard", "full-auto", "--tool", "--hook", "-f", "json"},
		{"project", "trust", "--", "--hook"},
	} {
		cmd := exec.Command(agentsBinary(t), args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "AGENTS_HOME="+filepath.Join(dir, "home"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%v: %v\n%s", args, err, out)
		}
	}
}

// TestHookOutputDiscardedBlocks: a hook whose standard output is the null
// device, or closed (which the Go runtime reopens on the null device),
// cannot deliver its answer: it blocks with exit 2, whatever the decision.
func TestHookOutputDiscardedBlocks(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct{ name, tool, redirect string }{
		{"a deny to /dev/null", "Bash", ">/dev/null"},
		{"an allow to /dev/null", "Read", ">/dev/null"},
		{"a deny to a closed stdout", "Bash", ">&-"},
	} {
		call := `{"hook_event_name":"PreToolUse","tool_name":"` + tc.tool + `","tool_input":{"file_path":"/x"}}`
		cmd := exec.Command("sh", "-c", `"$0" automation-profile check-guard full-auto --hook claude-code --sandboxed --checkpointed `+tc.redirect, agentsBinary(t))
		cmd.Env = append(os.Environ(), "AGENTS_HOME="+home)
		cmd.Stdin = strings.NewReader(call)
		r, err := runCmd(cmd)
		if err != nil {
			t.Fatal(err)
		}
		if r.code != 2 || !strings.Contains(r.stderr, "answer would be lost") {
			t.Errorf("%s: exit %d, want 2\n%s", tc.name, r.code, r.stderr)
		}
	}
	// Where it can deliver it, the same hook answers.
	cmd := exec.Command(agentsBinary(t), "automation-profile", "check-guard", "full-auto", "--hook", "claude-code", "--sandboxed", "--checkpointed")
	cmd.Env = append(os.Environ(), "AGENTS_HOME="+home)
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/x"}}`)
	if r, err := runCmd(cmd); err != nil || r.code != 0 || !strings.Contains(r.stdout, `"allow"`) {
		t.Fatalf("the same hook to a pipe: exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
}
