package cmdutil

import (
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/profile"
)

// TestProfileWarningsNameACommandThatWorks: the command a legacy-format
// warning gives must be one that can be run, so it names the file, but
// never standard input, which migrate --write cannot rewrite.
func TestProfileWarningsNameACommandThatWorks(t *testing.T) {
	tests := []struct {
		file      string
		want      string
		forbidden string
	}{
		{"old.yaml", "'agents automation-profile migrate old.yaml --write'", ""},
		{StdinName, "'agents automation-profile migrate FILE --write'", "migrate " + StdinName},
		{"", "'agents automation-profile migrate FILE --write'", ""},
	}
	for _, tt := range tests {
		got := ProfileWarnings([]profile.Warning{{File: tt.file, Message: "legacy flat safety fields", Migrate: true}})
		if len(got) != 1 {
			t.Fatalf("%q: %d warnings, want 1", tt.file, len(got))
		}
		if !strings.Contains(got[0], tt.want) {
			t.Errorf("%q: warning %q does not give %s", tt.file, got[0], tt.want)
		}
		if tt.forbidden != "" && strings.Contains(got[0], tt.forbidden) {
			t.Errorf("%q: warning %q gives %q, which cannot be run", tt.file, got[0], tt.forbidden)
		}
	}
	if got := ProfileWarnings([]profile.Warning{{File: "a.yaml", Message: "other"}}); strings.Contains(got[0], "migrate") {
		t.Errorf("a warning not about the legacy format names migrate: %q", got[0])
	}
}
