package render

import (
	"encoding/json"
	"path"
	"strconv"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
	"go.yaml.in/yaml/v3"
)

// schemaView renders a JSON Schema. A schema is a document, so every format
// but table prints the document itself; table lists the fields.
type schemaView struct {
	doc    json.RawMessage // indented JSON with a trailing newline
	fields [][]string      // field, type, required, description
}

// Data implements View.
func (v schemaView) Data() any { return v.doc }

// Plain implements View. The JSON is our own and escapes every
// invisible character, so it is written as it is.
func (v schemaView) Plain(w *Writer) { w.Raw(string(v.doc)) }

// Rich implements RichView: the JSON, unstyled, so that redirecting
// the default output gives a usable schema file.
func (v schemaView) Rich(*Theme) string { return string(v.doc) }

// Tables implements View.
func (v schemaView) Tables() []Table {
	return []Table{{
		Header: []string{"FIELD", "TYPE", "REQUIRED", "DESCRIPTION"},
		Rows:   v.fields,
		Fits:   []Fit{FitKeep, FitWrap, FitKeep, FitWrap},
	}}
}

// NewSchemaView renders the bundled JSON Schema doc (indented JSON with a
// trailing newline), its fields listed for the table format.
func NewSchemaView(doc []byte) (View, error) {
	fields, err := schemaFields(doc)
	if err != nil {
		return nil, err
	}
	return schemaView{doc: doc, fields: fields}, nil
}

// schemaFields lists the fields of a bundled schema, nested objects as
// dotted paths, in the schema's order.
func schemaFields(doc []byte) ([][]string, error) {
	var root yaml.Node // JSON is YAML, and a node keeps key order
	if err := yaml.Unmarshal(doc, &root); err != nil || len(root.Content) != 1 {
		return nil, errs.New(errs.KindInternal, "read bundled schema: %v", err)
	}
	r := &refResolver{resources: map[string]*yaml.Node{}}
	top := root.Content[0]
	r.index(top)
	var rows [][]string
	r.fields(top, top, "", &rows, 0)
	return rows, nil
}

// refResolver finds what a $ref points at inside a bundled schema: a
// resource (the root, or a schema embedded under $defs with its own $id),
// then a JSON pointer inside it.
type refResolver struct {
	resources map[string]*yaml.Node // by the file name ending the $id
}

func (r *refResolver) index(n *yaml.Node) {
	if id := get(n, "$id"); id != nil {
		r.resources[path.Base(id.Value)] = n
	}
	if defs := get(n, "$defs"); defs != nil {
		for i := 1; i < len(defs.Content); i += 2 {
			if get(defs.Content[i], "$id") != nil {
				r.index(defs.Content[i])
			}
		}
	}
}

// resolve returns the schema ref points at and the resource it lives in.
func (r *refResolver) resolve(ref string, res *yaml.Node) (*yaml.Node, *yaml.Node) {
	file, frag, _ := strings.Cut(ref, "#")
	if file != "" {
		res = r.resources[path.Base(file)]
		if res == nil {
			return nil, nil
		}
	}
	n := res
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if tok == "" {
			continue
		}
		if n = get(n, tok); n == nil {
			return nil, nil
		}
	}
	return n, res
}

// effective follows a schema's $ref chain and returns the target (for type
// and properties) and the resource that target lives in.
func (r *refResolver) effective(n, res *yaml.Node) (*yaml.Node, *yaml.Node) {
	for i := 0; i < 10; i++ {
		ref := get(n, "$ref")
		if ref == nil {
			break
		}
		t, tres := r.resolve(ref.Value, res)
		if t == nil {
			break
		}
		n, res = t, tres
	}
	return n, res
}

func (r *refResolver) fields(obj, res *yaml.Node, prefix string, rows *[][]string, depth int) {
	props := get(obj, "properties")
	if props == nil || depth > 5 {
		return
	}
	required := map[string]bool{}
	if req := get(obj, "required"); req != nil {
		for _, c := range req.Content {
			required[c.Value] = true
		}
	}
	for i := 0; i+1 < len(props.Content); i += 2 {
		name, prop := props.Content[i].Value, props.Content[i+1]
		target, tres := r.effective(prop, res)
		desc := get(prop, "description")
		if desc == nil {
			desc = get(target, "description")
		}
		req := ""
		if required[name] {
			req = "yes"
		}
		text := ""
		if desc != nil {
			text = strings.Join(strings.Fields(desc.Value), " ")
		}
		*rows = append(*rows, []string{prefix + name, r.typeOf(prop, res, 0), req, text})
		for _, alt := range append([]*yaml.Node{target}, alternatives(target)...) {
			at, ares := r.effective(alt, tres)
			if get(at, "properties") != nil {
				r.fields(at, ares, prefix+name+".", rows, depth+1)
				break
			}
		}
	}
}

func alternatives(n *yaml.Node) []*yaml.Node {
	if a := get(n, "anyOf"); a != nil {
		return a.Content
	}
	return nil
}

// typeOf describes a schema in a few words: its types with their range,
// "array of ...", a constant, or its alternatives.
func (r *refResolver) typeOf(n, res *yaml.Node, depth int) string {
	if depth > 5 {
		return "..."
	}
	n, res = r.effective(n, res)
	if c := get(n, "const"); c != nil {
		return strconv.Quote(c.Value)
	}
	if t := get(n, "title"); t != nil && get(n, "properties") == nil {
		return t.Value
	}
	if e := get(n, "enum"); e != nil {
		var vals []string
		for _, c := range e.Content {
			vals = append(vals, c.Value)
		}
		return "one of " + strings.Join(vals, ", ")
	}
	var types []string
	if t := get(n, "type"); t != nil {
		if t.Kind == yaml.SequenceNode {
			for _, c := range t.Content {
				types = append(types, c.Value)
			}
		} else {
			types = []string{t.Value}
		}
	}
	if alts := alternatives(n); len(alts) > 0 && (len(types) == 0 || len(types) == 1 && types[0] == "string") {
		var parts []string
		for _, a := range alts {
			parts = append(parts, r.typeOf(a, res, depth+1))
		}
		return strings.Join(parts, " or ")
	}
	for i, t := range types {
		switch t {
		case "number", "integer":
			types[i] = t + rangeOf(n)
		case "array":
			if items := get(n, "items"); items != nil {
				types[i] = "array of " + r.typeOf(items, res, depth+1)
			}
		}
	}
	return strings.Join(types, " or ")
}

func rangeOf(n *yaml.Node) string {
	lo, hi := get(n, "minimum"), get(n, "maximum")
	switch {
	case lo != nil && hi != nil:
		return " " + lo.Value + ".." + hi.Value
	case lo != nil:
		return " >= " + lo.Value
	case hi != nil:
		return " <= " + hi.Value
	}
	return ""
}

// get returns the value of key in mapping n, or nil.
func get(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
