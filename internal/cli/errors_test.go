package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/profiles"
)

// runIn runs agents with args against the home, as a script would (no
// terminal), and returns the exit code and both streams.
func runIn(t *testing.T, home string, args ...string) (int, string, string) {
	t.Helper()
	return runTree(t, home, args, true)
}

// commandPaths are the words of every command of the tree that runs.
func commandPaths(cmd *cobra.Command, prefix []string) [][]string {
	var out [][]string
	for _, c := range cmd.Commands() {
		if c.Hidden || c.Name() == "help" {
			continue
		}
		path := append(append([]string(nil), prefix...), c.Name())
		out = append(out, path)
		out = append(out, commandPaths(c, path)...)
	}
	return out
}

// badInvocations are mistakes a person makes: a typo at every level, flags
// of other tools, arguments too many or misplaced, names that do not
// exist, numbers with a comma.
func badInvocations(t *testing.T) [][]string {
	t.Helper()
	root := bareRoot()
	calls := [][]string{
		{"automation-profle", "list"},
		{"plna"},
		{"automation-profile", "lsit"},
		{"automation-profile", "list", "-o", "json"},
		{"automation-profile", "list", "--output", "json"},
		{"automation-profile", "list", "--json"},
		{"automation-profile", "list", "--formt", "json"},
		{"automation-profile", "show", "Cautious"},
		{"automation-profile", "show", "cautios"},
		{"automation-profile", "show", "acme/nope"},
		{"automation-profile", "check-gate", "cautious", "auto_execute", "--confidence", "0,8"},
		{"automation-profile", "check-gate", "auto_execute", "--confidence", "0.8"},
		{"automation-profile", "check-gate", "cautious", "auto_exec", "--confidence", "0.8"},
		{"automation-profile", "check-guard", "cautious", "shell_exec"},
		{"automation-profile", "check-guard", "cautious", "--tool", "x", "--calls", "many"},
		{"automation-profile", "add", "-c", "no-such-file.yaml"},
		{"plan", "use", "secure-deploy"},
		{"plan", "show", "zz"},
		{"plan", "show", "01"},
		{"--lock-timeout", "abc", "automation-profile", "list"},
		{"automation-profile", "list", "-f", "xml"},
		{"automation-profile", "check-guardd", "ci", "--tool", "x"},
	}
	for _, path := range commandPaths(root, nil) {
		calls = append(calls,
			append(append([]string(nil), path...), "--no-such-flag"),
			append(append([]string(nil), path...), "-o", "json"),
			append(append([]string(nil), path...), "lsit", "extra", "words", "here", "and", "more"),
		)
	}
	return calls
}

// TestErrorsAreOneLineEach: whatever goes wrong, an error is told in lines
// of its own, never with an escaped newline (\n) inside one; with -f json
// it is one line of JSON whose message and hint hold no newline, and with
// -f yaml one YAML document with the same fields.
func TestErrorsAreOneLineEach(t *testing.T) {
	home := t.TempDir()
	checked := 0
	for _, args := range badInvocations(t) {
		name := strings.Join(args, " ")
		code, stdout, stderr := runIn(t, home, args...)
		if code == 0 {
			continue // a help topic, or a command that takes anything
		}
		if strings.Contains(stderr, `\n`) {
			t.Errorf("%s: stderr holds a literal \\n:\n%s", name, stderr)
		}
		for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
			if !strings.HasPrefix(line, "agents: ") && !strings.HasPrefix(line, "  ") {
				t.Errorf("%s: stderr line %q is neither an error, a hint nor a problem", name, line)
			}
		}

		code, _, stderr = runIn(t, home, append(args, "-f", "json")...)
		if code == 0 {
			continue // -f json replaced a bad -f
		}
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		var doc struct {
			Error struct{ Code, Message, Hint string } `json:"error"`
		}
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &doc); err != nil || doc.Error.Code == "" {
			t.Errorf("%s -f json: the last stderr line is not a JSON error (%v): %q", name, err, stderr)
		}
		if strings.ContainsAny(doc.Error.Message+doc.Error.Hint, "\n\r") {
			t.Errorf("%s -f json: the message or hint holds a newline: %+v", name, doc.Error)
		}

		_, _, stderr = runIn(t, home, append(args, "-f", "yaml")...)
		var ydoc struct {
			Error struct{ Code, Message, Hint string } `yaml:"error"`
		}
		if err := yaml.Unmarshal([]byte(stderr), &ydoc); err != nil || ydoc.Error.Code != doc.Error.Code || ydoc.Error.Message != doc.Error.Message {
			t.Errorf("%s -f yaml: stderr is not the YAML twin of the JSON error (%v):\n%s", name, err, stderr)
		}
		_ = stdout
		checked++
	}
	if checked < 50 {
		t.Errorf("only %d invocations failed as they should", checked)
	}
}

