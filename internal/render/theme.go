package render

import (
	"io"
	"math"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/lipgloss/table"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// Tone is the role a piece of rich text plays; the theme maps each tone to a
// style. Views pick tones, never colours, so the palette lives in one place.
type Tone int

// The tones of the rich format.
const (
	// ToneNormal is unstyled text.
	ToneNormal Tone = iota
	// ToneMuted is secondary text: labels, hints, empty gauge cells.
	ToneMuted
	// ToneGood marks a safe or successful state.
	ToneGood
	// ToneBad marks a refusal or failure.
	ToneBad
	// ToneWarn marks a relaxed constraint or something to look at twice.
	ToneWarn
	// ToneAccent highlights names and filled gauge cells.
	ToneAccent
	// ToneStrong is bold text, for headings and table headers.
	ToneStrong
)

// Theme holds the lipgloss renderer and styles of the rich format. Its
// renderer writes to the command's output, not to the process's stdout, and
// its colour profile comes from Options.Color alone: with Color false every
// helper returns text without a single escape code, in the same layout.
//
// Every helper that takes text (Paint, Title, Heading, Muted, Good, Bad,
// Warn, Accent, Strong, Badge, Wrap, Table, Tables) escapes it with Escape
// first, so values from profiles can be passed as they are. Grid takes cells
// that a helper has already rendered and does not escape them again: pass
// it only helper output or Escape'd text.
type Theme struct {
	// Color reports whether escape codes are allowed.
	Color bool
	// Width is the terminal width, or 0 when unknown.
	Width int

	r *lipgloss.Renderer
}

// NewTheme returns the theme for output written to w. With o.Color the
// palette uses the sixteen basic ANSI colours, which every colour terminal
// has and which follow the user's terminal scheme; without it, the Ascii
// profile, which drops every style.
func NewTheme(w io.Writer, o Options) *Theme {
	r := lipgloss.NewRenderer(w)
	if o.Color {
		r.SetColorProfile(termenv.ANSI)
	} else {
		r.SetColorProfile(termenv.Ascii)
	}
	// Set explicitly so lipgloss never queries the terminal for its
	// background colour (an escape sequence round trip on a TTY).
	r.SetHasDarkBackground(true)
	return &Theme{Color: o.Color, Width: o.Width, r: r}
}

// Renderer returns the theme's lipgloss renderer, for views that build their
// own styles. Styles must come from it (Renderer().NewStyle()), never from
// lipgloss.NewStyle, which would use the process's stdout to decide on
// colour.
func (t *Theme) Renderer() *lipgloss.Renderer {
	if t.r == nil {
		// A zero Theme is colourless rather than unusable.
		t.r = lipgloss.NewRenderer(io.Discard)
		t.r.SetColorProfile(termenv.Ascii)
		t.r.SetHasDarkBackground(true)
	}
	return t.r
}

// Style returns the lipgloss style of a tone.
func (t *Theme) Style(tone Tone) lipgloss.Style {
	s := t.Renderer().NewStyle()
	switch tone {
	case ToneMuted:
		return s.Faint(true)
	case ToneGood:
		return s.Foreground(lipgloss.Color("2"))
	case ToneBad:
		return s.Foreground(lipgloss.Color("1")).Bold(true)
	case ToneWarn:
		return s.Foreground(lipgloss.Color("3")).Bold(true)
	case ToneAccent:
		return s.Foreground(lipgloss.Color("6"))
	case ToneStrong:
		return s.Bold(true)
	}
	return s
}

// Paint escapes s and styles it with a tone.
func (t *Theme) Paint(tone Tone, s string) string {
	s = Escape(s)
	if tone == ToneNormal || s == "" {
		return s
	}
	return t.Style(tone).Render(s)
}

// Title renders the main heading of a view, such as a profile's name.
func (t *Theme) Title(s string) string {
	return t.Style(ToneAccent).Bold(true).Render(Escape(s))
}

// Heading renders a section heading.
func (t *Theme) Heading(s string) string { return t.Paint(ToneStrong, s) }

// Muted renders secondary text.
func (t *Theme) Muted(s string) string { return t.Paint(ToneMuted, s) }

// Good renders text about a safe or successful state.
func (t *Theme) Good(s string) string { return t.Paint(ToneGood, s) }

// Bad renders text about a refusal or failure.
func (t *Theme) Bad(s string) string { return t.Paint(ToneBad, s) }

// Warn renders text about a relaxed constraint.
func (t *Theme) Warn(s string) string { return t.Paint(ToneWarn, s) }

// Accent renders highlighted text.
func (t *Theme) Accent(s string) string { return t.Paint(ToneAccent, s) }

// Strong renders bold text.
func (t *Theme) Strong(s string) string { return t.Paint(ToneStrong, s) }

// Badge renders a short label in brackets, such as [built-in]. The brackets
// stay without colour, so the label reads as a label either way.
func (t *Theme) Badge(tone Tone, s string) string {
	return t.Paint(tone, "["+s+"]")
}

// Check renders ✔ in the good tone for true and ✘ in the bad tone for false.
func (t *Theme) Check(ok bool) string {
	if ok {
		return t.Paint(ToneGood, "✔")
	}
	return t.Paint(ToneBad, "✘")
}

// Flag renders a boolean setting as ✔ (true) or ✘ (false), in the good tone
// when the value is the safe one and in the warning tone when it relaxes a
// constraint. The mark shows the value; the colour shows what it means.
func (t *Theme) Flag(value, safe bool) string {
	mark := "✘"
	if value {
		mark = "✔"
	}
	if safe {
		return t.Paint(ToneGood, mark)
	}
	return t.Paint(ToneWarn, mark)
}

// GaugeCells is the number of cells in a Gauge bar.
const GaugeCells = 10

// Gauge renders a value in [0, 1] as a bar of GaugeCells cells followed by
// the value, such as "██████░░░░ 0.6". Values outside [0, 1] are clamped for
// the bar and printed as they are.
func (t *Theme) Gauge(v float64) string {
	return t.Bar(v, GaugeCells, "█", "░") + " " + FormatFloat(v)
}

// Ladder renders a value in [0, 1] as a compact bar of small blocks, such as
// "▮▮▮▯▯▯▯▯▯▯", for columns where a full gauge is too wide.
func (t *Theme) Ladder(v float64) string {
	return t.Bar(v, GaugeCells, "▮", "▯")
}

// Bar renders a value in [0, 1] as a bar of the given number of cells, the
// filled ones in the accent tone and the rest muted. v × cells is rounded to
// the nearest whole cell, so a small value above zero may fill none.
func (t *Theme) Bar(v float64, cells int, full, empty string) string {
	n := filledCells(v, cells)
	var b strings.Builder
	if n > 0 {
		b.WriteString(t.Paint(ToneAccent, strings.Repeat(full, n)))
	}
	if n < cells {
		b.WriteString(t.Paint(ToneMuted, strings.Repeat(empty, cells-n)))
	}
	return b.String()
}

// ladderText is Ladder without styles, for table cells, which must be plain
// text.
func ladderText(v float64) string {
	n := filledCells(v, GaugeCells)
	return strings.Repeat("▮", n) + strings.Repeat("▯", GaugeCells-n)
}

func filledCells(v float64, cells int) int {
	if math.IsNaN(v) || v <= 0 {
		return 0
	}
	if v >= 1 {
		return cells
	}
	return int(math.Round(v * float64(cells)))
}

// Grid lays out rows of already rendered cells in left-aligned columns, each
// line indented by indent spaces and columns separated by two spaces. Widths
// are measured without escape codes, so styled cells line up with plain
// ones. Trailing spaces are never written.
//
// When the theme knows the terminal width, a row wider than it has its
// last cell wrapped at spaces into the room left of the line, or, when
// less than gridMinRoom columns are left or a word would not fit there,
// onto lines of its own below, indented four spaces more than the row,
// where a word still too wide is broken (see wrapWords). The other cells
// are never wrapped: pass only short values there.
func (t *Theme) Grid(indent int, rows [][]string) string {
	var widths []int
	for _, row := range rows {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], lipgloss.Width(c))
		}
	}
	var b strings.Builder
	pad := strings.Repeat(" ", indent)
	for _, row := range rows {
		var line strings.Builder
		line.WriteString(pad)
		for i, c := range row[:max(len(row)-1, 0)] {
			if i > 0 {
				line.WriteString("  ")
			}
			line.WriteString(c)
			line.WriteString(strings.Repeat(" ", widths[i]-lipgloss.Width(c)))
		}
		if len(row) == 0 {
			b.WriteString("\n")
			continue
		}
		last := row[len(row)-1]
		if len(row) > 1 {
			line.WriteString("  ")
		}
		prefix := line.String()
		// A hang mark in the last cell ends a lead (a value) that wrapped
		// lines of the rest (its meaning) are indented past.
		lead, rest, hung := strings.Cut(last, hangMark)
		if !hung {
			lead, rest = "", last
		}
		last = lead + rest
		start := lipgloss.Width(prefix)
		if t.Width <= 0 || start+lipgloss.Width(last) <= t.Width {
			b.WriteString(strings.TrimRight(prefix+last, " "))
			b.WriteString("\n")
			continue
		}
		if room := t.Width - start - lipgloss.Width(lead); len(row) == 1 || room >= gridMinRoom && longestWord(rest) <= room {
			for i, l := range WrapText(rest, max(room, 1)) {
				if i == 0 {
					prefix += lead
				} else {
					prefix = strings.Repeat(" ", start+lipgloss.Width(lead))
				}
				b.WriteString(strings.TrimRight(prefix+l, " "))
				b.WriteString("\n")
			}
			continue
		}
		if strings.TrimSpace(prefix) != "" {
			b.WriteString(strings.TrimRight(prefix, " "))
			b.WriteString("\n")
		}
		hang := indent + 4
		if t.Width-hang-lipgloss.Width(lead) < gridMinRoom {
			lead, rest = "", last
		}
		for i, l := range WrapText(rest, t.Width-hang-lipgloss.Width(lead)) {
			if i == 0 {
				b.WriteString(strings.Repeat(" ", hang) + lead + l + "\n")
				continue
			}
			b.WriteString(strings.Repeat(" ", hang+lipgloss.Width(lead)) + l + "\n")
		}
	}
	return b.String()
}

