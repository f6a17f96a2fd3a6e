package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/profiles"
)

// bareRoot is the whole command tree over no streams and no store, for
// tests that read the tree and run nothing.
func bareRoot() *cobra.Command {
	return NewRootCmd(&cmdutil.Deps{IO: &iostreams.IOStreams{}, Builtins: profiles.Builtin})
}

// TestEveryCommandHasExamples: the help of every command, group or verb,
// help itself included, has an Examples section. Help topics, which run
// nothing, and hidden commands are left out.
func TestEveryCommandHasExamples(t *testing.T) {
	root := bareRoot()
	root.InitDefaultHelpCmd()
	seen := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || !c.Runnable() {
			return
		}
		seen++
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s has no examples", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if seen < 40 {
		t.Errorf("only %d commands walked", seen)
	}
}

// TestHelpFitsEightyColumns: every command's help, printed where the
// width is unknown (piped), fits 80 columns: its flags are wrapped, and
// its own text and command summaries are written to fit. A usage line or
// an example is a command line, to be read and pasted whole: those may
// run longer.
func TestHelpFitsEightyColumns(t *testing.T) {
	root := bareRoot()
	root.InitDefaultHelpCmd()
	seen := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden {
			return
		}
		seen++
		var b strings.Builder
		c.SetOut(&b)
		if err := c.Help(); err != nil {
			t.Fatalf("%s: %v", c.CommandPath(), err)
		}
		for _, line := range strings.Split(b.String(), "\n") {
			if n := len([]rune(line)); n > 80 {
				t.Errorf("%s --help: a line of %d columns: %q", c.CommandPath(), n, line)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if seen < 40 {
		t.Errorf("only %d commands walked", seen)
	}
}

// TestUnknownHelpTopic: a help topic that names nothing is a usage error
// suggesting the nearest topic, not the root's help with exit 0, nor a
// group's help for a verb it does not have.
func TestUnknownHelpTopic(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		args       []string
		msg, hint  string
		wantStdout bool
	}{
		{[]string{"help", "nope"}, `unknown help topic "nope"`, "run 'agents help' to see the commands and topics", false},
		{[]string{"help", "automation-profile", "lst"}, `unknown help topic "automation-profile lst"`, `did you mean "automation-profile list"?`, false},
		{[]string{"help", "plna", "show"}, `unknown help topic "plna show"`, `did you mean "plan"?`, false},
		{[]string{"help", "enviroment"}, `unknown help topic "enviroment"`, `did you mean "environment"?`, false},
		{[]string{"help", "version", "extra"}, `unknown help topic "version extra"`, "agents version has no commands under it: run 'agents help version'", false},
	} {
		code, stdout, stderr := runIn(t, home, c.args...)
		want := "agents: error: " + c.msg + "\nagents: hint: " + c.hint + "\n"
		if code != ExitUsage || stdout != "" || stderr != want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2, no stdout, stderr %q", c.args, code, stdout, stderr, want)
		}
	}
	for _, args := range [][]string{{"help"}, {"help", "automation-profile", "list"}, {"help", "profile", "ls"}, {"help", "environment"}} {
		if code, stdout, stderr := runIn(t, home, args...); code != ExitOK || stdout == "" || stderr != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

// TestArgumentErrors: a command given arguments it does not take, or too
// few, says so in the house's words, naming only what is missing; a
// command with no commands under it never calls an argument an unknown
// command.
func TestArgumentErrors(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"version", "extra"}, "too many arguments: expected no arguments, got 1 argument"},
		{[]string{"safety-pack", "show", "x"}, "too many arguments: expected no arguments, got 1 argument"},
		{[]string{"automation-profile", "schema", "x", "y"}, "too many arguments: expected no arguments, got 2 arguments"},
		{[]string{"automation-profile", "list", "a", "b"}, "too many arguments: expected at most one regular expression, got 2 arguments"},
		{[]string{"plan", "set-automation-profile", "x"}, "missing a profile name"},
		{[]string{"plan", "set-automation-profile"}, "missing a plan id and a profile name"},
		{[]string{"plan", "set-automation-level", "x"}, "missing an automation level"},
		{[]string{"store", "migrate", "x"}, "too many arguments: expected no arguments, got 1 argument"},
	} {
		code, _, stderr := runIn(t, home, c.args...)
		first, _, _ := strings.Cut(stderr, "\n")
		if code != ExitUsage || first != "agents: error: "+c.msg {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.msg)
		}
	}
	root := bareRoot()
	for _, path := range commandPaths(root, nil) {
		c, _, err := root.Find(path)
		if err != nil || c.HasSubCommands() || !c.Runnable() {
			continue
		}
		args := append(append([]string(nil), path...), "stray", "words")
		code, _, stderr := runIn(t, home, args...)
		if code == ExitOK || strings.Contains(stderr, "unknown command") || strings.Contains(stderr, "to see its commands") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// TestWrappedExample: a command too long for the width is broken at
// spaces outside quotes and continued with a backslash, so that it runs
// as it is when copied; a comment goes on with its #.
func TestWrappedExample(t *testing.T) {
	c := &cobra.Command{Use: "x", Example: "  # " + strings.Repeat("word ", 12) + "end\n" +
		`  $ echo '{"a": "b c d e f g h i j k l m n o p"}' | agents automation-profile check-guard ci --stdin-json -f json`}
	root := &cobra.Command{Use: "agents"}
	root.AddCommand(c)
	helpWidths.Store(root, func() int { return 64 })
	got := wrappedExample(c)
	want := "  # word word word word word word word word word word word word\n" +
		"  # end\n" +
		`  $ echo '{"a": "b c d e f g h i j k l m n o p"}' | agents \` + "\n" +
		`      automation-profile check-guard ci --stdin-json -f json`
	if got != want {
		t.Errorf("wrapped:\n%s\nwant:\n%s", got, want)
	}
	// A command already broken by hand goes on as a command: its next line
	// is wrapped with backslashes too.
	c.Example = "  $ echo x |\n      agents automation-profile check-guard ci --hook claude-code --sandboxed"
	if got := wrappedExample(c); got != "  $ echo x |\n      agents automation-profile check-guard ci --hook \\\n          claude-code --sandboxed" {
		t.Errorf("a continued command wrapped:\n%s", got)
	}
	if u := wrappedUse(&cobra.Command{Use: "agents check (<profile> | --plan <id>) (--tool <name> | --stdin-json) [--abc]"}); strings.Contains(u, "| --plan <id>)\n") {
		t.Errorf("a usage line broken inside its group:\n%s", u)
	}
}
