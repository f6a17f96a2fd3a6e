package render

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Fit says how a column of a Table gives up width when the table is wider
// than the terminal. Whatever the fit, a table that cannot be made narrow
// enough is split into column groups or stacked into one block per row
// (see Table.Repeat), so no name or id is ever cut.
type Fit int

const (
	// FitWrap wraps the column's text at spaces, inside a word only when
	// the table could not be drawn otherwise (see layoutTable). It is the
	// default.
	FitWrap Fit = iota
	// FitKeep never cuts or wraps the column: names, ids, marks, numbers.
	FitKeep
	// FitShrink shortens the column's text with "…", down to ShrinkMin
	// columns: descriptions, whose full text another view shows. It gives
	// up width first: it counts as half as wide again as it is when the
	// widest column is chosen to narrow.
	FitShrink
	// FitDrop wraps like FitWrap, and the column is left out, the last
	// such column first, when the table would otherwise be split or
	// stacked: a detail that another view shows.
	FitDrop
)

// ShrinkMin is the narrowest a FitShrink column is made.
const ShrinkMin = 16

// boxOverhead is the width a boxed table (lipgloss rounded borders or
// tablewriter's) adds to its cells: a border and a space either side of
// each column, and one border to close the row.
func boxOverhead(cols int) int { return 3*cols + 1 }

// fitOf returns the fit of column i.
func (t Table) fitOf(i int) Fit {
	if i < len(t.Fits) {
		return t.Fits[i]
	}
	return FitWrap
}

// columns returns the number of columns of t.
func (t Table) columns() int {
	n := len(t.Header)
	for _, r := range t.Rows {
		n = max(n, len(r))
	}
	return n
}

// longestWord is the width of the widest word of s that wrapping keeps
// whole: a digest counts as its shortest form, and an absolute path as its
// longest folder name, since it may break after a slash.
func longestWord(s string) int { return widestWord(s, false) }

// widestWord is longestWord, or with brk set the narrowest a column of s
// may be made when long words may be broken: a word wider than longWord
// that is not a name or an id (see keepWhole) counts as longWord columns.
func widestWord(s string, brk bool) int {
	w := 0
	for _, f := range strings.Fields(s) {
		plain := ansi.Strip(f)
		ww := 0
		switch {
		case isDigest(digestPart(plain)):
			ww = minDigest
		case strings.HasPrefix(plain, "/"):
			for _, seg := range strings.SplitAfter(plain, "/") {
				ww = max(ww, lipgloss.Width(seg))
			}
		default:
			ww = lipgloss.Width(f)
		}
		if brk && ww > longWord && !keepWhole(plain) {
			ww = longWord
		}
		w = max(w, ww)
	}
	return w
}

// longWord is the widest a word is that a table never breaks: wider than
// any field, gate or setting name, and than the words of prose. A longer
// word (a run of text without spaces, a made-up tool name) may be broken
// across lines where the table would otherwise be stacked.
const longWord = 32

// minDigest is the narrowest a digest is shown: twelve hexadecimal digits
// and "…", as git shortens commit ids. Nothing takes a digest as input, and
// plain, json and yaml always carry it whole.
const minDigest = 13

// isDigest reports whether s is a sha256 in lower-case hex.
func isDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// fitWord returns a word wider than width as it is, unless it is a digest,
// which is shortened to fit (to minDigest at the least). w may carry
// escape codes.
func fitWord(w string, width int) string {
	if lipgloss.Width(w) <= width || !isDigest(digestPart(ansi.Strip(w))) {
		return w
	}
	return ansi.Truncate(w, max(width, minDigest), "…")
}

// digestPart is s without the punctuation that may follow a word.
func digestPart(s string) string { return strings.TrimRight(s, ".,;:)") }

