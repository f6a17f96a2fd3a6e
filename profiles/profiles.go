// Package profiles embeds the eight built-in automation profiles.
package profiles

//go:generate go run ./internal/genbuiltin

import (
	"embed"

	"github.com/agentsctl/agents/internal/profile"
)

// Builtin holds builtin/<name>.yaml for each built-in profile.
//
//go:embed builtin/*.yaml
var Builtin embed.FS

// Decoded returns a new copy of the named built-in profile exactly as its
// file in Builtin decodes, or nil when name is not a built-in. The values
// are compiled into the binary (decoded.go, written by go generate and
// checked against the files by a test), so a lookup of a built-in, which
// agent hooks make on every tool call, parses nothing.
func Decoded(name string) *profile.AutomationProfile { return decoded(name) }
