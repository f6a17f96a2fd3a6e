package automationprofile

import (
	"context"
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
)

func removeDeps(t *testing.T, answer string, stdinTTY, stdoutTTY, ci bool) (*cmdutil.Deps, store.Store) {
	t.Helper()
	ios, in, _, _ := iostreams.Test()
	in.WriteString(answer)
	ios.SetStdinTTY(stdinTTY)
	ios.SetStdoutTTY(stdoutTTY)
	ios.SetCI(ci)
	ios.SetNoColor(true)
	st := store.NewMemory()
	p := &profile.AutomationProfile{Name: "acme/x", SchemaVersion: profile.SchemaVersion, Safety: profile.DefaultSafetyProfile()}
	if _, err := st.Profiles().Put(context.Background(), p, false); err != nil {
		t.Fatal(err)
	}
	deps := &cmdutil.Deps{
		IO:        ios,
		Config:    cmdutil.Config{Format: "plain"},
		OpenStore: func(cmdutil.Config) (store.Store, error) { return st, nil },
	}
	return deps, st
}

func TestRemovePrompt(t *testing.T) {
	tests := []struct {
		name             string
		answer           string
		stdinTTY, outTTY bool
		ci               bool
		wantRemoved      bool
		wantKind         errs.Kind
		wantErr          bool
	}{
		{"yes at a terminal", "y\n", true, true, false, true, 0, false},
		{"YES spelled out", "Yes\n", true, true, false, true, 0, false},
		// Declining is a decision, not a failure: nothing removed, no error.
		{"no at a terminal", "n\n", true, true, false, false, 0, false},
		{"empty answer", "\n", true, true, false, false, 0, false},
		{"CI set on a terminal", "y\n", true, true, true, false, errs.KindUsage, true},
		{"stdin piped", "y\n", false, true, false, false, errs.KindUsage, true},
		{"stdout piped", "y\n", true, false, false, false, errs.KindUsage, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			deps, st := removeDeps(t, tt.answer, tt.stdinTTY, tt.outTTY, tt.ci)
			err := removeRun(&removeOptions{Run: deps.Run(), name: "acme/x"})
			if tt.wantErr != (err != nil) {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err != nil && errs.KindOf(err) != tt.wantKind {
				t.Errorf("kind = %v, want %v", errs.KindOf(err), tt.wantKind)
			}
			_, getErr := st.Profiles().Get(context.Background(), "acme/x")
			removed := errs.Is(getErr, errs.KindNotFound)
			if removed != tt.wantRemoved {
				t.Errorf("removed = %v, want %v", removed, tt.wantRemoved)
			}
		})
	}
}