// TestMisspeltVerbBeforeFlags: a misspelt verb followed by the verb's own
// flags is told as the unknown command it is, with the verb it was meant to
// be, not as the first flag the group does not know.
func TestMisspeltVerbBeforeFlags(t *testing.T) {
	home := t.TempDir()
	for _, args := range [][]string{
		{"automation-profile", "check-guardd", "ci", "--tool", "x"},
		{"plan", "shwo", "01", "--quiet"},
		{"automation-profile", "chek-gate", "cautious", "auto_execute", "--confidence", "0.8"},
	} {
		code, _, stderr := runIn(t, home, args...)
		if code != ExitUsage || !strings.Contains(stderr, fmt.Sprintf("unknown command %q", args[1])) || !strings.Contains(stderr, "did you mean") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
	// A group given only a flag it does not know still says so.
	if code, _, stderr := runIn(t, home, "automation-profile", "--bogus"); code != ExitUsage || !strings.Contains(stderr, "unknown flag: --bogus") {
		t.Errorf("a group's unknown flag: exit %d, stderr %q", code, stderr)
	}
}

// TestJSONErrorsKeepAngleBrackets: a JSON error is written as every other
// JSON agents prints, with <, > and & as they are: a usage hint is full of
// <id>, which \u003cid\u003e would make unreadable.
func TestJSONErrorsKeepAngleBrackets(t *testing.T) {
	_, _, stderr := runIn(t, t.TempDir(), "automation-profile", "check-gate", "--plan", "x", "-f", "json")
	if !strings.Contains(stderr, "<id>") || strings.Contains(stderr, `\u003c`) {
		t.Errorf("stderr %q", stderr)
	}
}

// TestInterruptedInOwnWords: an interrupted command says so, exit 130,
// without Go's "context canceled", whether a store reported the
// interruption or a failure that the interruption caused reached the
// command line as it was.
func TestInterruptedInOwnWords(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, "x.yaml")
	if err := os.WriteFile(file, []byte("name: acme/x\nauto_apply: 0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, open := range []func(cmdutil.Config) (store.Store, error){
		openStore,
		func(cmdutil.Config) (store.Store, error) { return nil, fmt.Errorf("dial: %w", context.Canceled) },
	} {
		ios, _, _, errOut := iostreams.Test()
		deps := &cmdutil.Deps{
			IO: ios, Builtins: profiles.Builtin, Context: ctx, OpenStore: open,
			Getenv: func(k string) string {
				if k == "AGENTS_HOME" {
					return home
				}
				return ""
			},
		}
		code := Run(deps, []string{"automation-profile", "add", "-c", file})
		if stderr := errOut.String(); code != ExitInterrupted || !strings.Contains(stderr, "agents: error: ") ||
			!strings.Contains(stderr, "interrupted") || strings.Contains(stderr, "context") {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	}
}

// TestFileSystemHints: a change to the home the file system refused
// (full, read-only, not the user's) says how to put it right, however deep
// the refusal lies in the error; other failures get no such hint.
func TestFileSystemHints(t *testing.T) {
	wrapped := func(errno error) *errs.Error {
		return errs.Wrap(errs.KindInternal, fmt.Errorf("in the store: %w", &fs.PathError{Op: "write", Path: "/h/objects/x", Err: errno}), "writing /h/objects/x").
			About(errs.AboutHomeChange, "/h", "")
	}
	for _, tt := range []struct {
		err  *errs.Error
		want string
	}{
		{wrapped(syscall.ENOSPC), "the file system of the agents home is full"},
		{wrapped(syscall.EROFS), "read-only file system: pass --home"},
		{wrapped(syscall.EACCES), "you may not write there"},
		{wrapped(syscall.EIO), ""},
		{errs.Wrap(errs.KindInvalid, &fs.PathError{Err: syscall.ENOSPC}, "x"), ""},
		// Reading a file of the user's is no change to the home.
		{errs.Wrap(errs.KindInternal, &fs.PathError{Op: "open", Path: "p.yaml", Err: syscall.EACCES}, "reading p.yaml"), ""},
	} {
		if got := hintFor(tt.err); tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("hint for %v (%v) = %q, want %q", tt.err, tt.err.Kind, got, tt.want)
		}
	}
}

// TestPrintErrorMasksPasswords: whatever an error, its hint or its
// problems quote, a store URL's or a connection string's password is
// masked in every format, the rest of the message kept.
func TestPrintErrorMasksPasswords(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		secret string
		want   string // in the output, every format
	}{
		{"a URL quoted as a name", errs.Invalid("invalid name: %q must have the form namespace/name", "postgres://u:S3cretPW@127.0.0.1:1/test"), "S3cretPW", `postgres://u:xxxxx@127.0.0.1:1/test`},
		{"postgresql://, bare", errs.NotFound("file not found: postgresql://admin:Hunter2x@db.example.com/agents"), "Hunter2x", "postgresql://admin:xxxxx@db.example.com/agents"},
		{"a URL a path cleaning folded", errs.NotFound("folder /work/postgres:/u:Fold3dPW@h:1/test not found"), "Fold3dPW", "/work/postgres:xxxxx@h:1/test"},
		{"a password parameter", errs.Usage("invalid value %q for --lock-timeout", "postgres://u@h/db?password=ParamPW1&sslmode=disable"), "ParamPW1", "password=xxxxx&sslmode=disable"},
		{"a key=value string", errs.Invalid("invalid name: %q", "host=db password=KvPw9 user=u"), "KvPw9", "password=xxxxx"},
		{"in the hint", errs.Usage("bad").WithHint("did you mean postgres://u:HintPW7@h/db?"), "HintPW7", "postgres://u:xxxxx@h/db?"},
		{"in a problem", errs.InvalidProblems("config.yaml", []errs.Problem{{File: "config.yaml", Path: "format", Message: `invalid value "postgres://u:ProbPW3@h/db"`}, {File: "postgres://u:ProbPW3@h/db", Path: "lock_timeout", Message: "not a duration"}}), "ProbPW3", "postgres://u:xxxxx@h/db"},
		{"two URLs", errs.Usage("from postgres://a:OnePW1@h1/x to postgresql://b:TwoPW2@h2/y"), "PW", "to postgresql://b:xxxxx@h2/y"},
	} {
		for _, format := range []string{"plain", "json", "yaml"} {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				var b strings.Builder
				printError(&b, format, tc.err)
				out := b.String()
				if strings.Contains(out, tc.secret) {
					t.Errorf("the password shows:\n%s", out)
				}
				if format == "json" {
					var doc map[string]jsonError
					if err := json.Unmarshal([]byte(out), &doc); err != nil {
						t.Fatalf("not JSON: %v\n%s", err, out)
					}
					out = fmt.Sprint(doc)
				}
				if !strings.Contains(out, tc.want) {
					t.Errorf("want %q in:\n%s", tc.want, out)
				}
			})
		}
	}
}
