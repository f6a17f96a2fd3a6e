package cli

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store/storetest"
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
			OpenStore: openStore,
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

// benchHome returns a home holding n custom profiles across 50 namespaces,
// written as the store writes them, with the derived cache filled (the
// store waits until the files are old enough for the cache to keep them).
func benchHome(b *testing.B, n int) string {
	b.Helper()
	home := b.TempDir()
	for i := range n {
		name := fmt.Sprintf("ns%02d/profile-%05d", i%50, i)
		storetest.WriteProfileFile(b, home, &profile.AutomationProfile{Name: name, SchemaVersion: profile.SchemaVersion, Safety: profile.DefaultSafetyProfile()})
	}
	// A file changed within about two seconds of a listing is not cached
	// (its change time cannot be set back): wait that out, so the first
	// listing fills the cache and the others use it.
	time.Sleep(2500 * time.Millisecond)
	return home
}

func BenchmarkRunShowCustom(b *testing.B) {
	benchRun(b, benchHome(b, 100), "automation-profile", "show", "ns07/profile-00057", "-f", "json")
}

// BenchmarkRunListJSON lists 1,000 custom profiles; the first run fills the
// derived cache, the others use it.
func BenchmarkRunListJSON(b *testing.B) {
	benchRun(b, benchHome(b, 1000), "automation-profile", "list", "-f", "json")
}

func BenchmarkRunCheckGate(b *testing.B) {
	benchRun(b, b.TempDir(), "automation-profile", "check-gate", "cautious", "auto_execute", "--confidence", "0.8", "-f", "json")
}

// BenchmarkRunHook answers one Claude Code call, as an agent runs the hook
// before every tool call.
func BenchmarkRunHook(b *testing.B) {
	home := b.TempDir()
	env := map[string]string{"AGENTS_HOME": home}
	input := `{"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Read","tool_input":{"file_path":"/src/main.go"}}`
	b.ReportAllocs()
	for b.Loop() {
		ios, in, _, _ := iostreams.Test()
		in.WriteString(input)
		ios.Out, ios.ErrOut = io.Discard, io.Discard
		deps := &cmdutil.Deps{
			IO:        ios,
			Builtins:  profiles.Builtin,
			Now:       time.Now,
			Getenv:    func(k string) string { return env[k] },
			Context:   context.Background(),
			OpenStore: openStore,
		}
		if code := Run(deps, []string{"automation-profile", "check-guard", "ci", "--hook", "claude-code", "--sandboxed"}); code != ExitOK {
			b.Fatalf("exit %d", code)
		}
	}
}
