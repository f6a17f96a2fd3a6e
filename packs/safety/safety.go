// Package safety embeds the shipped safety pack, core_safety_axes_v1, and
// its mastery report. Both files are written by 'agents safety-pack ratify'
// and committed together; a test proves the embedded pair verifies.
package safety

import "embed"

// FS holds <pack_id>.json and <pack_id>.mastery_report.json for the
// shipped pack.
//
//go:embed *.json
var FS embed.FS