// gridMinRoom is the fewest columns a wrapped last cell of a Grid row
// keeps beside the others before it moves below them.
const gridMinRoom = 16

// hangMark, in the last cell of a Grid row, ends the part of the cell
// that lines wrapped from the rest are indented past. It is never written.
const hangMark = "\x00"

// Para returns s, already rendered, as lines that fit the terminal: it is
// wrapped at spaces when the theme knows the width and s is wider (a word
// wider than the line broken, unless it is a name or an id; see
// WrapText), and lines after the first are indented by hang spaces. Each
// line ends with a newline.
func (t *Theme) Para(hang int, s string) string {
	if t.Width <= 0 || lipgloss.Width(s) <= t.Width {
		return s + "\n"
	}
	lead := len(s) - len(strings.TrimLeft(s, " "))
	var b strings.Builder
	lines := WrapText(strings.TrimLeft(s, " "), max(t.Width-max(lead, hang), 1))
	for i, l := range lines {
		if i == 0 {
			b.WriteString(strings.Repeat(" ", lead))
		} else {
			b.WriteString(strings.Repeat(" ", hang))
		}
		b.WriteString(l)
		b.WriteString("\n")
	}
	return b.String()
}

// Wrap escapes s and breaks it into lines of at most width columns at
// spaces, each line indented by indent spaces and ended by a newline. A word
// longer than width is broken where it must (see wrapWords) when the theme
// knows the terminal width, and otherwise keeps a line of its own.
func (t *Theme) Wrap(indent, width int, tone Tone, s string) string {
	pad := strings.Repeat(" ", indent)
	var b strings.Builder
	// A word is broken only where it is wider than the terminal leaves
	// it: width may be narrower (prose is kept to a readable measure), and
	// a word that fits the terminal stands whole on a line of its own.
	room := 0
	if t.Width > 0 {
		room = max(t.Width-indent, 1)
	}
	for _, line := range wrapWords(Escape(s), width, room) {
		b.WriteString(pad)
		b.WriteString(t.Paint(tone, line))
		b.WriteString("\n")
	}
	return b.String()
}

