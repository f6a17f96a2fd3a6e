// Package schemacheck validates documents against agents' JSON Schemas
// (package schema) with github.com/santhosh-tekuri/jsonschema/v6.
//
// It is a package of its own so that the agents binary does not link it:
// the validator compiles the meta-schemas of every JSON Schema draft in its
// package init, which costs each process several milliseconds and about
// 20,000 allocations before main runs, whatever the command. No command
// validates against a schema (the Go decoders in internal/profile are the
// authority); tests do, to keep the schemas and the decoders in agreement.
package schemacheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/schema"
)

// compiled holds every schema compiled once, keyed by name.
var compiled = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	ids := map[string]string{}
	for _, name := range schema.Names() {
		file, _ := schema.File(name)
		js, err := schema.JSON(name)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", file, err)
		}
		m, _ := doc.(map[string]any)
		id, _ := m["$id"].(string)
		if id == "" {
			return nil, fmt.Errorf("schema %s has no $id", file)
		}
		if err := c.AddResource(id, doc); err != nil {
			return nil, fmt.Errorf("schema %s: %w", file, err)
		}
		ids[name] = id
	}
	out := map[string]*jsonschema.Schema{}
	for _, name := range schema.Names() {
		s, err := c.Compile(ids[name])
		if err != nil {
			file, _ := schema.File(name)
			return nil, fmt.Errorf("schema %s: %w", file, err)
		}
		out[name] = s
	}
	return out, nil
})

func compiledSchema(name string) (*jsonschema.Schema, error) {
	if _, err := schema.File(name); err != nil {
		return nil, err
	}
	all, err := compiled()
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "compile schemas")
	}
	return all[name], nil
}

// Validate checks doc against the named schema. doc is any value that
// encodes to JSON: a decoded JSON or YAML document, or one of agents' own
// types (a profile validates in its canonical form). A document that fails
// is an *errs.Error of KindInvalid with one problem per failed check, each
// located by its field path.
func Validate(name string, doc any) error {
	sch, err := compiledSchema(name)
	if err != nil {
		return err
	}
	js, err := json.Marshal(doc)
	if err != nil {
		return errs.Wrap(errs.KindInvalid, err, "document has no JSON form")
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "read back document")
	}
	return check(sch, inst, "document", nil)
}

// ValidateYAML checks one YAML (or JSON) document against the named schema.
// file names the source in problems, which carry line numbers. Besides the
// schema's checks, it refuses what the document cannot be judged without:
// unparsable YAML, several documents, duplicate keys, and values JSON has no
// form for (.nan, .inf, timestamps, other tags).
func ValidateYAML(name string, data []byte, file string) error {
	sch, err := compiledSchema(name)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		msg := err.Error()
		if errors.Is(err, io.EOF) {
			msg = "the file holds no YAML document"
		}
		return errs.InvalidProblems(file, []errs.Problem{{File: file, Message: msg}})
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return errs.InvalidProblems(file, []errs.Problem{{File: file, Line: extra.Line,
			Message: "the file holds more than one YAML document"}})
	}
	conv := converter{file: file, budget: maxNodes}
	inst := conv.value(&doc, nil, 0)
	if len(conv.problems) > 0 {
		return errs.InvalidProblems(file, conv.problems)
	}
	return check(sch, inst, file, &doc)
}

// maxNodes bounds how many nodes a document may expand to through aliases,
// so a small file cannot make validation do unbounded work.
const maxNodes = 100_000

// maxDepth bounds the nesting of a document.
const maxDepth = 200

// converter turns a parsed YAML document into the JSON value a schema
// validates, collecting what has no JSON form.
type converter struct {
	file     string
	budget   int
	problems []errs.Problem
}

func (c *converter) fail(n *yaml.Node, p []string, format string, a ...any) {
	c.problems = append(c.problems, errs.Problem{File: c.file, Path: fieldPath(p), Line: n.Line, Message: fmt.Sprintf(format, a...)})
}

