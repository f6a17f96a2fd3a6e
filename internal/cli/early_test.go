package cli

import (
	"errors"
	"math/rand/v2"
	"net"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/store/postgres/early"
	"github.com/agentsctl/agents/profiles"
)

// TestEarlyConnectionGoesWhereTheCommandDoes: the connection package
// early begins from the command line and the environment, before any of
// it is parsed, goes only to the server whose store the command then
// opens, over thousands of command lines made of the pieces that have
// misled it (flags whose values look like flags, a "--" given as a
// value, empty and repeated --store, hooks, --print-config, --help).
func TestEarlyConnectionGoesWhereTheCommandDoes(t *testing.T) {
	const (
		a = "postgres://alice@127.0.0.2:5432/reg?sslmode=disable"
		b = "postgres://bob@127.0.0.3:5433/reg?sslmode=disable"
		c = "postgres://carol@127.0.0.4/reg?sslmode=disable"
	)
	commands := [][]string{
		{"automation-profile", "show", "acme/x"},
		{"automation-profile", "check-guard", "acme/x", "--tool", "Read"},
		{"automation-profile", "check-guard", "acme/x", "--stdin-json"},
		{"automation-profile", "check-guard", "acme/x", "--hook", "claude-code"},
		{"automation-profile", "check-gate", "acme/x", "auto_execute", "--confidence", "0.9"},
		{"automation-profile", "history", "acme/x"},
		{"plan", "list"},
		{"action", "list"},
	}
	pieces := [][]string{
		{"--store", a}, {"--store=" + b}, {"--store="}, {"--store", ""}, {"-f", "json"}, {"-f=json"}, {"-q"},
		{"--lock-timeout", "2s"}, {"--"}, {"--home", "--"}, {"--category"}, {"--tool"}, {"--hook", "claude-code"},
		{"--stdin-json"}, {"--stdin-json=true"}, {"--print-config"}, {"-f"}, {"--bogus"}, {"--store"}, {"-qf", "json"},
	}
	r := rand.New(rand.NewPCG(1, 2))
	acted, opened, readFirstN, lookups := 0, 0, 0, 0
	for n := 0; n < 3000; n++ {
		args := append([]string{}, commands[r.IntN(len(commands))]...)
		for range r.IntN(4) {
			p := pieces[r.IntN(len(pieces))]
			at := r.IntN(len(args) + 1)
			args = append(args[:at], append(append([]string{}, p...), args[at:]...)...)
		}
		// HOME without a password file: statements go ahead.
		env := map[string]string{"AGENTS_HOME": t.TempDir(), "HOME": t.TempDir()}
		if r.IntN(2) == 0 {
			env["AGENTS_STORE"] = c
		}
		getenv := func(k string) string { return env[k] }
		g, ok := early.Plan(args, getenv)
		if !ok {
			continue
		}
		acted++
		var used *string
		ios, _, _, _ := iostreams.Test()
		input := `{"tool":"Read"}`
		if slices.Contains(args, "--hook") {
			input = `{"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Read","tool_input":{"file_path":"/src/main.go"},"cwd":"/"}`
		}
		in := &watchedInput{r: strings.NewReader(input)}
		ios.In = in
		readFirst := false
		deps := &cmdutil.Deps{IO: ios, Getenv: getenv, Builtins: profiles.Builtin,
			OpenStore: func(cfg cmdutil.Config) (store.Store, error) {
				s := cfg.Store
				used, readFirst = &s, in.read
				return nil, errors.New("not opened in this test")
			}}
		Run(deps, args)
		if used == nil {
			continue // the command failed before it reached the store
		}
		opened++
		if readFirst {
			readFirstN++
		}
		if len(g.Ahead) > 0 && g.Ahead[0] == 'P' {
			lookups++
		}
		if readFirst && len(g.Ahead) > 0 && g.Ahead[0] == 'P' {
			// A lookup went ahead of a command that read its input
			// before it opened the store.
			t.Errorf("%q: a lookup went ahead of a command that reads its input first", args)
		}
		if !strings.HasPrefix(*used, "postgres://") {
			t.Errorf("%q: early connects to %s, the command opens the store %q", args, g.Address, *used)
			continue
		}
		u, err := url.Parse(*used)
		if err != nil {
			t.Fatal(err)
		}
		port := u.Port()
		if port == "" {
			port = "5432"
		}
		if want := net.JoinHostPort(u.Hostname(), port); g.Address != want {
			t.Errorf("%q: early connects to %s, the command to %s", args, g.Address, want)
		}
	}
	if acted < 300 || opened < 100 || readFirstN < 20 || lookups < 50 {
		t.Fatalf("early acted on %d command lines, sent a lookup ahead on %d; the command opened a store on %d, after reading its input on %d: the test no longer exercises it", acted, lookups, opened, readFirstN)
	}
}

// watchedInput records whether anything read it.
type watchedInput struct {
	r    *strings.Reader
	read bool
}

func (w *watchedInput) Read(p []byte) (int, error) {
	w.read = true
	return w.r.Read(p)
}
