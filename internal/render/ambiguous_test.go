package render

import (
	"bytes"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/mattn/go-runewidth"
)

// Under a CJK locale go-runewidth counts East Asian ambiguous characters
// ("…", "→", "✔") as two columns; the table format lays its columns out
// with lipgloss's widths, which count them as one, so its borders must be
// drawn to the same widths whatever the locale.
func TestTableBordersIgnoreEastAsianLocale(t *testing.T) {
	saved := *runewidth.DefaultCondition
	runewidth.DefaultCondition.EastAsianWidth = true // as LANG=ja_JP.UTF-8 sets it
	t.Cleanup(func() { *runewidth.DefaultCondition = saved })

	v := TablesView{List: []Table{{
		Header: []string{"NAME", "DESCRIPTION"},
		Rows:   [][]string{{"acme/a", "shortened…"}, {"acme/b", "a → b ✔"}, {"acme/c", "plain"}},
	}}}
	var buf bytes.Buffer
	if err := (tableRenderer{opts: Options{Width: 80}}).Render(&buf, v); err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))
	want := lipgloss.Width(string(lines[0]))
	for _, l := range lines {
		if got := lipgloss.Width(string(l)); got != want {
			t.Errorf("line %q is %d columns wide, the border %d:\n%s", l, got, want, buf.String())
		}
	}
}
