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

// builtin is one built-in profile's values, one element of the table in
// decoded.go: the values are data in the binary, and a profile is built
// from them only when one is looked up.
type builtin struct {
	name, description, schemaVersion string
	// gates holds the thresholds in the order of profile.Gates.
	gates  [11]float64
	safety profile.SafetyProfile
	guards *profile.AutomationGuard
	// stored is the profile's stored form (profile.Encode), whose sha256
	// a plan records for it.
	stored string
}

// StoredForm returns the stored form of the named built-in profile (what
// profile.Encode writes for Decoded(name), the content a plan's snapshot
// of it holds), or nil when name is not a built-in. It is compiled in
// beside the values, so that checking a plan's record of a built-in
// encodes nothing.
func StoredForm(name string) []byte {
	for i := range builtins {
		if builtins[i].name == name {
			return []byte(builtins[i].stored)
		}
	}
	return nil
}

// decoded returns a new copy of the named built-in, or nil for another
// name.
func decoded(name string) *profile.AutomationProfile {
	for i := range builtins {
		b := &builtins[i]
		if b.name != name {
			continue
		}
		p := &profile.AutomationProfile{Name: b.name, Description: b.description, SchemaVersion: b.schemaVersion, Safety: b.safety, Guards: b.guards}
		for j, g := range profile.Gates {
			g.Set(p, b.gates[j])
		}
		// The table is shared: the copy handed out shares none of it.
		return p.Clone()
	}
	return nil
}
