package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A folder given as standard input (agents ... < dir) holds no document:
// the input's mistake, invalid input (exit 3) as a folder named with -c
// is, with a hint; not an unexpected failure of agents (exit 1). A hook
// blocks as for any input it cannot read.
func TestStdinFolder(t *testing.T) {
	bin := agentsBinary(t)
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"automation-profile", "add", "-c", "-"}, 3},
		{[]string{"action", "add", "-c", "-"}, 3},
		{[]string{"safety-profile", "show", "-"}, 3},
		{[]string{"automation-profile", "check-guard", "full-auto", "--stdin-json"}, 3},
		{[]string{"automation-profile", "check-guard", "full-auto", "--hook", "claude-code"}, 2},
	}
	for _, tt := range tests {
		dir, err := os.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, tt.args...)
		cmd.Env = append(os.Environ(), "AGENTS_HOME="+t.TempDir(), "CI=true")
		cmd.Stdin = dir
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err = cmd.Run()
		dir.Close()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tt.code {
			t.Errorf("%v < folder: exit %d, want %d; stderr %q", tt.args, code, tt.code, stderr.String())
		}
		if !strings.Contains(stderr.String(), "agents: error: ") || tt.code == 3 && !strings.Contains(stderr.String(), "agents: hint: ") {
			t.Errorf("%v < folder: stderr %q, want an error with a hint", tt.args, stderr.String())
		}
	}
}
