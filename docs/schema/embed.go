// Package schemafiles embeds the JSON Schemas of agents' documents, which are
// written as YAML in this folder so that one source serves readers, editors
// and tests. Go's embed cannot reach a parent folder, so the files are
// embedded here and read through package internal/schema.
package schemafiles

import "embed"

// FS holds the *.schema.yaml files of this folder.
//
//go:embed *.schema.yaml
var FS embed.FS
