package version

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestResolve(t *testing.T) {
	stamped := &debug.BuildInfo{
		GoVersion: "go1.26.0",
		Main:      debug.Module{Path: "github.com/agentsctl/agents", Version: "v0.3.1"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef"},
			{Key: "vcs.time", Value: "2026-02-03T04:05:06Z"},
			{Key: "vcs.modified", Value: "false"},
		},
	}
	dirty := &debug.BuildInfo{
		Main: debug.Module{Version: "(devel)"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "fedcba"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	tests := []struct {
		name                  string
		version, commit, date string
		bi                    *debug.BuildInfo
		want                  Info
	}{
		{
			name: "nothing known",
			want: Info{Version: "dev", Commit: "unknown", Date: "unknown", Go: runtime.Version()},
		},
		{
			name:    "link-time values win",
			version: "v1.2.0", commit: "abc1234", date: "2026-01-02T03:04:05Z", bi: stamped,
			want: Info{Version: "v1.2.0", Commit: "abc1234", Date: "2026-01-02T03:04:05Z", Go: "go1.26.0"},
		},
		{
			name: "build info fills in",
			bi:   stamped,
			want: Info{Version: "v0.3.1", Commit: "0123456789abcdef", Date: "2026-02-03T04:05:06Z", Go: "go1.26.0"},
		},
		{
			name:    "field by field",
			version: "v9.9.9", bi: stamped,
			want: Info{Version: "v9.9.9", Commit: "0123456789abcdef", Date: "2026-02-03T04:05:06Z", Go: "go1.26.0"},
		},
		{
			name: "source tree, modified",
			bi:   dirty,
			want: Info{Version: "dev", Commit: "fedcba-dirty", Date: "unknown", Go: runtime.Version()},
		},
		{
			name:    "blank link-time values count as unset",
			version: " ", commit: "", date: "\t",
			want: Info{Version: "dev", Commit: "unknown", Date: "unknown", Go: runtime.Version()},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.Platform = runtime.GOOS + "/" + runtime.GOARCH
			if got := resolve(tt.version, tt.commit, tt.date, tt.bi); got != tt.want {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestGetWithoutLinkerFlags(t *testing.T) {
	// A test binary carries no -X flags: Get must fall back, not panic,
	// and leave no field empty.
	i := Get()
	for name, v := range map[string]string{"version": i.Version, "commit": i.Commit, "date": i.Date, "go": i.Go, "platform": i.Platform} {
		if v == "" {
			t.Errorf("%s is empty", name)
		}
	}
}

func TestString(t *testing.T) {
	i := Info{Version: "v1.0.0", Commit: "abc", Date: "2026-01-01T00:00:00Z", Go: "go1.26.0", Platform: "linux/arm64"}
	want := "agents v1.0.0 (commit abc, built 2026-01-01T00:00:00Z, go1.26.0 linux/arm64)"
	if got := i.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