// wrapWords breaks s, which may carry escape codes, into lines of at most
// width columns at spaces (and after the slashes of a long absolute path).
// A word wider than room (when room is above 0) is broken into pieces of
// width where it must (see breakWord), unless it is a name or an id (see
// keepWhole); any other word wider than width keeps a line of its own.
func wrapWords(s string, width, room int) []string {
	// Each piece keeps the spaces before it: they are written when it
	// follows on the same line, and dropped where a line breaks. A piece
	// glued to the one before it continues the same word (a long path
	// broken after a slash, or a long word broken where it must).
	type piece struct {
		space, text string
		glue        bool
	}
	var pieces []piece
	rest := strings.TrimLeft(s, " \t\n")
	for rest != "" {
		end := strings.IndexAny(rest, " \t\n")
		if end < 0 {
			end = len(rest)
		}
		word := fitWord(rest[:end], width)
		rest = rest[end:]
		next := strings.TrimLeft(rest, " \t\n")
		space := strings.Map(func(r rune) rune { return ' ' }, rest[:len(rest)-len(next)])
		for i, p := range splitPath(word, width) {
			if room > 0 && lipgloss.Width(p) > max(width, room) && !keepWhole(word) {
				for j, q := range breakWord(p, width) {
					pieces = append(pieces, piece{text: q, glue: i > 0 || j > 0})
				}
				continue
			}
			pieces = append(pieces, piece{text: p, glue: i > 0})
		}
		rest = next
		if rest != "" {
			pieces = append(pieces, piece{space: space})
		}
	}
	if len(pieces) == 0 {
		return nil
	}
	var lines []string
	cur, space := "", ""
	for _, p := range pieces {
		if p.text == "" {
			space = p.space
			continue
		}
		sep := space
		if p.glue {
			sep = ""
		}
		space = ""
		switch {
		case cur == "":
			cur = p.text
		case lipgloss.Width(cur)+len(sep)+lipgloss.Width(p.text) > width:
			lines = append(lines, cur)
			cur = p.text
		default:
			cur += sep + p.text
		}
	}
	return append(lines, cur)
}

