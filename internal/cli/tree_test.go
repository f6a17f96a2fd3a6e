package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/profiles"
	"github.com/spf13/pflag"
)

// TestTreeFor: a run that builds only the branch its first argument names
// answers as the whole tree does, for the help of every command and for
// every mistake of badInvocations, in each format.
func TestTreeFor(t *testing.T) {
	home := t.TempDir()
	root := bareRoot()
	var calls [][]string
	for _, path := range commandPaths(root, nil) {
		calls = append(calls, append(path, "--help"))
	}
	calls = append(calls, badInvocations(t)...)
	// The same again behind the global flags a hook snippet or a script
	// writes first.
	for _, args := range calls[:len(calls):len(calls)] {
		calls = append(calls, append([]string{"--home", home, "--lock-timeout=5s"}, args...))
	}
	branches := 0
	for _, args := range calls {
		for _, format := range []string{"", "json"} {
			a := append([]string(nil), args...)
			if format != "" {
				a = append(a, "-f", format)
			}
			only := treeFor(a)
			if only == "" {
				continue
			}
			branches++
			wantCode, wantOut, wantErr := runTree(t, home, a, false)
			code, out, errOut := runTree(t, home, a, true)
			if code != wantCode || out != wantOut || errOut != wantErr {
				t.Errorf("%q built for %s: exit %d, stdout %q, stderr %q\nwhole tree: exit %d, stdout %q, stderr %q",
					a, only, code, out, errOut, wantCode, wantOut, wantErr)
			}
		}
	}
	if branches < 100 {
		t.Fatalf("only %d invocations named a branch", branches)
	}
	// Each verb a group lists is built under the name its command has: a
	// branch naming it builds it alone.
	for _, path := range commandPaths(root, nil) {
		if len(path) != 2 || path[0] == "completion" { // not a cmdutil.Group
			continue
		}
		deps := &cmdutil.Deps{IO: &iostreams.IOStreams{}, Builtins: profiles.Builtin, Branch: path}
		group, _, err := NewRootCmd(deps).Find(path[:1])
		if err != nil {
			t.Fatal(err)
		}
		var built []string
		for _, c := range group.Commands() {
			built = append(built, c.Name())
		}
		if len(built) != 1 || built[0] != path[1] {
			t.Errorf("the branch %q built %q", path, built)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"automation-profile", "list"}, "automation-profile"},
		{[]string{"version"}, "version"},
		{[]string{"completion", "bash"}, "completion"},
		{[]string{"--home", "x", "plan", "list"}, "plan"},
		{[]string{"--home=x", "-q", "--lock-timeout", "1s", "-fjson", "--store=u", "plan", "list"}, "plan"},
		{[]string{"-f", "json", "--format=yaml", "--quiet=false", "version"}, "version"},
		{[]string{"--home"}, ""},
		{[]string{"--home", "x", "--", "plan", "list"}, ""},
		{[]string{"-qf", "json", "plan", "list"}, ""},
		{[]string{"--version", "plan"}, ""},
		{[]string{"-f", "plan", "list"}, ""},
		{[]string{"help", "plan"}, ""},
		{[]string{"__complete", "plan", ""}, ""},
		{[]string{"automation-profle", "list"}, ""},
		{nil, ""},
	} {
		if got := treeFor(c.args); got != c.want {
			t.Errorf("treeFor(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

// runTree runs args with the tree built for the branch args name, or whole.
func runTree(t *testing.T, home string, args []string, branch bool) (int, string, string) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	deps := &cmdutil.Deps{
		IO:       ios,
		Builtins: profiles.Builtin,
		Getenv: func(k string) string {
			if k == "AGENTS_HOME" {
				return home
			}
			return ""
		},
		OpenStore: openStore,
	}
	code := run(deps, args, branch)
	return code, out.String(), errOut.String()
}

// TestConfigParseErrorIsOneLine: a config.yaml the YAML parser refuses
// (a key given twice) is reported on one line, in text and in JSON, as
// every error is, by the strict decoder, with the line.
func TestConfigParseErrorIsOneLine(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("format: json\nformat: yaml\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runTree(t, home, []string{"automation-profile", "list"}, true)
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if code != ExitInvalid || len(lines) != 2 || !strings.Contains(lines[0], `config.yaml:2: format: duplicate key "format" (first at line 1)`) || !strings.Contains(lines[1], "hint: fix ") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = runTree(t, home, []string{"automation-profile", "list", "-f", "json"}, true)
	if code != ExitInvalid || strings.Count(errOut, "\n") != 1 || strings.Contains(errOut, `\n`) {
		t.Errorf("-f json: exit %d, stderr %q", code, errOut)
	}
}

// TestGlobalValueFlagsAreTheRoots: commandWords steps over the root's
// persistent flags by the names it knows; a flag added to the root and
// not to them would make every run behind it build the whole tree.
func TestGlobalValueFlagsAreTheRoots(t *testing.T) {
	root := bareRoot()
	root.PersistentFlags().VisitAll(func(f *pflag.Flag) {
		args := []string{"--" + f.Name, "x", "version"}
		if f.Value.Type() == "bool" {
			args = []string{"--" + f.Name, "version"}
		}
		if got := treeFor(args); got != "version" {
			t.Errorf("treeFor(%q) = %q: commandWords does not know --%s", args, got, f.Name)
		}
		if f.Shorthand != "" {
			args[0] = "-" + f.Shorthand
			if got := treeFor(args); got != "version" {
				t.Errorf("treeFor(%q) = %q: commandWords does not know -%s", args, got, f.Shorthand)
			}
		}
	})
}
