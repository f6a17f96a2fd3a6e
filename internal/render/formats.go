package render

import (
	"bytes"
	"io"
	"strings"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/charmbracelet/lipgloss"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
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
// and a header row, titles above and a blank line between tables. It never
// colours anything: table output is meant to be pasted and diffed.
type tableRenderer struct{ opts Options }

func (r tableRenderer) Render(w io.Writer, v View) error {
	var buf bytes.Buffer
	for i, t := range v.Tables() {
		if i > 0 {
			buf.WriteString("\n")
		}
		if err := r.renderOne(&buf, t); err != nil {
			return err
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func (r tableRenderer) renderOne(buf *bytes.Buffer, t Table) error {
	if t.Title != "" {
		buf.WriteString(Escape(t.Title))
		buf.WriteString("\n")
	}
	if len(t.Header) == 0 && len(t.Rows) == 0 {
		return nil
	}
	header := escapeAll(t.Header)
	rows := make([][]string, len(t.Rows))
	for i, row := range t.Rows {
		rows[i] = escapeAll(row)
	}
	if r.opts.Width > 0 {
		fitColumns(header, rows, r.opts.Width)
	}
	opts := []tablewriter.Option{
		// Headers are written as the view spells them, left-aligned like
		// their columns; tablewriter would otherwise upper-case, re-space
		// and centre them.
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		// Cells are wrapped by fitColumns, which knows the terminal width;
		// tablewriter's own wrapping shares the width out evenly instead.
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	}
	tbl := tablewriter.NewTable(buf, opts...)
	if len(header) > 0 {
		tbl.Header(header)
	}
	for _, row := range rows {
		if err := tbl.Append(row); err != nil {
			return err
		}
	}
	return tbl.Render()
}

// fitColumns wraps data cells at spaces, in place, so the table drawn from
// them is at most width columns wide where the words allow it: the widest
// column that can still shrink gives up a column at a time. Cells must be
// escaped already: the newlines it inserts are the only ones they hold.
func fitColumns(header []string, rows [][]string, width int) {
	cols := len(header)
	for _, row := range rows {
		cols = max(cols, len(row))
	}
	cur := make([]int, cols)   // the column's width now
	floor := make([]int, cols) // its longest word, or its header
	for i, h := range header {
		cur[i], floor[i] = lipgloss.Width(h), lipgloss.Width(h)
	}
	for _, row := range rows {
		for i, c := range row {
			cur[i] = max(cur[i], lipgloss.Width(c))
			for _, w := range strings.Fields(c) {
				floor[i] = max(floor[i], lipgloss.Width(w))
			}
		}
	}
	// Each column adds a border and a space either side; one border closes
	// the row.
	total := 1
	for _, w := range cur {
		total += w + 3
	}
	limit := append([]int(nil), cur...)
	for total > width {
		widest := -1
		for i := range limit {
			if limit[i] > floor[i] && (widest < 0 || limit[i] > limit[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		limit[widest]--
		total--
	}
	for _, row := range rows {
		for i, c := range row {
			if limit[i] < cur[i] {
				row[i] = strings.Join(wrapWords(c, limit[i]), "\n")
			}
		}
	}
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
