// Package render turns a command's result into one of five output formats:
// json and yaml (the canonical document, never coloured), plain (no styling,
// script friendly), table and rich (lipgloss, for people). Commands build a
// View and hand it to the Renderer chosen by name; they never branch on the
// format themselves.
package render

import (
	"io"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
)

// View is a command result that can be rendered in every format.
type View interface {
	// Data returns the canonical document for json and yaml.
	Data() any
	// Plain writes the view without any styling.
	Plain(w *Writer)
	// Tables returns the view as tables, for the table format and as the
	// fallback of the rich format.
	Tables() []Table
}

// RichView is a View with its own rich rendering. Views that do not
// implement it are rendered in rich as styled tables.
type RichView interface {
	View
	Rich(t *Theme) string
}

// Table is one titled table of text cells. Cells are escaped by the
// renderer, never by the view.
//
// When the terminal is narrower than the table, the renderers shrink and
// wrap columns as Fits says, then split the table into column groups when
// Repeat is set, and otherwise stack it into one block per row; so a
// table always fits, and names and ids are never cut.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	// Fits says how each column may give up width; a column without an
	// entry wraps at spaces (FitWrap).
	Fits []Fit
	// Repeat is the number of leading columns (labels) repeated in each
	// part when a table too wide for the terminal is split into column
	// groups. 0 stacks such a table into one block per row instead.
	Repeat int
}

// Options configure a renderer.
type Options struct {
	// Color allows escape codes (rich only); false gives plain text layout.
	Color bool
	// Width is the terminal width, or 0 when unknown.
	Width int
}

// Renderer writes a View to w in one format.
type Renderer interface {
	Render(w io.Writer, v View) error
}

type entry struct {
	name string
	new  func(Options) Renderer
}

// registry holds the formats in the order they are listed in help text.
var registry = []entry{
	{"json", func(Options) Renderer { return jsonRenderer{} }},
	{"yaml", func(Options) Renderer { return yamlRenderer{} }},
	{"plain", func(Options) Renderer { return plainRenderer{} }},
	{"table", func(o Options) Renderer { return tableRenderer{opts: o} }},
	{"rich", func(o Options) Renderer { return richRenderer{opts: o} }},
}

// Default is the format used when none is configured.
const Default = "rich"

// Names returns the format names, for help text and completion.
func Names() []string {
	names := make([]string, len(registry))
	for i, e := range registry {
		names[i] = e.name
	}
	return names
}

// Lookup returns the renderer for a format name; an unknown name is a usage
// error that lists the allowed ones.
func Lookup(name string, o Options) (Renderer, error) {
	for _, e := range registry {
		if e.name == name {
			return e.new(o), nil
		}
	}
	return nil, errs.Usage("unknown format %q", name).
		WithHint("use one of: %s", strings.Join(Names(), ", "))
}

// IsMachine reports whether the format is a machine format (json or yaml),
// whose output must never carry anything but the document.
func IsMachine(name string) bool { return name == "json" || name == "yaml" }
