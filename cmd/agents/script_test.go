package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentsctl/agents/internal/hook"
	"github.com/agentsctl/agents/internal/store/postgres/pgtest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	removeBuiltBinary()
	os.Exit(code)
}

// TestScripts runs the end-to-end scripts in testdata/script against the
// real binary, built once without the race detector (the Go tests of each
// package run with it). Each script starts with an empty AGENTS_HOME, and
// $REPO names the repository.
func TestScripts(t *testing.T) {
	binDir := filepath.Dir(agentsBinary(t))
	sysBin, sysDir := systemDirBinary(t)
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		RequireExplicitExec: true,
		// [root]: the script runs as root, so it can make the root-owned
		// files the system level trusts, or files that another user owns.
		// [postgres]: the PostgreSQL test server answers (an error when
		// AGENTS_REQUIRE_POSTGRES=1 and it does not). [claudeadmin]: Claude
		// Code's administrators' settings are on this machine, which a
		// hook reads and which may turn its asks into denies.
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root":
				return os.Geteuid() == 0, nil
			case "claudeadmin":
				return claudeAdmin() != "", nil
			case "postgres":
				_, err := pgtest.Probe()
				if err != nil && pgtest.Required() {
					return false, fmt.Errorf("%v (AGENTS_REQUIRE_POSTGRES=1 requires them)", err)
				}
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":   cmdExits,
			"stdenv":  cmdStdenv,
			"replace": cmdReplace,
			"pgstore": cmdPgstore,
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
			home := filepath.Join(env.WorkDir, ".agents")
			env.Setenv("AGENTS_HOME", home)
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			env.Setenv("NO_COLOR", "")
			env.Setenv("CI", "true")
			// agents-sys is agents built with its system configuration
			// in SYSDIR. One script (safetypack_system) uses it; the
			// folder is shared, so no other may.
			env.Setenv("AGENTS_SYS", sysBin)
			env.Setenv("SYSDIR", sysDir)
			// $REPO is the repository, for scripts that follow the
			// README and the guides with the files they name.
			repo, err := filepath.Abs(filepath.Join("..", ".."))
			if err != nil {
				return err
			}
			env.Setenv("REPO", repo)
			return nil
		},
	})
}

// cmdExits runs a program and checks its exit status:
//
//	exits 4 agents automation-profile show acme/none
//
// Its stdout and stderr are kept for the stdout and stderr commands.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exits")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exits <status> <program> [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad status %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdPgstore sets STORE to the URL of a new schema on the PostgreSQL test
// server, dropped when the script ends (guard it with [postgres]):
//
//	pgstore
//	exits 0 agents --store $STORE store migrate
func cmdPgstore(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: pgstore")
	}
	base, err := pgtest.Probe()
	if err != nil {
		ts.Fatalf("%v", err)
	}
	name, u, err := pgtest.NewSchema(base)
	if err != nil {
		ts.Fatalf("%v", err)
	}
	ts.Defer(func() {
		if err := pgtest.DropSchema(base, name); err != nil {
			ts.Logf("dropping schema %s: %v", name, err)
		}
	})
	ts.Setenv("STORE", u)
}

// cmdStdenv sets an environment variable to the last command's stdout,
// trimmed, so a script can use a value the command made up (a plan id):
//
//	exits 0 agents plan list -f plain
//	stdenv PLAN
//	exits 0 agents plan show $PLAN
func cmdStdenv(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: stdenv NAME")
	}
	ts.Setenv(args[0], strings.TrimSpace(ts.ReadFile("stdout")))
}

// cmdReplace replaces every occurrence of a string in a file, failing when
// there is none, so a script can make one small edit to a file a command
// wrote (a ratified pack):
//
//	replace '>= 0.5' '>= 0.4' acme_lockdown_v1.json
func cmdReplace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace OLD NEW FILE")
	}
	file := ts.MkAbs(args[2])
	data, err := os.ReadFile(file)
	ts.Check(err)
	if !strings.Contains(string(data), args[0]) {
		ts.Fatalf("replace: %s does not contain %q", args[2], args[0])
	}
	ts.Check(os.WriteFile(file, []byte(strings.ReplaceAll(string(data), args[0], args[1])), 0o644))
}

var (
	sysBuildOnce sync.Once
	sysBin       string
	sysDir       string
	sysBuildErr  error
)

// systemDirBinary builds agents with its system configuration folder
// moved, at build time as a packager would, into a fresh folder beside the
// binary, which does not exist yet. It returns the binary and the folder.
func systemDirBinary(t testing.TB) (bin, dir string) {
	t.Helper()
	sysBuildOnce.Do(func() {
		base := filepath.Dir(agentsBinary(t))
		sysDir = filepath.Join(base, "etc-agents")
		sysBin = filepath.Join(base, "agents-sys")
		if runtime.GOOS == "windows" {
			sysBin += ".exe"
		}
		cmd := exec.Command("go", "build", "-o", sysBin,
			"-ldflags", "-X github.com/agentsctl/agents/internal/safetypack.SystemDir="+sysDir, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			sysBuildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if sysBuildErr != nil {
		t.Fatal(sysBuildErr)
	}
	return sysBin, sysDir
}

// claudeAdmin returns the first of Claude Code's administrators' settings
// files or folders present on this machine, or "": a hook reads them
// (they may allow a call with no person asked, or answer an ask), so a
// test of the answers a hook gives where none is present skips there.
func claudeAdmin() string {
	for _, p := range append(slices.Clone(hook.ClaudeManaged), hook.ClaudeManagedDirs...) {
		if _, err := os.Lstat(p); err == nil {
			return p
		}
	}
	return ""
}

// skipWhereClaudeAdmin skips a test of a hook's asks where Claude Code's
// administrators' settings are on the machine.
func skipWhereClaudeAdmin(t *testing.T) {
	t.Helper()
	if p := claudeAdmin(); p != "" {
		t.Skipf("Claude Code's administrators' settings (%s) are on this machine and may change a hook's answers", p)
	}
}
