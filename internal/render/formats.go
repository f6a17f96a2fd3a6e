package render

import (
	"bytes"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/charmbracelet/lipgloss"
	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter"
	"github.com/rivo/uniseg"
)

type jsonRenderer struct{}

func (jsonRenderer) Render(w io.Writer, v View) error {
	return canon.WriteJSON(w, v.Data())
}

type yamlRenderer struct{}

func (yamlRenderer) Render(w io.Writer, v View) error {
	b, err := canon.YAML(v.Data())
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

type plainRenderer struct{}

func (plainRenderer) Render(w io.Writer, v View) error {
	pw := NewWriter(w)
	v.Plain(pw)
	return pw.Err()
}

// tableRenderer draws each of a view's tables with tablewriter, box borders
// and a header row, titles above and a blank line between tables; tables
// that are only a title are lines, written one under another. It never
// colours anything: table output is meant to be pasted and diffed.
type tableRenderer struct{ opts Options }

func (r tableRenderer) Render(w io.Writer, v View) error {
	var buf bytes.Buffer
	ts := v.Tables()
	for i, t := range ts {
		if i > 0 && !(t.titleOnly() && ts[i-1].titleOnly()) {
			buf.WriteString("\n")
		}
		if err := r.renderOne(&buf, t); err != nil {
			return err
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// titleOnly reports whether t is a title alone: a line, not a table.
func (t Table) titleOnly() bool { return len(t.Header) == 0 && len(t.Rows) == 0 }

func (r tableRenderer) renderOne(buf *bytes.Buffer, t Table) error {
	if t.Title != "" {
		for _, line := range WrapText(Escape(t.Title), r.opts.Width) {
			buf.WriteString(line)
			buf.WriteString("\n")
		}
	}
	if len(t.Header) == 0 && len(t.Rows) == 0 {
		return nil
	}
	t = escapeTable(t)
	t.Title = ""
	l := layoutTable(t, r.opts.Width, true)
	for i, part := range l.tables {
		if i > 0 {
			buf.WriteString("\n")
		}
		if err := r.draw(buf, part, len(l.tables) > 1); err != nil {
			return err
		}
	}
	if note := l.droppedNote(r.opts.Width); note != "" {
		for _, line := range WrapText(note, r.opts.Width) {
			buf.WriteString(line + "\n")
		}
	}
	// A table too wide to draw is drawn as one block per row: the row's
	// first cell (a name or an id) on a line of its own, then a
	// two-column table of each other column's header beside its value.
	// A boxed block is wider than rich's, so a detail another view shows
	// is left out of the blocks when they would not fit with it.
	records, dropped := l.records, []string(nil)
	if !boxedRecordsFit(records, r.opts.Width) {
		if recs, cols := recordsWithoutDroppable(t, records); len(cols) > 0 && boxedRecordsFit(recs, r.opts.Width) {
			records, dropped = recs, cols
		}
	}
	for i, rec := range records {
		if i > 0 {
			buf.WriteString("\n")
		}
		buf.WriteString(rec[0].value + "\n")
		kv := recordTable(rec)
		if len(kv.Rows) == 0 {
			continue
		}
		w, _ := planWidths(kv, r.opts.Width, boxOverhead, true, true)
		if err := r.draw(buf, applyWidths(kv, w), false); err != nil {
			return err
		}
	}
	if note := (layout{dropped: dropped}).droppedNote(r.opts.Width); note != "" {
		for _, line := range WrapText(note, r.opts.Width) {
			buf.WriteString(line + "\n")
		}
	}
	return nil
}

// boxedRecordsFit reports whether every stacked record fits width drawn
// as the table format draws it: its heading, then a boxed table of its
// fields, long words broken.
func boxedRecordsFit(recs [][]field, width int) bool {
	for _, rec := range recs {
		if kv := recordTable(rec); len(kv.Rows) > 0 {
			if _, ok := planWidths(kv, width, boxOverhead, true, true); !ok {
				return false
			}
		}
	}
	return true
}

// recordsWithoutDroppable returns the records of t without the fields of
// its FitDrop columns, and the headers of the columns left out.
func recordsWithoutDroppable(t Table, recs [][]field) ([][]field, []string) {
	var dropped []string
	for i := range t.columns() {
		if t.fitOf(i) == FitDrop && i < len(t.Header) {
			dropped = append(dropped, t.Header[i])
		}
	}
	if len(dropped) == 0 {
		return recs, nil
	}
	out := make([][]field, len(recs))
	for r, rec := range recs {
		for i, f := range rec {
			if i == 0 || t.fitOf(f.col) != FitDrop {
				out[r] = append(out[r], f)
			}
		}
	}
	return out, dropped
}

// draw draws a table whose cells are escaped and fitted already, with the
// title of a part of a split table above it when titled is set.
func (r tableRenderer) draw(buf *bytes.Buffer, t Table, titled bool) error {
	if titled && t.Title != "" {
		for _, line := range WrapText(t.Title, r.opts.Width) {
			buf.WriteString(line)
			buf.WriteString("\n")
		}
	}
	// tablewriter pads cells to go-runewidth's widths, which under a CJK
	// locale count East Asian ambiguous characters ("…", "→", "✔") as two
	// columns. The cells were fitted with lipgloss's widths, which count
	// them as one, as terminals show them unless set otherwise; a border
	// drawn to the other count would stand out of line with the rows.
	if runewidth.DefaultCondition.EastAsianWidth {
		runewidth.DefaultCondition.EastAsianWidth = false
	}
	var drawn bytes.Buffer
	tbl := tablewriter.NewWriter(&drawn)
	// Headers are written as the view spells them, left-aligned like
	// their columns; tablewriter would otherwise upper-case, re-space
	// and centre them.
	tbl.SetAutoFormatHeaders(false)
	tbl.SetHeaderAlignment(tablewriter.ALIGN_LEFT)
	tbl.SetAlignment(tablewriter.ALIGN_LEFT)
	// Cells are fitted by layoutTable, which knows the terminal width;
	// tablewriter's own wrapping shares the width out evenly instead.
	tbl.SetAutoWrapText(false)
	var ph placeholders
	header := ph.cells(t.Header)
	rows := make([][]string, len(t.Rows))
	for i, row := range t.Rows {
		rows[i] = ph.cells(row)
	}
	if ph.full {
		// More graphemes to stand in for than placeholder characters:
		// the table is drawn from its own text, its borders perhaps out
		// of line, rather than with one cell's text in another.
		ph, header, rows = placeholders{}, t.Header, t.Rows
	}
	if len(t.Header) > 0 {
		tbl.SetHeader(header)
	}
	// With no rows, the line under the header would sit on the bottom
	// border.
	tbl.SetHeaderLine(len(t.Rows) > 0)
	for _, row := range rows {
		tbl.Append(row)
	}
	tbl.Render()
	buf.WriteString(ph.restore(drawn.String()))
	return nil
}

// placeholders stand in, while tablewriter draws a table, for the
// characters whose width go-runewidth (by which tablewriter pads) counts
// otherwise than lipgloss (by which the cells were fitted, as the rich
// format draws them): a flag, which is two regional indicators of one
// column each to go-runewidth, or an emoji made wide by U+FE0F. Each such
// grapheme is drawn as one placeholder character, from a private use
// plane, repeated once a column, and put back once the table is drawn.
type placeholders struct {
	text  []string
	width []int
	ids   map[string]rune
	// full is set when a grapheme found every placeholder character
	// taken (planes 15 and 16 hold 131072).
	full bool
}

// placeholderBase is the first placeholder character, at the start of
// the last two planes (supplementary private use). A grapheme of the text
// in those planes has a placeholder too, so none is taken for another.
const placeholderBase = 0xF0000

func (p *placeholders) cells(row []string) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = p.cell(c)
	}
	return out
}

func (p *placeholders) cell(s string) string {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < utf8.RuneSelf
	}
	if ascii {
		return s
	}
	var b strings.Builder
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		c := g.Str()
		w := lipgloss.Width(c)
		if w == 0 || runewidth.StringWidth(c) == w && !strings.ContainsFunc(c, isPlaceholder) {
			b.WriteString(c)
			continue
		}
		id, ok := p.ids[c]
		if !ok {
			if placeholderBase+len(p.text) > unicode.MaxRune {
				p.full = true
				b.WriteString(c)
				continue
			}
			if p.ids == nil {
				p.ids = map[string]rune{}
			}
			id = placeholderBase + rune(len(p.text))
			p.ids[c] = id
			p.text = append(p.text, c)
			p.width = append(p.width, w)
		}
		b.WriteString(strings.Repeat(string(id), w))
	}
	return b.String()
}

