package render

import (
	"io"

	"github.com/agentsctl/agents/internal/canon"
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

type tableRenderer struct{ opts Options }

func (r tableRenderer) Render(w io.Writer, v View) error {
	pw := NewWriter(w)
	for i, t := range v.Tables() {
		if i > 0 {
			pw.Raw("\n")
		}
		if t.Title != "" {
			pw.Line(t.Title)
		}
		for _, row := range append([][]string{t.Header}, t.Rows...) {
			for j, c := range row {
				if j > 0 {
					pw.Raw("\t")
				}
				pw.Raw(Escape(c))
			}
			pw.Raw("\n")
		}
	}
	return pw.Err()
}

// Theme holds the lipgloss styles of the rich format.
type Theme struct {
	Color bool
}

type richRenderer struct{ opts Options }

func (r richRenderer) Render(w io.Writer, v View) error {
	if rv, ok := v.(RichView); ok {
		_, err := io.WriteString(w, rv.Rich(&Theme{Color: r.opts.Color}))
		return err
	}
	return tableRenderer(r).Render(w, v)
}
