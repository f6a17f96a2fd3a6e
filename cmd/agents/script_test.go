package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agentsctl/agents/internal/cli"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"agents": func() { os.Exit(cli.Main()) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script against the
// real command. Each script starts with an empty AGENTS_HOME.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, ".agents")
			env.Setenv("AGENTS_HOME", home)
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			env.Setenv("NO_COLOR", "")
			env.Setenv("CI", "true")
			return nil
		},
	})
}
