package render

import (
	"bytes"
	"io"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

type jsonRenderer struct{}

func (jsonRenderer) Render(w io.Writer, v View) error {
	b, err := canon.JSON(v.Data())
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
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
	opts := []tablewriter.Option{
		// Headers are written as the view spells them, left-aligned like
		// their columns; tablewriter would otherwise upper-case, re-space
		// and centre them.
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
	}
	if r.opts.Width > 0 {
		opts = append(opts,
			tablewriter.WithMaxWidth(r.opts.Width),
			tablewriter.WithRowAutoWrap(tw.WrapNormal))
	}
	tbl := tablewriter.NewTable(buf, opts...)
	if len(t.Header) > 0 {
		tbl.Header(escapeAll(t.Header))
	}
	for _, row := range t.Rows {
		if err := tbl.Append(escapeAll(row)); err != nil {
			return err
		}
	}
	return tbl.Render()
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
