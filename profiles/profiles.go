// Package profiles embeds the eight built-in automation profiles.
package profiles

import "embed"

// Builtin holds builtin/<name>.yaml for each built-in profile.
//
//go:embed builtin/*.yaml
var Builtin embed.FS
