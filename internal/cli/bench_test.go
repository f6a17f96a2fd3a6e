package cli

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/profiles"
)

// benchRun runs one invocation the way Main does, with streams that
// discard, so the figure is the work a process does after its packages are
// initialised: building the command tree, resolving configuration, the
// command itself and its output.
func benchRun(b *testing.B, home string, args ...string) {
	b.Helper()
	env := map[string]string{"AGENTS_HOME": home}
	b.ReportAllocs()
	for b.Loop() {
		ios, _, _, _ := iostreams.Test()
		ios.Out, ios.ErrOut = io.Discard, io.Discard
		deps := &cmdutil.Deps{
			IO:        ios,
			Builtins:  profiles.Builtin,
			Now:       time.Now,
			Getenv:    func(k string) string { return env[k] },
			Context:   context.Background(),
			OpenStore: openFileStore,
		}
		if code := Run(deps, args); code != ExitOK {
			b.Fatalf("%v: exit %d", args, code)
		}
	}
}

func BenchmarkRunVersion(b *testing.B) {
	benchRun(b, b.TempDir(), "version")
}

func BenchmarkRunShowBuiltin(b *testing.B) {
	benchRun(b, b.TempDir(), "automation-profile", "show", "manual", "-f", "json")
}

func BenchmarkRunCheckGuard(b *testing.B) {
	benchRun(b, b.TempDir(), "automation-profile", "check-guard", "supervised", "--tool", "x", "-f", "json")
}

func BenchmarkRunListJSON1000(b *testing.B) {
	benchRun(b, "/tmp/pb/s1000", "automation-profile", "list", "-f", "json")
}
