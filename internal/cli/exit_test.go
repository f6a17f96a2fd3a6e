package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

func TestExitCode(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{fmt.Errorf("disk on fire"), 1},
		{errs.Usage("x"), 2},
		{errs.Invalid("x"), 3},
		{errs.NotFound("x"), 4},
		{errs.Conflict("x"), 5},
		{errs.New(errs.KindSafetyPack, "x"), 6},
		{&errs.Decision{Kind: errs.KindApproval}, 10},
		{profile.VerdictNeedsApproval.Err(), 10},
		{&errs.Decision{Kind: errs.KindBlocked}, 11},
		{profile.VerdictBlocked.Err(), 11},
		{fmt.Errorf("wrapped: %w", profile.VerdictBlocked.Err()), 11},
		{errs.New(errs.KindLocked, "x"), 75},
		{errs.New(errs.KindUnavailable, "x"), 75},
		{errs.New(errs.KindPermission, "x"), 7},
		{errs.New(errs.KindInterrupted, "x"), 130},
		{fmt.Errorf("wrapped: %w", errs.NotFound("x")), 4},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err); got != tt.want {
			t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

func TestPrintErrorJSON(t *testing.T) {
	var buf bytes.Buffer
	err := errs.InvalidProblems("a.yaml", []errs.Problem{
		{File: "a.yaml", Path: "auto_apply", Message: "must be between 0 and 1, got 1.5"},
		{File: "a.yaml", Path: "name", Message: "is required"},
	}).WithHint("fix the file")
	printError(&buf, "json", err)
	out := buf.String()
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Fatalf("want exactly one line, got %q", out)
	}
	var got struct {
		Error struct {
			Code     string `json:"code"`
			Message  string `json:"message"`
			Hint     string `json:"hint"`
			Problems []struct {
				File, Path, Message string
			} `json:"problems"`
		} `json:"error"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Error.Code != "invalid" || got.Error.Hint != "fix the file" || len(got.Error.Problems) != 2 {
		t.Errorf("unexpected error document: %+v", got)
	}
	if got.Error.Problems[0].Path != "auto_apply" || got.Error.Problems[1].Message != "is required" {
		t.Errorf("problems not carried over: %+v", got.Error.Problems)
	}
}

// TestPrintErrorJSONEscapesControls: a C1 or bidirectional control that
// a message quotes stays an escape in the JSON error line, which a
// terminal shows, and reads back as the same character.
func TestPrintErrorJSONEscapesControls(t *testing.T) {
	var buf bytes.Buffer
	printError(&buf, "json", errs.NotFound("profile %s not found", "acme/a\u202eb\u009bc"))
	out := buf.String()
	if strings.ContainsAny(out, "\u202e\u009b") || !strings.Contains(out, `\u202e`) || !strings.Contains(out, `\u009b`) {
		t.Fatalf("controls not escaped: %q", out)
	}
	var got struct {
		Error struct{ Message string } `json:"error"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil || !strings.Contains(got.Error.Message, "acme/a\u202eb\u009bc") {
		t.Errorf("read back as %q (%v)", got.Error.Message, err)
	}
}

func TestPrintErrorText(t *testing.T) {
	var buf bytes.Buffer
	printError(&buf, "rich", errs.Conflict("profile %q already exists", "acme/x\x1b[2J").WithHint("pass --update to replace it"))
	want := "agents: error: profile \"acme/x\\x1b[2J\" already exists\nagents: hint: pass --update to replace it\n"
	if buf.String() != want {
		t.Errorf("got %q\nwant %q", buf.String(), want)
	}
}

func TestErrorFormatFromArgs(t *testing.T) {
	home, other := t.TempDir(), t.TempDir()
	env := map[string]string{"AGENTS_HOME": home}
	deps := &cmdutil.Deps{Getenv: func(k string) string { return env[k] }}
	check := func(args []string, want string) {
		t.Helper()
		if got := errorFormat(deps, args); got != want {
			t.Errorf("errorFormat(%q) = %q, want %q", args, got, want)
		}
	}
	check([]string{"x", "-f", "json"}, "json")
	check([]string{"x", "--format=yaml"}, "yaml")
	check([]string{"x", "-fjson"}, "json")
	check([]string{"x", "--", "-f", "json"}, "")
	check([]string{"x"}, "")
	// A usage error can come before configuration is resolved: the
	// format in config.yaml still holds, under the flag and the variable.
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("format: json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "config.yaml"), []byte("format: yaml\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	check([]string{"x"}, "json")
	check([]string{"x", "-f", "plain"}, "plain")
	check([]string{"x", "--home", other}, "yaml")
	check([]string{"x", "--home=" + other}, "yaml")
	env["AGENTS_FORMAT"] = "table"
	check([]string{"x"}, "table")
}

// TestHomeWithoutHOME: with no HOME, AGENTS_HOME or XDG_CONFIG_HOME (a
// minimal container, a service), the home is the account's own folder from
// the user database, not an error that stops even read-only commands.
func TestHomeWithoutHOME(t *testing.T) {
	u, err := user.Current()
	if err != nil || u.HomeDir == "" {
		t.Skipf("this account has no home folder in the user database: %v", err)
	}
	// The process's own HOME too: nothing may find the home through it.
	t.Setenv("HOME", "")
	deps := &cmdutil.Deps{Getenv: func(string) string { return "" }}
	got, err := resolveHome(deps, "")
	if want := filepath.Join(u.HomeDir, ".config", "agents"); err != nil || got != want {
		t.Errorf("resolveHome = %q, %v; want %q", got, err, want)
	}
	if got, err := resolveHome(deps, "/srv/agents"); err != nil || got != "/srv/agents" {
		t.Errorf("--home without HOME = %q, %v", got, err)
	}
}

// TestHookArg: --hook anywhere makes a hook, and the deny goes out in the
// protocol of the last value that names an agent, so a stray --hook after
// "--" or at the end still leaves a deny the agent reads.
func TestHookArg(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		agent  string
		hooked bool
	}{
		{[]string{"check-guard", "ci", "--hook", "codex"}, "codex", true},
		{[]string{"check-guard", "ci", "--hook=gemini-cli"}, "gemini-cli", true},
		{[]string{"check-guard", "ci", "--hook", "claude-code", "--", "--hook"}, "claude-code", true},
		{[]string{"check-guard", "ci", "--hook", "claude-code", "--hook", "nope"}, "claude-code", true},
		{[]string{"check-guard", "ci", "--hook", "codex", "--hook", "claude-code"}, "claude-code", true},
		{[]string{"check-guard", "ci", "--hook"}, "", true},
		{[]string{"check-guard", "ci", "--tool", "x"}, "", false},
	} {
		agent, hooked := hookArg(tt.args)
		if agent != tt.agent || hooked != tt.hooked {
			t.Errorf("hookArg(%q) = %q, %v, want %q, %v", tt.args, agent, hooked, tt.agent, tt.hooked)
		}
	}
}
