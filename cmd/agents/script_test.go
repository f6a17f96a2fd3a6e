package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
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
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		RequireExplicitExec: true,
		// [root]: the script runs as root, so it can make files that
		// another user owns.
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":  cmdExits,
			"stdenv": cmdStdenv,
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
			home := filepath.Join(env.WorkDir, ".agents")
			env.Setenv("AGENTS_HOME", home)
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			env.Setenv("NO_COLOR", "")
			env.Setenv("CI", "true")
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
