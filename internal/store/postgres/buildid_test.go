package postgres

import (
	"errors"
	"os"
	"runtime/debug"
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
		name     string
		info     version.Info
		modified bool
		exe      func() (string, error)
		want     string
	}{
		{"release", version.Info{Version: "v1.2.0", Commit: "abc"}, false, exe, "v1.2.0/abc"},
		{"go install of a version", version.Info{Version: "v1.3.0", Commit: version.Unknown}, false, exe, "v1.3.0"},
		{"changed sources", version.Info{Version: "v0.0.0-1-abc+dirty", Commit: "abc-dirty"}, false, exe, byExe},
		{"make in a changed checkout", version.Info{Version: "v1.2.0-3-gabc-dirty", Commit: "abc"}, false, exe, byExe},
		{"make outside a checkout", version.Info{Version: version.Dev, Commit: "none"}, false, exe, byExe},
		{"nothing known", version.Info{Version: version.Dev, Commit: version.Unknown}, false, exe, byExe},
		{"linker's version and commit over changed sources", version.Info{Version: "v1.2.0", Commit: "abc"}, true, exe, byExe},
		{"nothing known, no executable", version.Info{Version: version.Dev, Commit: version.Unknown}, false, noExe, ""},
	} {
		if got := buildID(c.info, c.modified, c.exe, stat); got != c.want {
			t.Errorf("%s: buildID = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestVCSModified: the build info's vcs.modified is what marks a build of
// changed sources whatever the linker was told.
func TestVCSModified(t *testing.T) {
	for _, c := range []struct {
		bi   *debug.BuildInfo
		want bool
	}{
		{nil, false},
		{&debug.BuildInfo{}, false},
		{&debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}}, false},
		{&debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}}, true},
	} {
		if got := vcsModified(c.bi); got != c.want {
			t.Errorf("vcsModified(%+v) = %v, want %v", c.bi, got, c.want)
		}
	}
}
