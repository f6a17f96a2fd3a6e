package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

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

// go-runewidth, by which tablewriter pads, counts a flag as one column
// and an emoji made wide by U+FE0F as one; lipgloss, by which cells are
// fitted and the rich format draws, counts two, as terminals show them.
// Every line of the table is drawn to lipgloss's widths, and the text
// comes out as it went in (a private use character of the text included).
func TestTableBordersCountEmojiAsFitted(t *testing.T) {
	cells := []string{"🇯🇵🇯🇵 flags", "⚠️ warn ❤️", "e\u0301 漢字 👍🏽", "\U000F0000 private", "plain"}
	v := TablesView{List: []Table{{Header: []string{"NAME", "🇫🇷 TEXT"}}}}
	for i, c := range cells {
		v.List[0].Rows = append(v.List[0].Rows, []string{fmt.Sprintf("acme/%c", 'a'+i), c})
	}
	var buf bytes.Buffer
	if err := (tableRenderer{opts: Options{Width: 80}}).Render(&buf, v); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := lipgloss.Width(lines[0])
	for _, l := range lines {
		if got := lipgloss.Width(l); got != want {
			t.Errorf("line %q is %d columns wide, the border %d:\n%s", l, got, want, out)
		}
	}
	for _, c := range append(cells, "🇫🇷 TEXT") {
		if !strings.Contains(out, "| "+c+" ") {
			t.Errorf("%q is not drawn as it is:\n%s", c, out)
		}
	}
}

// Planes 15 and 16 hold 131072 placeholder characters. A table whose text
// holds more graphemes to stand in for (here every character of those
// planes, then a flag) is drawn with its own text: no cell shows another
// grapheme, or U+FFFD, where its own stood.
func TestTablePlaceholdersRunOut(t *testing.T) {
	var b strings.Builder
	for r := rune(placeholderBase); r <= unicode.MaxRune; r++ {
		b.WriteRune(r)
	}
	all := b.String()
	v := TablesView{List: []Table{{Header: []string{"A"}, Rows: [][]string{{all}, {"🇯🇵 flag"}}}}}
	var buf bytes.Buffer
	if err := (tableRenderer{opts: Options{}}).Render(&buf, v); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "| 🇯🇵 flag") || !strings.Contains(out, all) || strings.ContainsRune(out, utf8.RuneError) {
		t.Errorf("the text was not drawn as it is: flag row %q", out[strings.LastIndex(out, "\n| ")+1:])
	}
}
