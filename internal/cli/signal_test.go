package cli

import (
	"strings"
	"sync"
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/iostreams"
)

// A command a signal reached, which went on to its end because the signal
// only cancelled what waited on it, ends with the signal's code and says
// so on stderr: a hook above all, whatever answer it printed, since Codex
// lets a call proceed on exit 2 with nothing on stderr.
func TestAfterSignal(t *testing.T) {
	for _, tt := range []struct {
		hooked bool
		code   int
		says   string
	}{
		{true, ExitOK, "the tool call is blocked"},
		{true, ExitBlocked, "the tool call is blocked"},
		{false, ExitOK, "had gone too far to stop and finished"},
	} {
		interruptedOnce = sync.Once{} // said once a process
		ios, _, _, errOut := iostreams.Test()
		deps := &cmdutil.Deps{IO: ios, Getenv: func(string) string { return "" }}
		want := ExitInterrupted
		if tt.hooked {
			want = ExitUsage
		}
		if got := afterSignal(deps, nil, tt.hooked, tt.code, want); got != want {
			t.Errorf("hooked %v, code %d: exit %d, want %d", tt.hooked, tt.code, got, want)
		}
		if !strings.Contains(errOut.String(), tt.says) {
			t.Errorf("hooked %v, code %d: stderr %q, want it to say %q", tt.hooked, tt.code, errOut.String(), tt.says)
		}
	}
}
