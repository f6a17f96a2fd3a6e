package automationprofile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/profiles"
)

// terminal describes which streams a test pretends are terminals.
type terminal struct {
	stdin, stdout, stderr, ci bool
}

func runTerminal(t *testing.T, st store.Store, term terminal, stdin string, args ...string) result {
	t.Helper()
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(stdin)
	ios.SetStdinTTY(term.stdin)
	ios.SetStdoutTTY(term.stdout)
	ios.SetStderrTTY(term.stderr)
	ios.SetCI(term.ci)
	ios.SetNoColor(true)
	home := t.TempDir()
	deps := &cmdutil.Deps{
		IO:        ios,
		Builtins:  profiles.Builtin,
		Getenv:    func(k string) string { return map[string]string{"AGENTS_HOME": home}[k] },
		OpenStore: func(cmdutil.Config) (store.Store, error) { return st, nil },
	}
	code := cli.Run(deps, args)
	return result{code, out.String(), errOut.String()}
}

func storeOf(t *testing.T, n int) store.Store {
	t.Helper()
	st := store.NewMemory()
	for i := range n {
		p, _, err := profile.DecodeProfile(fmt.Appendf(nil, "name: bulk/p%04d\n", i), "bulk.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Profiles().Put(t.Context(), p, false); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func TestListProgress(t *testing.T) {
	tests := []struct {
		name    string
		stored  int
		term    terminal
		args    []string
		counter string
	}{
		{"large store on a terminal", 600, terminal{stderr: true}, nil, "agents: reading profiles 600/600"},
		{"small store on a terminal", 500, terminal{stderr: true}, nil, ""},
		{"large store, stderr not a terminal", 600, terminal{}, nil, ""},
		{"large store, quiet", 600, terminal{stderr: true}, []string{"-q"}, ""},
		{"large store, quiet long form", 600, terminal{stderr: true}, []string{"--quiet"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"automation-profile", "list", "-f", "plain"}, tt.args...)
			r := runTerminal(t, storeOf(t, tt.stored), tt.term, "", args...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if got := strings.Count(r.stdout, "\n"); got != tt.stored+len(profile.BuiltinNames) {
				t.Errorf("%d names listed, want %d", got, tt.stored+len(profile.BuiltinNames))
			}
			if strings.Contains(r.stdout, "reading") {
				t.Errorf("progress on stdout")
			}
			if tt.counter == "" {
				if r.stderr != "" {
					t.Errorf("stderr %q, want nothing", r.stderr)
				}
				return
			}
			if !strings.Contains(r.stderr, tt.counter) {
				t.Errorf("stderr %q lacks %q", r.stderr, tt.counter)
			}
			if !strings.HasSuffix(r.stderr, "\r") {
				t.Errorf("the counter was not cleared: %q", r.stderr)
			}
		})
	}
}

func TestRemoveConfirmation(t *testing.T) {
	onTerminal := terminal{stdin: true, stdout: true, stderr: true}
	inCI := onTerminal
	inCI.ci = true
	tests := []struct {
		name    string
		term    terminal
		stdin   string
		args    []string
		code    int
		removed bool
		stderr  string
	}{
		{"CI set, on a terminal", inCI, "y\n", nil, 2, false, "refusing to remove"},
		{"CI set, --yes", inCI, "", []string{"--yes"}, 0, true, ""},
		{"stdin not a terminal", terminal{stdout: true}, "y\n", nil, 2, false, "pass --yes"},
		{"stdout not a terminal", terminal{stdin: true}, "y\n", nil, 2, false, "pass --yes"},
		{"terminal, answered yes", onTerminal, "y\n", nil, 0, true, "Remove profile acme/strict? [y/N]"},
		{"terminal, answered no", onTerminal, "n\n", nil, 0, false, "kept profile acme/strict; nothing was removed"},
		{"terminal, no answer", onTerminal, "", nil, 0, false, "kept profile acme/strict; nothing was removed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := newStore(t)
			args := append([]string{"automation-profile", "remove", "acme/strict"}, tt.args...)
			r := runTerminal(t, st, tt.term, tt.stdin, args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.stderr) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", r.code, r.stderr, tt.code, tt.stderr)
			}
			_, err := st.Profiles().Get(t.Context(), "acme/strict")
			if gone := err != nil; gone != tt.removed {
				t.Errorf("removed = %v, want %v (%v)", gone, tt.removed, err)
			}
		})
	}
}

func TestQuietSilencesInfo(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "nested.yaml")
	if err := os.WriteFile(file, []byte("name: acme/nested\nsafety:\n  require_sandbox: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	loud := runTerminal(t, store.NewMemory(), terminal{}, "", "automation-profile", "migrate", "--write", file, "-f", "plain")
	// A file already nested is said to be unchanged once, on stdout,
	// not again on stderr.
	if loud.code != 0 || !strings.Contains(loud.stdout, "unchanged") || loud.stderr != "" {
		t.Fatalf("without -q: exit %d, stdout %q, stderr %q", loud.code, loud.stdout, loud.stderr)
	}
	// A change prints nothing at all with -q, but a document asked for.
	quiet := runTerminal(t, store.NewMemory(), terminal{}, "", "automation-profile", "migrate", "--write", file, "-f", "plain", "-q")
	if quiet.code != 0 || quiet.stderr != "" || quiet.stdout != "" {
		t.Errorf("with -q: exit %d, stderr %q, stdout %q (want nothing)", quiet.code, quiet.stderr, quiet.stdout)
	}
	loudJSON := runTerminal(t, store.NewMemory(), terminal{}, "", "automation-profile", "migrate", "--write", file, "-f", "json")
	quietJSON := runTerminal(t, store.NewMemory(), terminal{}, "", "automation-profile", "migrate", "--write", file, "-f", "json", "-q")
	if quietJSON.code != 0 || quietJSON.stderr != "" || quietJSON.stdout != loudJSON.stdout || !strings.HasPrefix(quietJSON.stdout, "[") {
		t.Errorf("with -q -f json: exit %d, stderr %q, stdout %q (want %q)", quietJSON.code, quietJSON.stderr, quietJSON.stdout, loudJSON.stdout)
	}
}

func TestMigrateProgress(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 60 {
		f := filepath.Join(dir, fmt.Sprintf("p%02d.yaml", i))
		if err := os.WriteFile(f, fmt.Appendf(nil, "name: acme/p%02d\n", i), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	args := append([]string{"automation-profile", "migrate", "-f", "json"}, files...)
	r := runTerminal(t, store.NewMemory(), terminal{stderr: true}, "", args...)
	if r.code != 0 || !strings.Contains(r.stderr, "agents: reading files 1/60") || !strings.Contains(r.stderr, "agents: reading files 60/60") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	r = runTerminal(t, store.NewMemory(), terminal{}, "", args...)
	if r.code != 0 || r.stderr != "" {
		t.Errorf("not a terminal: exit %d, stderr %q", r.code, r.stderr)
	}
}
