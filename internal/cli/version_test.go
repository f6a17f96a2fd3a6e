package cli

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/cli/cmdutil/cmdtest"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/version"
)

func testDeps(t *testing.T) (*cmdutil.Deps, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	home := t.TempDir()
	env := map[string]string{"AGENTS_HOME": home}
	return &cmdutil.Deps{IO: ios, Getenv: func(k string) string { return env[k] }}, out, errOut
}

// TestVersionCommandFallsBack runs the real command in a test binary, which
// carries no -X linker flags: it must still print every field.
func TestVersionCommandFallsBack(t *testing.T) {
	deps, out, errOut := testDeps(t)
	if code := Run(deps, []string{"version", "-f", "json"}); code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	dec := json.NewDecoder(bytes.NewReader(out.Bytes()))
	dec.DisallowUnknownFields()
	var got struct {
		Version, Go, Platform string
		Commit, Date          *string
	}
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	for name, v := range map[string]string{"version": got.Version, "go": got.Go, "platform": got.Platform} {
		if v == "" {
			t.Errorf("%s is empty in %s", name, out)
		}
	}
	// What the build does not record is null, never a word standing in.
	for name, v := range map[string]*string{"commit": got.Commit, "date": got.Date} {
		if v != nil && (*v == "" || *v == version.Unknown) {
			t.Errorf("%s is %q in %s, want a value or null", name, *v, out)
		}
	}
	if !regexp.MustCompile(`^\{\s*"version": .*\s*"commit": .*\s*"date": .*\s*"go": .*\s*"platform": .*\s*\}\n$`).Match(out.Bytes()) {
		t.Errorf("keys not in the order version, commit, date, go, platform:\n%s", out)
	}
}

func TestVersionFormats(t *testing.T) {
	info := version.Info{Version: "v1.2.3", Commit: "abc1234", Date: "2026-03-01T10:00:00Z", Go: "go1.26.0", Platform: "linux/amd64"}
	line := "agents v1.2.3 (commit abc1234, built 2026-03-01T10:00:00Z, go1.26.0 linux/amd64)\n"
	tests := []struct {
		format string
		exact  string   // the whole output, when set
		want   []string // parts the output contains
	}{
		{"plain", line, nil},
		{"rich", line, nil},
		{"json", "", []string{`"version": "v1.2.3"`, `"commit": "abc1234"`, `"date": "2026-03-01T10:00:00Z"`, `"go": "go1.26.0"`, `"platform": "linux/amd64"`}},
		{"yaml", "", []string{"version: v1.2.3\n", "commit: abc1234\n", "platform: linux/amd64\n"}},
		{"table", "", []string{"v1.2.3", "abc1234", "linux/amd64", "platform"}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			deps, out, _ := testDeps(t)
			deps.Config.Format = tt.format
			opts := &versionOptions{Run: deps.Run(), info: func() version.Info { return info }}
			if err := versionRun(opts); err != nil {
				t.Fatal(err)
			}
			if tt.exact != "" && out.String() != tt.exact {
				t.Errorf("got %q, want %q", out, tt.exact)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// A commit and a date the build did not record are null in the documents,
// and "unknown" in the line a person reads.
func TestVersionUnknownIsNull(t *testing.T) {
	info := version.Info{Version: "dev", Commit: version.Unknown, Date: version.Unknown, Go: "go1.26.0", Platform: "linux/amd64"}
	for format, want := range map[string][]string{
		"json":  {`"commit": null`, `"date": null`},
		"yaml":  {"commit: null\n", "date: null\n"},
		"plain": {"(commit unknown, built unknown,"},
	} {
		deps, out, _ := testDeps(t)
		deps.Config.Format = format
		opts := &versionOptions{Run: deps.Run(), info: func() version.Info { return info }}
		if err := versionRun(opts); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s output lacks %q:\n%s", format, w, out)
			}
		}
	}
}

func TestVersionEscapesControlCharacters(t *testing.T) {
	deps, out, _ := testDeps(t)
	deps.Config.Format = "rich"
	opts := &versionOptions{Run: deps.Run(), info: func() version.Info { return version.Info{Version: "v1\x1b[31m"} }}
	if err := versionRun(opts); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "\x1b") {
		t.Errorf("escape character reached the terminal: %q", out)
	}
}

func TestVersionTakesNoArguments(t *testing.T) {
	deps, _, _ := testDeps(t)
	if code := Run(deps, []string{"version", "extra"}); code != ExitUsage {
		t.Errorf("exit %d, want %d", code, ExitUsage)
	}
}

func TestVersionFlagsToOptions(t *testing.T) {
	o, err := cmdtest.Options(t, newVersionCmd)
	if err != nil || o == nil || o.info == nil {
		t.Errorf("version: %+v, %v", o, err)
	}
}