// splitPath breaks an absolute path wider than width after its slashes,
// into pieces of at most width columns where its folder names allow. Any
// other word comes back whole.
func splitPath(w string, width int) []string {
	if lipgloss.Width(w) <= width || !strings.HasPrefix(ansi.Strip(w), "/") {
		return []string{w}
	}
	var out []string
	cur := ""
	for _, seg := range strings.SplitAfter(w, "/") {
		if cur != "" && lipgloss.Width(cur+seg) > width {
			out = append(out, cur)
			cur = ""
		}
		cur += seg
	}
	return append(out, cur)
}

// Table renders tb as a lipgloss table with rounded borders: the title as a
// heading above it, the header in bold, every cell escaped and styled with
// the tone tone(row, col) gives (row counts data rows from 0, col the
// columns of tb; tone may be nil). When the theme knows the terminal width
// and the table is wider, it is fitted as Table's documentation says:
// columns shrunk and wrapped, then split, then stacked.
func (t *Theme) Table(tb Table, tone func(row, col int) Tone) string {
	var b strings.Builder
	if tb.Title != "" {
		b.WriteString(t.Para(0, t.Heading(tb.Title)))
	}
	if len(tb.Header) == 0 && len(tb.Rows) == 0 {
		return b.String()
	}
	toneOf := func(row, col int) Tone {
		if tone == nil {
			return ToneNormal
		}
		return tone(row, col)
	}
	et := escapeTable(tb)
	et.Title = ""
	// lipgloss draws a header on one line, so headers never wrap here.
	l := layoutTable(et, t.Width, false)
	parts := make([]string, 0, len(l.tables)+len(l.records))
	for i, part := range l.tables {
		cols := l.columns[i]
		var s strings.Builder
		if len(l.tables) > 1 {
			s.WriteString(t.Para(0, t.Muted(part.Title)))
		}
		s.WriteString(t.drawTable(part, func(row, col int) Tone {
			return toneOf(row, cols[col])
		}))
		if note := l.droppedNote(t.Width); note != "" && i == len(l.tables)-1 {
			s.WriteString(t.Para(0, t.Muted(note)))
		}
		parts = append(parts, s.String())
	}
	// A table that cannot be drawn at all is one block per row: the first
	// cell as its heading, then the other columns, each header muted
	// beside its value.
	for r, rec := range l.records {
		var s strings.Builder
		var rows [][]string
		for i, f := range rec {
			style := t.Style(toneOf(r, f.col))
			if i == 0 {
				s.WriteString(t.Para(2, style.Bold(true).Render(f.value)))
				continue
			}
			rows = append(rows, []string{t.Muted(f.key), style.Render(f.value)})
		}
		s.WriteString(t.Grid(2, rows))
		parts = append(parts, s.String())
	}
	b.WriteString(strings.Join(parts, "\n"))
	return b.String()
}

// drawTable draws a fitted table of escaped cells with lipgloss.
func (t *Theme) drawTable(tb Table, tone func(row, col int) Tone) string {
	styles := map[Tone]lipgloss.Style{}
	styleOf := func(tn Tone) lipgloss.Style {
		s, ok := styles[tn]
		if !ok {
			s = t.Style(tn).Padding(0, 1)
			styles[tn] = s
		}
		return s
	}
	lt := table.New().
		Border(lipgloss.RoundedBorder()).
		BorderStyle(t.Style(ToneMuted)).
		Headers(tb.Header...).
		StyleFunc(func(row, col int) lipgloss.Style {
			if row == table.HeaderRow {
				return styleOf(ToneStrong)
			}
			return styleOf(tone(row, col))
		})
	for _, r := range tb.Rows {
		lt.Row(r...)
	}
	return lt.Render() + "\n"
}

// Tables renders several tables separated by blank lines, each cell in the
// normal tone.
func (t *Theme) Tables(tables []Table) string {
	parts := make([]string, len(tables))
	for i, tb := range tables {
		parts[i] = t.Table(tb, nil)
	}
	return strings.Join(parts, "\n")
}

func escapeAll(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = Escape(c)
	}
	return out
}