func (c *converter) value(n *yaml.Node, p []string, depth int) any {
	c.budget--
	if c.budget < 0 {
		if c.budget == -1 {
			c.fail(n, p, "the document expands to more than %d values", maxNodes)
		}
		return nil
	}
	if depth > maxDepth {
		c.fail(n, p, "the document nests deeper than %d levels", maxDepth)
		return nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return c.value(n.Content[0], p, depth+1)
	case yaml.AliasNode:
		return c.value(n.Alias, p, depth+1)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		lines := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
				c.fail(k, p, "key %q is not a string", k.Value)
				continue
			}
			kp := append(append([]string(nil), p...), k.Value)
			if first, dup := lines[k.Value]; dup {
				c.fail(k, kp, "key given twice (first on line %d)", first)
				continue
			}
			lines[k.Value] = k.Line
			m[k.Value] = c.value(v, kp, depth+1)
		}
		return m
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, e := range n.Content {
			s[i] = c.value(e, append(append([]string(nil), p...), "["+strconv.Itoa(i)+"]"), depth+1)
		}
		return s
	case yaml.ScalarNode:
		v, err := schema.Scalar(n)
		if err != nil {
			c.fail(n, p, "%s", err)
			return nil
		}
		return v
	}
	c.fail(n, p, "unsupported YAML node")
	return nil
}

// fieldPath joins path segments as safety.allowed_skill_categories[1].
func fieldPath(p []string) string {
	var b strings.Builder
	for _, s := range p {
		if b.Len() > 0 && !strings.HasPrefix(s, "[") {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

var printer = message.NewPrinter(language.English)

// check validates inst and turns a failure into problems. doc, when not nil,
// is the parsed YAML the instance came from, for line numbers.
func check(sch *jsonschema.Schema, inst any, subject string, doc *yaml.Node) error {
	err := sch.Validate(inst)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return errs.Wrap(errs.KindInternal, err, "validate %s", subject)
	}
	var problems []errs.Problem
	seen := map[string]bool{}
	var leaves func(*jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				leaves(c)
			}
			return
		}
		segs := segments(inst, e.InstanceLocation)
		pr := errs.Problem{Path: fieldPath(segs), Message: e.ErrorKind.LocalizedString(printer)}
		if doc != nil {
			pr.File = subject
			loc := e.InstanceLocation
			if ap, ok := e.ErrorKind.(*kind.AdditionalProperties); ok && len(ap.Properties) > 0 {
				// Point at the first unknown key, not at its mapping.
				loc = append(append([]string(nil), loc...), ap.Properties[0])
			}
			pr.Line = lineOf(doc, loc)
		}
		key := pr.Path + "\x00" + pr.Message
		if !seen[key] {
			seen[key] = true
			problems = append(problems, pr)
		}
	}
	leaves(ve)
	return errs.InvalidProblems(subject, problems)
}

// segments turns a JSON instance location into path segments, writing array
// indexes as [i].
func segments(inst any, loc []string) []string {
	out := make([]string, 0, len(loc))
	cur := inst
	for _, tok := range loc {
		switch v := cur.(type) {
		case []any:
			out = append(out, "["+tok+"]")
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(v) {
				cur = v[i]
			} else {
				cur = nil
			}
		case map[string]any:
			out = append(out, tok)
			cur = v[tok]
		default:
			out = append(out, tok)
			cur = nil
		}
	}
	return out
}

// lineOf returns the line of the YAML node at a JSON instance location, or
// 0 when it cannot be found.
func lineOf(doc *yaml.Node, loc []string) int {
	n := doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, tok := range loc {
		for n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		switch n.Kind {
		case yaml.MappingNode:
			v := mappingValue(n, tok)
			if v == nil {
				return n.Line
			}
			n = v
		case yaml.SequenceNode:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Content) {
				return n.Line
			}
			n = n.Content[i]
		default:
			return n.Line
		}
	}
	return n.Line
}

func mappingValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
