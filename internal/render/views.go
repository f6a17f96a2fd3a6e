package render

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
)

// Pair is one key and its value in a KV view.
type Pair struct {
	Key   string
	Value string
}

// KV is an ordered list of keys and values: a small result such as a status
// or a summary. Its document is Doc when set, else a JSON object of the
// pairs in their order.
type KV struct {
	Title string
	Pairs []Pair
	// Doc is the canonical document for json and yaml; nil means an object
	// built from Pairs with string values.
	Doc any
}

// Data implements View.
func (v KV) Data() any {
	if v.Doc != nil {
		return v.Doc
	}
	return orderedObject(v.Pairs)
}

// Plain implements View: one "key: value" line per pair.
func (v KV) Plain(w *Writer) {
	for _, p := range v.Pairs {
		w.Field(p.Key, p.Value)
	}
}

// Tables implements View: one two-column table.
func (v KV) Tables() []Table {
	t := Table{Title: v.Title, Header: []string{"KEY", "VALUE"}}
	for _, p := range v.Pairs {
		t.Rows = append(t.Rows, []string{p.Key, p.Value})
	}
	return []Table{t}
}

// Rich implements RichView: the title, then the pairs in aligned columns.
func (v KV) Rich(t *Theme) string {
	var b strings.Builder
	if v.Title != "" {
		b.WriteString(t.Para(0, t.Title(v.Title)))
	}
	rows := make([][]string, len(v.Pairs))
	for i, p := range v.Pairs {
		rows[i] = []string{t.Muted(p.Key), Escape(p.Value)}
	}
	b.WriteString(t.Grid(0, rows))
	return b.String()
}

// orderedObject is a JSON object whose keys keep their order, so canonical
// YAML (derived from JSON) keeps it too.
type orderedObject []Pair

// MarshalJSON implements json.Marshaler.
func (o orderedObject) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := json.Marshal(p.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(p.Value)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// Truncate shortens s to at most width terminal columns, ending it with "…"
// (after no space) when it was cut. Escape s first: a cut must not fall inside text that
// would still be interpreted by the terminal, and the width of escaped text
// is what the reader sees.
func Truncate(s string, width int) string {
	if width <= 0 || lipgloss.Width(s) <= width {
		return s
	}
	var b strings.Builder
	used := 0
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		cw := lipgloss.Width(s[i : i+size])
		if used+cw > width-1 {
			break
		}
		b.WriteString(s[i : i+size])
		used += cw
		i += size
	}
	return strings.TrimRight(b.String(), " ") + "…"
}

// JoinList formats a list of values for human formats: "null" for an absent
// list, "[]" for an empty one, else the values separated by ", ", each
// quoted where it could be read as something else (see listItem).
func JoinList(list []string) string {
	return joinItems(list, ", ")
}

// joinItems is JoinList with the separator sep.
func joinItems(list []string, sep string) string {
	if list == nil {
		return "null"
	}
	if len(list) == 0 {
		return "[]"
	}
	items := make([]string, len(list))
	for i, s := range list {
		items[i] = listItem(s)
	}
	return strings.Join(items, sep)
}

// listItem is one value of a list as a human format shows it: quoted when
// it would otherwise read as no list (null, []), as two values (a comma),
// or as a quoted value; as it is otherwise.
func listItem(s string) string {
	if s == "null" || s == "[]" || strings.ContainsAny(s, ",\"") {
		return strconv.Quote(s)
	}
	return s
}

// Line is a result told in one line, such as a change made: Text in the
// human formats, Doc in json and yaml.
type Line struct {
	Text string
	Doc  any
}

// Data implements View.
func (v Line) Data() any { return v.Doc }

// Plain implements View.
func (v Line) Plain(w *Writer) { w.Line(v.Text) }

// Tables implements View: a table with the line as its title.
func (v Line) Tables() []Table { return []Table{{Title: v.Text}} }

// Rich implements RichView.
func (v Line) Rich(t *Theme) string { return t.Para(2, Escape(v.Text)) }

// Lines is a list of values: one per line in the human formats, an array
// in json and yaml.
type Lines struct {
	Items []string
}

// Data implements View.
func (v Lines) Data() any { return v.Items }

// Plain implements View.
func (v Lines) Plain(w *Writer) {
	for _, s := range v.Items {
		w.Line(s)
	}
}

// Tables implements View: a one-column table.
func (v Lines) Tables() []Table {
	t := Table{}
	for _, s := range v.Items {
		t.Rows = append(t.Rows, []string{s})
	}
	return []Table{t}
}

// Rich implements RichView: the values one per line, as in plain, a value
// wider than the terminal broken between its words (or after a path's
// slashes) onto lines indented under it.
func (v Lines) Rich(t *Theme) string {
	var b strings.Builder
	for _, s := range v.Items {
		b.WriteString(t.Para(2, Escape(s)))
	}
	return b.String()
}

// Change is what a mutation did: one line in the human formats, and Doc,
// the document of what is stored (or was removed), in json and yaml.
type Change struct {
	// Verb says what happened: added, updated, unchanged, removed,
	// created, ratified, trusted.
	Verb string
	// Subject names what it happened to: "acme/strict", "plan 01…".
	Subject string
	// Detail, when set, follows the subject after a colon.
	Detail string
	// Doc is the document of json and yaml.
	Doc any
}

// Unchanged is the verb of a mutation that found nothing to change.
const Unchanged = "unchanged"

// Text is the change told in words: "added acme/strict".
func (v Change) Text() string {
	s := v.Verb + " " + v.Subject
	if v.Detail != "" {
		s += ": " + v.Detail
	}
	return s
}

// Data implements View.
func (v Change) Data() any { return v.Doc }

// Plain implements View.
func (v Change) Plain(w *Writer) { w.Line(v.Text()) }

// Tables implements View: the line as a table's title.
func (v Change) Tables() []Table { return []Table{{Title: v.Text()}} }

// Rich implements RichView: the line after ✔, or after = and muted when
// nothing changed. Removing is a change made as asked, so it is marked as
// a success like the others.
func (v Change) Rich(t *Theme) string {
	if v.Verb == Unchanged {
		return t.Para(2, t.Muted("= "+v.Verb)+" "+Escape(v.Subject)+t.Muted(detail(v.Detail)))
	}
	return t.Para(2, t.Good("✔ "+v.Verb)+" "+Escape(v.Subject)+t.Muted(detail(v.Detail)))
}

func detail(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

// PutChange tells what registering a document did: added, updated (it
// replaced), or unchanged (the stored noun is the same, so nothing was
// written). Its document is the stored one.
func PutChange(noun, name string, stored any, unchanged, replaced bool) Change {
	c := Change{Verb: "added", Subject: name, Doc: stored}
	switch {
	case unchanged:
		c.Verb, c.Detail = Unchanged, "the stored "+noun+" is the same, so nothing was written"
	case replaced:
		c.Verb = "updated"
	}
	return c
}
