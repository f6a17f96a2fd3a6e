// Package rendertest checks views as a person sees them: drawn in the table
// and rich formats at the widths terminals commonly have, every line no
// wider than the terminal, and the result compared with golden files that
// a person has read. Every package with views calls Check for each of
// them, so no view is left out of the width rule.
package rendertest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentsctl/agents/internal/render"
)

// Widths are the terminal widths every view is drawn at.
var Widths = []int{60, 80, 100, 120, 160}

// Formats are the human formats that lay text out for a terminal.
var Formats = []string{"table", "rich"}

// Render draws v in format at width, with or without colour.
func Render(t testing.TB, format string, width int, color bool, v render.View) string {
	t.Helper()
	r, err := render.Lookup(format, render.Options{Width: width, Color: color})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.Render(&buf, v); err != nil {
		t.Fatalf("render %s at %d columns: %v", format, width, err)
	}
	return buf.String()
}

// TooWide returns the lines of out wider than width, measured as a
// terminal shows them (escape codes take no room, wide characters two
// columns), each with its number and width.
func TooWide(out string, width int) []string {
	var bad []string
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if w := lipgloss.Width(line); w > width {
			bad = append(bad, fmt.Sprintf("line %d is %d columns wide: %q", i+1, w, ansi.Strip(line)))
		}
	}
	return bad
}

// Check draws v in each of formats (every one of Formats when none is
// given) at every width of Widths and fails when a line is wider than the
// terminal, when colour changes the layout, or when the drawings differ
// from the golden file dir/<name>.<format>.txt (one section per width).
// With update set, it rewrites the golden files instead; read them before
// committing. A view whose rich output is a document to save (a schema, a
// YAML file) rather than a layout checks the table format alone.
func Check(t *testing.T, dir, name string, v render.View, update bool, formats ...string) {
	t.Helper()
	if len(formats) == 0 {
		formats = Formats
	}
	for _, format := range formats {
		var golden strings.Builder
		for _, width := range Widths {
			out := Render(t, format, width, false, v)
			for _, bad := range TooWide(out, width) {
				t.Errorf("%s -f %s at %d columns: %s", name, format, width, bad)
			}
			if format == "rich" {
				colored := Render(t, format, width, true, v)
				if ansi.Strip(colored) != out {
					t.Errorf("%s -f rich at %d columns: colour changes the layout:\n%s\n--- without colour ---\n%s",
						name, width, ansi.Strip(colored), out)
				}
			}
			fmt.Fprintf(&golden, "=== %d columns\n%s", width, out)
		}
		Compare(t, filepath.Join(dir, name+"."+format+".txt"), golden.String(), update)
	}
}

// Compare checks got against the golden file at path, or writes it there
// when update is set.
func Compare(t *testing.T, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it, then read it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}
