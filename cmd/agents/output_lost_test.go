package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A decision whose answer cannot be written says so on stderr, whatever
// the answer: the status stays on the refusing side (1 for an allowed
// step, 10 and 11 as they were), and nothing fails in silence.
func TestDecisionOutputLost(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here: ", err)
	}
	defer full.Close()
	bin := agentsBinary(t)
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"automation-profile", "check-gate", "cautious", "auto_execute", "--confidence", "0.9", "-f", "json"}, 1},
		{[]string{"automation-profile", "check-gate", "cautious", "auto_execute", "--confidence", "0.5", "-f", "json"}, 10},
		{[]string{"automation-profile", "check-guard", "manual", "--tool", "x", "--no-sandbox", "-f", "plain"}, 11},
	}
	for _, tt := range tests {
		cmd := exec.Command(bin, tt.args...)
		cmd.Env = append(os.Environ(), "AGENTS_HOME="+t.TempDir())
		cmd.Stdout = full
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != tt.code {
			t.Errorf("%v: %v, want exit %d", tt.args, err, tt.code)
		}
		if !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("%v: stderr %q, want the write error", tt.args, stderr.String())
		}
	}
}
