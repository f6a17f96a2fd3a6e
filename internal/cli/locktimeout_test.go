package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/profiles"
)

// TestLockTimeoutBounds gives the lock timeout from each source: past the
// documented maximum (24h) or not a duration, it is refused, as a usage
// error from a flag or the environment and as invalid input from
// config.yaml; never wrapped into a short wait.
func TestLockTimeoutBounds(t *testing.T) {
	tests := []struct {
		name   string
		flag   string // --lock-timeout value, when not ""
		env    string // AGENTS_LOCK_TIMEOUT, when not ""
		config string // lock_timeout in config.yaml, when not ""
		code   int
		want   string // in stderr
	}{
		{name: "config seconds that would wrap", config: "18446744074", code: ExitInvalid, want: "over the maximum of 24h"},
		{name: "config seconds past int64", config: "18446744073709551615", code: ExitInvalid, want: "over the maximum of 24h"},
		{name: "config huge float", config: "1e300", code: ExitInvalid, want: "over the maximum of 24h"},
		{name: "config duration", config: "25h", code: ExitInvalid, want: "over the maximum of 24h"},
		{name: "config garbage", config: "soon", code: ExitInvalid, want: "duration"},
		{name: "config at the maximum", config: "86400", code: ExitOK},
		{name: "env past the maximum", env: "1000h", code: ExitUsage, want: "over the maximum of 24h"},
		{name: "env overflowing", env: "18446744074s", code: ExitUsage, want: "invalid lock timeout"},
		{name: "env negative", env: "-1s", code: ExitUsage, want: `invalid lock timeout "-1s": must not be negative (from AGENTS_LOCK_TIMEOUT)`},
		// The flag's value is quoted as typed, with the reason, as a bad
		// value of any flag is.
		{name: "flag past the maximum", flag: "24h1s", code: ExitUsage, want: `invalid value "24h1s" for --lock-timeout: over the maximum of 24h`},
		{name: "flag past the maximum in hours", flag: "25h", code: ExitUsage, want: `invalid value "25h" for --lock-timeout: over the maximum of 24h`},
		{name: "flag negative", flag: "-1s", code: ExitUsage, want: `invalid value "-1s" for --lock-timeout: must not be negative`},
		{name: "flag overflowing", flag: "18446744074s", code: ExitUsage, want: "invalid"},
		// config.yaml is read strictly whatever overrides it: a value that
		// cannot be used there is refused even when the flag is given.
		{name: "flag does not hide a bad config", flag: "1s", config: "18446744074", code: ExitInvalid, want: "over the maximum of 24h"},
		{name: "flag at the maximum", flag: "24h", code: ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			if tt.config != "" {
				if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("lock_timeout: "+tt.config+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env := map[string]string{"AGENTS_HOME": home, "AGENTS_LOCK_TIMEOUT": tt.env}
			ios, _, _, errOut := iostreams.Test()
			deps := &cmdutil.Deps{IO: ios, Getenv: func(k string) string { return env[k] }, Builtins: profiles.Builtin, OpenStore: openStore}
			args := []string{"automation-profile", "list", "-f", "plain"}
			if tt.flag != "" {
				args = append([]string{"--lock-timeout", tt.flag}, args...)
			}
			code := Run(deps, args)
			if code != tt.code || !strings.Contains(errOut.String(), tt.want) {
				t.Errorf("exit %d, want %d with %q; stderr:\n%s", code, tt.code, tt.want, errOut)
			}
			if code == ExitOK && deps.Config.LockTimeout <= 0 {
				t.Errorf("lock timeout %v", deps.Config.LockTimeout)
			}
		})
	}
}