func isPlaceholder(r rune) bool { return r >= placeholderBase }

// restore puts the graphemes back in place of their placeholders in s:
// a grapheme of width w for each run of w of its placeholder.
func (p *placeholders) restore(s string) string {
	if len(p.text) == 0 {
		return s
	}
	var b strings.Builder
	skip := 0
	for _, r := range s {
		id := int(r - placeholderBase)
		switch {
		case r < placeholderBase || id >= len(p.text):
			b.WriteRune(r)
		case skip > 0:
			skip--
		default:
			b.WriteString(p.text[id])
			skip = p.width[id] - 1
		}
	}
	return b.String()
}

// escapeTable returns t with every header and cell escaped.
func escapeTable(t Table) Table {
	out := t
	if t.Header != nil {
		out.Header = escapeAll(t.Header)
	}
	out.Rows = make([][]string, len(t.Rows))
	for i, row := range t.Rows {
		out.Rows[i] = escapeAll(row)
	}
	return out
}

// richRenderer draws views that implement RichView with their own layout
// and the rest as lipgloss tables.
type richRenderer struct{ opts Options }

func (r richRenderer) Render(w io.Writer, v View) error {
	th := NewTheme(w, r.opts)
	var s string
	if rv, ok := v.(RichView); ok {
		s = rv.Rich(th)
	} else {
		s = th.Tables(v.Tables())
	}
	_, err := io.WriteString(w, s)
	return err
}
