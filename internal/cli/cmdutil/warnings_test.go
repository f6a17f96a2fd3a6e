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
		{"my profiles/old.yaml", "migrate 'my profiles/old.yaml' --write", "migrate my profiles"},
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

// TestShellWord: a word a shell would split or expand is quoted, and a
// file name the command would read as a flag starts with ./ (quotes do
// not stop that), so that the suggested command runs as written.
func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"old.yaml":            "old.yaml",
		"/home/a/p-1_x@2.yml": "/home/a/p-1_x@2.yml",
		"my file.yaml":        "'my file.yaml'",
		"it's.yaml":           `'it'\''s.yaml'`,
		"$HOME.yaml":          "'$HOME.yaml'",
		"a*.yaml":             "'a*.yaml'",
		"-x.yaml":             "./-x.yaml",
		"-my file.yaml":       "'./-my file.yaml'",
		"":                    "''",
	} {
		if got := ShellWord(in); got != want {
			t.Errorf("ShellWord(%q) = %s, want %s", in, got, want)
		}
	}
}
