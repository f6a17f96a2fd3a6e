package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A decision whose answer cannot be written says so on stderr, whatever
// the answer: the status stays on the refusing side (1 for an allowed
// step, 10 and 11 as they were), and nothing fails in silence.
func TestDecisionOutputLost(t *testing.T) {
	full := devFull(t)
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

// A change whose line (or document) cannot be written has still been
// made, or found nothing to make: the command exits 1 as for any I/O
// error, and says on stderr which of the two it was, so that it is
// neither run again nor taken for undone.
func TestChangeOutputLost(t *testing.T) {
	full := devFull(t)
	bin := agentsBinary(t)
	home := t.TempDir()
	file := filepath.Join(t.TempDir(), "lost.yaml")
	writeFile(t, file, profileYAML("acme/lost", "output lost", 0.5))
	run := func(stdout *os.File, args ...string) (int, string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "AGENTS_HOME="+home, "CI=true")
		cmd.Stdout = stdout
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		switch {
		case errors.As(err, &exit):
			return exit.ExitCode(), stderr.String()
		case err != nil:
			t.Fatal(err)
		}
		return 0, stderr.String()
	}
	tests := []struct {
		args []string
		says string // what stderr says of the change
		show int    // the exit of a show afterwards: the change stands
	}{
		{[]string{"automation-profile", "add", "-c", file}, "the change was made (added acme/lost)", 0},
		{[]string{"automation-profile", "add", "-c", file, "--update", "-f", "json"}, "nothing was changed", 0},
		{[]string{"automation-profile", "remove", "acme/lost", "--yes"}, "the change was made (removed acme/lost)", 4},
	}
	for _, tt := range tests {
		code, stderr := run(full, tt.args...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1 (an I/O error)", tt.args, code)
		}
		if !strings.Contains(stderr, tt.says) || !strings.Contains(stderr, "no space left on device") {
			t.Errorf("%v: stderr %q, want it to say %q and why the output was lost", tt.args, stderr, tt.says)
		}
		if code, _ := run(nil, "automation-profile", "show", "acme/lost"); code != tt.show {
			t.Errorf("after %v: show exits %d, want %d", tt.args, code, tt.show)
		}
	}
}

// A change whose output goes to a pipe its reader has closed (agents ...
// | head -0) is made all the same: rather than end on SIGPIPE with 141 and
// not a word, as a command that only prints does, it says on stderr that
// the change was made, and exits 1.
func TestChangeOutputPipeClosed(t *testing.T) {
	bin := agentsBinary(t)
	home := t.TempDir()
	file := filepath.Join(t.TempDir(), "piped.yaml")
	writeFile(t, file, profileYAML("acme/piped", "output to a closed pipe", 0.5))
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // no reader: every write fails with EPIPE
	cmd := exec.Command(bin, "automation-profile", "add", "-c", file)
	cmd.Env = append(os.Environ(), "AGENTS_HOME="+home, "CI=true")
	cmd.Stdout = w
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	w.Close()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("add to a closed pipe: %v, want exit 1; stderr %q", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "the change was made (added acme/piped)") {
		t.Errorf("stderr %q, want it to say the change was made", stderr.String())
	}
	if res := runAgents(t, home, "automation-profile", "show", "acme/piped"); res.code != 0 {
		t.Errorf("show after the add: exit %d, want 0 (the change stands)", res.code)
	}
}

// devFull opens /dev/full, where every write fails as on a full disk; the
// test is skipped where there is none.
func devFull(t *testing.T) *os.File {
	t.Helper()
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here: ", err)
	}
	t.Cleanup(func() { full.Close() })
	return full
}