// planWidths works out the width of each column of t (whose cells are
// escaped already) so that the table, with overhead(columns) added, is at
// most width wide: FitShrink columns give up width down to ShrinkMin,
// FitWrap columns down to their longest word and FitKeep columns down to
// their widest cell, the widest column first each time. With brk set, a
// FitWrap column's word wider than longWord that is not a name or an id
// counts as longWord columns, since it may be broken across lines. Headers wrap at
// spaces when headerWraps is set, and otherwise keep their width. ok is
// false when the table cannot fit; width 0 means no limit.
func planWidths(t Table, width int, overhead func(int) int, headerWraps, brk bool) (widths []int, ok bool) {
	n := t.columns()
	natural := make([]int, n) // the widest cell or header
	cells := make([]int, n)   // the widest cell
	floor := make([]int, n)   // the widest word, of a cell or header
	for i, h := range t.Header {
		natural[i] = lipgloss.Width(h)
		floor[i] = longestWord(h)
		if !headerWraps {
			floor[i] = natural[i]
		}
	}
	for _, r := range t.Rows {
		for i, c := range r {
			w := lipgloss.Width(c)
			natural[i] = max(natural[i], w)
			cells[i] = max(cells[i], w)
			if f := t.fitOf(i); f == FitWrap || f == FitDrop {
				floor[i] = max(floor[i], widestWord(c, brk))
			}
		}
	}
	total := overhead(n)
	for i := range natural {
		switch t.fitOf(i) {
		case FitKeep:
			// Headers wrap at spaces in every column; cells here never do.
			floor[i] = max(floor[i], cells[i])
		case FitShrink:
			floor[i] = min(natural[i], max(floor[i], ShrinkMin))
		}
		total += natural[i]
	}
	widths = append([]int(nil), natural...)
	if width <= 0 || total <= width {
		return widths, true
	}
	// The widest column gives up a column at a time. A FitShrink column
	// counts as half as wide again, so descriptions give way first, but
	// not to the last column while another still wraps onto many lines.
	weight := func(i int) int {
		if t.fitOf(i) == FitShrink {
			return widths[i] * 3 / 2
		}
		return widths[i]
	}
	for total > width {
		widest := -1
		for i := range widths {
			if widths[i] > floor[i] && (widest < 0 || weight(i) > weight(widest)) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		widths[widest]--
		total--
	}
	if total > width {
		return widths, false
	}
	// Wrapping at spaces often leaves a column narrower than the width it
	// was given: hand what it does not use to the shortened columns.
	for i := range widths {
		if f := t.fitOf(i); f == FitShrink || widths[i] >= natural[i] {
			continue
		}
		used := 0
		for _, l := range wrapWords(headerOf(t, i), widths[i], 0) {
			used = max(used, lipgloss.Width(l))
		}
		for _, r := range t.Rows {
			if i >= len(r) {
				continue
			}
			if t.fitOf(i) == FitKeep {
				used = max(used, lipgloss.Width(r[i]))
				continue
			}
			for _, l := range wrapWords(r[i], widths[i], widths[i]) {
				used = max(used, lipgloss.Width(l))
			}
		}
		total -= widths[i] - used
		widths[i] = used
	}
	for i := range widths {
		if t.fitOf(i) == FitShrink && total < width && widths[i] < natural[i] {
			grow := min(width-total, natural[i]-widths[i])
			widths[i] += grow
			total += grow
		}
	}
	return widths, true
}

func headerOf(t Table, i int) string {
	if i < len(t.Header) {
		return t.Header[i]
	}
	return ""
}

// applyWidths returns t with its cells cut or wrapped to widths: FitShrink
// cells shortened with "…", FitWrap cells and every header wrapped at
// spaces onto lines joined by "\n".
func applyWidths(t Table, widths []int) Table {
	out := Table{Title: t.Title, Fits: t.Fits, Repeat: t.Repeat}
	cell := func(i int, c string, header bool) string {
		if i >= len(widths) || lipgloss.Width(c) <= widths[i] {
			return c
		}
		switch {
		case header:
		case t.fitOf(i) == FitKeep:
			return c
		case t.fitOf(i) == FitShrink:
			return Truncate(c, widths[i])
		}
		room := widths[i]
		if header {
			room = 0
		}
		return strings.Join(wrapWords(c, widths[i], room), "\n")
	}
	if t.Header != nil {
		out.Header = make([]string, len(t.Header))
		for i, h := range t.Header {
			out.Header[i] = cell(i, h, true)
		}
	}
	out.Rows = make([][]string, len(t.Rows))
	for r, row := range t.Rows {
		out.Rows[r] = make([]string, len(row))
		for i, c := range row {
			out.Rows[r][i] = cell(i, c, false)
		}
	}
	return out
}

// subTable returns the columns cols of t, in that order.
func subTable(t Table, cols []int) Table {
	pick := func(row []string) []string {
		out := make([]string, 0, len(cols))
		for _, c := range cols {
			if c < len(row) {
				out = append(out, row[c])
			} else {
				out = append(out, "")
			}
		}
		return out
	}
	s := Table{Title: t.Title, Repeat: t.Repeat}
	if t.Header != nil {
		s.Header = pick(t.Header)
	}
	for _, c := range cols {
		s.Fits = append(s.Fits, t.fitOf(c))
	}
	for _, r := range t.Rows {
		s.Rows = append(s.Rows, pick(r))
	}
	return s
}

// splitColumns splits a table that cannot fit into tables of its first
// t.Repeat columns followed by as many of the others as fit, in order, and
// returns them with the columns of t each holds. It returns nil when even
// one other column beside the repeated ones does not fit.
func splitColumns(t Table, width int, overhead func(int) int, headerWraps, brk bool) ([]Table, [][]int) {
	n := t.columns()
	if t.Repeat <= 0 || t.Repeat >= n {
		return nil, nil
	}
	lead := make([]int, t.Repeat)
	for i := range lead {
		lead[i] = i
	}
	var parts []Table
	var columns [][]int
	for next := t.Repeat; next < n; {
		cols := append(append([]int(nil), lead...), next)
		if _, ok := planWidths(subTable(t, cols), width, overhead, headerWraps, brk); !ok {
			return nil, nil
		}
		end := next + 1
		for end < n {
			try := append(append([]int(nil), cols...), end)
			if _, ok := planWidths(subTable(t, try), width, overhead, headerWraps, brk); !ok {
				break
			}
			cols = try
			end++
		}
		parts = append(parts, subTable(t, cols))
		columns = append(columns, cols)
		next = end
	}
	for i := range parts {
		parts[i].Title = partTitle(t.Title, i, len(parts))
	}
	return parts, columns
}

// partTitle titles part i of n of a split table.
func partTitle(title string, i, n int) string {
	part := "part " + strconv.Itoa(i+1) + " of " + strconv.Itoa(n)
	if title == "" {
		return "(" + part + ")"
	}
	return title + " (" + part + ")"
}

// field is one cell of a stacked row: its column's header and index, and
// its text.
type field struct {
	key   string
	col   int
	value string
}

// stackRows turns t into one list of fields per row, for a table too wide
// to draw as one: the first field is the row's first cell, which heads
// the record. Empty cells are left out.
func stackRows(t Table) [][]field {
	recs := make([][]field, len(t.Rows))
	for r, row := range t.Rows {
		for i, c := range row {
			key := ""
			if i < len(t.Header) {
				key = t.Header[i]
			}
			if i > 0 && c == "" {
				continue
			}
			recs[r] = append(recs[r], field{key: key, col: i, value: c})
		}
	}
	return recs
}

// layout is how a table is drawn in a given width: as fitted tables, each
// with the columns of the original it holds, or, when no table fits, as
// one stacked record per row.
type layout struct {
	tables  []Table
	columns [][]int
	records [][]field
	// dropped are the headers of the columns left out to fit.
	dropped []string
}

// droppedNote says which columns a table left out to fit width, or "".
func (l layout) droppedNote(width int) string {
	if len(l.dropped) == 0 {
		return ""
	}
	return fmt.Sprintf("left out to fit %d columns: %s", width, strings.Join(l.dropped, ", "))
}

// droppedHeaders returns the headers of t's columns not in keep.
func droppedHeaders(t Table, keep []int) []string {
	var out []string
	for i := range t.columns() {
		if !slices.Contains(keep, i) && i < len(t.Header) {
			out = append(out, t.Header[i])
		}
	}
	return out
}

// layoutTable fits one table (cells escaped) into width: as it is, with
// columns shrunk and wrapped, with droppable columns left out, split into
// column groups, or, when none of those fits, stacked into records.
// A word is broken across lines only when even the stacked records would
// not show it whole: then the same steps are tried again with the words
// of FitWrap and FitDrop columns wider than longWord broken (names and
// ids never are), and the table is stacked only when that does not fit
// either. headerWraps says whether headers may take more than one line.
func layoutTable(t Table, width int, headerWraps bool) layout {
	l := layoutWith(t, width, headerWraps, false)
	if l.records == nil || recordsFit(l.records, width) {
		return l
	}
	return layoutWith(t, width, headerWraps, true)
}

// recordTable is a stacked record drawn as a table: each field but the
// first (the record's heading) as a row of its header and value.
func recordTable(rec []field) Table {
	kv := Table{Fits: []Fit{FitWrap, FitWrap}}
	for _, f := range rec[1:] {
		kv.Rows = append(kv.Rows, []string{f.key, f.value})
	}
	return kv
}

// recordsFit reports whether every stacked record fits width with its
// words whole.
func recordsFit(recs [][]field, width int) bool {
	for _, rec := range recs {
		if longestWord(rec[0].value) > width {
			return false
		}
		if _, ok := planWidths(recordTable(rec), width, boxOverhead, true, false); !ok {
			return false
		}
	}
	return true
}

// layoutWith is layoutTable with long words broken or not.
func layoutWith(t Table, width int, headerWraps, brk bool) layout {
	widths, ok := planWidths(t, width, boxOverhead, headerWraps, brk)
	if ok || len(t.Rows) == 0 {
		all := make([]int, t.columns())
		for i := range all {
			all[i] = i
		}
		return layout{tables: []Table{applyWidths(t, widths)}, columns: [][]int{all}}
	}
	// Leave out droppable columns, the last first, while that makes the
	// table fit.
	keep := make([]int, 0, t.columns())
	for i := range t.columns() {
		keep = append(keep, i)
	}
	for i := len(keep) - 1; i >= 0; i-- {
		if t.fitOf(keep[i]) != FitDrop {
			continue
		}
		keep = append(keep[:i:i], keep[i+1:]...)
		sub := subTable(t, keep)
		if w, ok := planWidths(sub, width, boxOverhead, headerWraps, brk); ok {
			return layout{tables: []Table{applyWidths(sub, w)}, columns: [][]int{keep}, dropped: droppedHeaders(t, keep)}
		}
	}
	// Split what is left into column groups, each with the leading
	// columns that remain.
	reduced := subTable(t, keep)
	reduced.Repeat = 0
	for _, c := range keep {
		if c < t.Repeat {
			reduced.Repeat++
		}
	}
	if parts, cols := splitColumns(reduced, width, boxOverhead, headerWraps, brk); parts != nil {
		for i, p := range parts {
			w, _ := planWidths(p, width, boxOverhead, headerWraps, brk)
			parts[i] = applyWidths(p, w)
			for j, c := range cols[i] {
				cols[i][j] = keep[c]
			}
		}
		return layout{tables: parts, columns: cols, dropped: droppedHeaders(t, keep)}
	}
	return layout{records: stackRows(t)}
}

// WrapText breaks s, which may carry escape codes, into lines of at most
// width columns at spaces; a word wider than width is broken where it must
// (see breakWord), but a name or an id keeps a line of its own (see
// keepWhole). Runs of spaces collapse to one. width 0 or less leaves s
// whole.
func WrapText(s string, width int) []string {
	if width <= 0 || lipgloss.Width(s) <= width {
		return []string{s}
	}
	return wrapWords(s, width, width)
}

// keepWhole reports whether a word must not be broken across lines even
// when it is wider than the room it has: a profile or action name or a
// plan id, perhaps quoted or followed by punctuation. Such a word stands
// past the edge instead, as the layout allows a name to.
func keepWhole(w string) bool {
	s := strings.Trim(ansi.Strip(w), "\"'()[].,;:")
	return profile.CheckCustomName(s) == "" || profile.IsBuiltinName(s) || plan.CheckID(s) == ""
}

// breakWord breaks w, a word wider than width, into pieces of at most
// width columns, counted as lipgloss.Width counts them. It breaks between
// grapheme clusters, so a wide character is never split, and never inside
// an escape code, which stays with the text before it; a Go escape that
// Escape wrote (\x1b, \u202e) is kept whole too, when width allows. A
// piece is wider than width only when a single character is.
func breakWord(w string, width int) []string {
	if width <= 0 || lipgloss.Width(w) <= width {
		return []string{w}
	}
	var out []string
	var cur strings.Builder
	used := 0
	state := byte(ansi.NormalState)
	for rest := w; rest != ""; {
		seq, cw, n, next := ansi.DecodeSequence(rest, state, nil)
		if n <= 0 {
			n, seq, cw = 1, rest[:1], 1
		}
		state = next
		if cw > 0 && seq == `\` {
			if l := goEscapeLen(rest); l > 0 && l <= width {
				seq, cw, n = rest[:l], l, l
			}
		}
		if cw > 0 && used > 0 && used+cw > width {
			out = append(out, cur.String())
			cur.Reset()
			used = 0
		}
		cur.WriteString(seq)
		used += cw
		rest = rest[n:]
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// goEscapeLen returns the length of the Go escape s starts with, as
// Escape writes them (\a, \x7f, \u202e, \U000e0001), or 0.
func goEscapeLen(s string) int {
	if len(s) < 2 || s[0] != '\\' {
		return 0
	}
	digits := 0
	switch s[1] {
	case 'a', 'b', 'f', 'n', 'r', 't', 'v':
		return 2
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	default:
		return 0
	}
	if len(s) < 2+digits {
		return 0
	}
	for i := 2; i < 2+digits; i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return 0
		}
	}
	return 2 + digits
}
