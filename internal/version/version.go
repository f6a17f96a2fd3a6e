// Package version reports which build of agents is running. Release builds
// set Version, Commit and Date with -ldflags -X (see the Makefile and
// .goreleaser.yaml); a plain `go build` or `go install` leaves them empty,
// and the module version and VCS stamps the Go toolchain records in the
// binary fill in what it can.
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Set at link time by -X github.com/agentsctl/agents/internal/version.<Name>=...
var (
	// Version is the release version, such as v1.2.0.
	Version string
	// Commit is the VCS revision the binary was built from.
	Commit string
	// Date is when that revision was committed or the binary built (RFC 3339).
	Date string
)

// Unknown stands for a field neither the linker nor the build info supplies.
const Unknown = "unknown"

// Dev is the version of a build from a source tree without release flags.
const Dev = "dev"

// Info describes the running build. Field order is the output order.
type Info struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Date     string `json:"date"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// Get returns the running build's Info.
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return resolve(Version, Commit, Date, bi)
}

// resolve prefers the link-time values and falls back to the build info,
// field by field. bi may be nil (a binary built without module support).
func resolve(version, commit, date string, bi *debug.BuildInfo) Info {
	info := Info{
		Version:  strings.TrimSpace(version),
		Commit:   strings.TrimSpace(commit),
		Date:     strings.TrimSpace(date),
		Go:       runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH,
	}
	if bi != nil {
		if bi.GoVersion != "" {
			info.Go = bi.GoVersion
		}
		if info.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			info.Version = bi.Main.Version
		}
		var modified bool
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if info.Commit == "" {
					info.Commit = s.Value
				}
			case "vcs.time":
				if info.Date == "" {
					info.Date = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		// Only a revision read from the build info can be dirty: the
		// linker's value says for itself.
		if modified && commit == "" && info.Commit != "" {
			info.Commit += "-dirty"
		}
	}
	if info.Version == "" {
		info.Version = Dev
	}
	if info.Commit == "" {
		info.Commit = Unknown
	}
	if info.Date == "" {
		info.Date = Unknown
	}
	return info
}

// String returns the one-line form:
// agents v1.2.0 (commit abc1234, built 2026-01-02T03:04:05Z, go1.26.0 linux/amd64).
func (i Info) String() string {
	return "agents " + i.Version + " (commit " + i.Commit + ", built " + i.Date + ", " + i.Go + " " + i.Platform + ")"
}
