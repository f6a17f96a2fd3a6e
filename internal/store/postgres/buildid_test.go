package postgres

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/version"
)

type fakeInfo struct{ os.FileInfo }

func (fakeInfo) Size() int64        { return 42 }
func (fakeInfo) ModTime() time.Time { return time.Unix(7, 0) }

// TestBuildID: a build reads the fast forms of its own code only; builds
// that say which code they are share them across machines.
func TestBuildID(t *testing.T) {
	exe := func() (string, error) { return "/bin/agents", nil }
	stat := func(string) (os.FileInfo, error) { return fakeInfo{}, nil }
	noExe := func() (string, error) { return "", errors.New("no") }
	byExe := "exe:/bin/agents:42:7000000000"
	for _, c := range []struct {
		name string
		info version.Info
		exe  func() (string, error)
		want string
	}{
		{"release", version.Info{Version: "v1.2.0", Commit: "abc"}, exe, "v1.2.0/abc"},
		{"go install of a version", version.Info{Version: "v1.3.0", Commit: version.Unknown}, exe, "v1.3.0"},
		{"changed sources", version.Info{Version: "v0.0.0-1-abc+dirty", Commit: "abc-dirty"}, exe, byExe},
		{"make in a changed checkout", version.Info{Version: "v1.2.0-3-gabc-dirty", Commit: "abc"}, exe, byExe},
		{"make outside a checkout", version.Info{Version: version.Dev, Commit: "none"}, exe, byExe},
		{"nothing known", version.Info{Version: version.Dev, Commit: version.Unknown}, exe, byExe},
		{"nothing known, no executable", version.Info{Version: version.Dev, Commit: version.Unknown}, noExe, ""},
	} {
		if got := buildID(c.info, c.exe, stat); got != c.want {
			t.Errorf("%s: buildID = %q, want %q", c.name, got, c.want)
		}
	}
}
