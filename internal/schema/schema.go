// Package schema serves the JSON Schemas (draft 2020-12) of agents' documents
// (automation profile, safety profile, action, safety pack) and validates
// documents against them. The schemas are written once, as YAML, in
// docs/schema/; this package embeds them, converts them to JSON for editors,
// bundles a schema with the ones it refers to, and validates.
//
// The schemas are a second, independent statement of the document formats:
// editors use them, and tests check that they agree with the Go decoders in
// internal/profile wherever a schema can judge. What a schema cannot judge is
// listed in each schema's description; the Go decoders remain the authority.
//
// Validation uses github.com/santhosh-tekuri/jsonschema/v6. It is maintained,
// passes the official JSON-Schema-Test-Suite for 2020-12, compiles a schema
// once into a reusable value, reports each failure with its instance
// location, links nothing beyond golang.org/x/text, and never fetches a $ref
// unless given a loader. The alternatives weighed: xeipuuv/gojsonschema stops
// at draft-07 and no longer changes; qri-io/jsonschema has been quiet for
// years and covers 2019-09 and later only in part; kaptinlin/jsonschema and
// google/jsonschema-go target 2020-12 too but are young, with a shorter
// record against the test suite.
package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	schemafiles "github.com/agentsctl/agents/docs/schema"
	"github.com/agentsctl/agents/internal/errs"
)

// The names of the schemas, as the --kind flag of
// 'agents automation-profile schema' spells them.
const (
	Profile       = "profile"
	SafetyProfile = "safety-profile"
	Action        = "action"
	SafetyPack    = "safety-pack"
)

type schemaKind struct {
	name string
	file string
}

// kinds lists the schemas in the order help text shows them.
var kinds = []schemaKind{
	{Profile, "automation_profile.schema.yaml"},
	{SafetyProfile, "safety_profile.schema.yaml"},
	{Action, "action.schema.yaml"},
	{SafetyPack, "safety_pack.schema.yaml"},
}

// Names returns the schema names, for help text and completion.
func Names() []string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.name
	}
	return names
}

// File returns the file name in docs/schema/ of the named schema.
func File(name string) (string, error) {
	for _, k := range kinds {
		if k.name == name {
			return k.file, nil
		}
	}
	return "", errs.Usage("unknown schema %q", name).
		WithHint("use one of: %s", strings.Join(Names(), ", "))
}

// Get returns the YAML source of the named schema.
func Get(name string) ([]byte, error) {
	file, err := File(name)
	if err != nil {
		return nil, err
	}
	return readFile(file)
}

func readFile(file string) ([]byte, error) {
	b, err := fs.ReadFile(schemafiles.FS, file)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "schema %s is not embedded", file)
	}
	return b, nil
}

// JSON returns the named schema as indented JSON, keys in the order of the
// YAML source.
func JSON(name string) ([]byte, error) {
	file, err := File(name)
	if err != nil {
		return nil, err
	}
	root, err := parseFile(file)
	if err != nil {
		return nil, err
	}
	return nodeJSON(root)
}

// Bundle returns the named schema as indented JSON that stands alone: every
// schema it refers to, directly or not, is embedded under $defs with its
// own $id, as draft 2020-12 describes for bundling, so its references
// resolve without fetching anything. This is the form to hand to an editor.
func Bundle(name string) ([]byte, error) {
	file, err := File(name)
	if err != nil {
		return nil, err
	}
	root, err := parseFile(file)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{file: true}
	queue := refFiles(root)
	var embedded []string
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if seen[f] {
			continue
		}
		seen[f] = true
		sub, err := parseFile(f)
		if err != nil {
			return nil, err
		}
		embedded = append(embedded, f)
		queue = append(queue, refFiles(sub)...)
		defs := mappingValue(root, "$defs")
		if defs == nil {
			defs = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			root.Content = append(root.Content,
				&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "$defs"}, defs)
		}
		key := strings.TrimSuffix(f, ".schema.yaml")
		if mappingValue(defs, key) != nil {
			return nil, errs.New(errs.KindInternal, "schema %s: $defs/%s already exists, cannot bundle %s", file, key, f)
		}
		defs.Content = append(defs.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, sub)
	}
	return nodeJSON(root)
}

// parseFile parses an embedded schema file and returns its root mapping.
func parseFile(file string) (*yaml.Node, error) {
	src, err := readFile(file)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "schema %s", file)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errs.New(errs.KindInternal, "schema %s: root is not a mapping", file)
	}
	return doc.Content[0], nil
}

// refFiles returns the schema files that n's $ref values name (the part
// before any '#'), in the order they appear.
func refFiles(n *yaml.Node) []string {
	var out []string
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Value == "$ref" && v.Kind == yaml.ScalarNode {
					if f, _, _ := strings.Cut(v.Value, "#"); f != "" {
						out = append(out, path.Base(f))
					}
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return out
}

func mappingValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// nodeJSON converts a schema's YAML node tree to indented JSON, keeping key
// order. Schemas are our own files, so anything unexpected is a bug.
func nodeJSON(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeJSON(&buf, n); err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "schema to JSON")
	}
	var out bytes.Buffer
	if err := json.Indent(&out, buf.Bytes(), "", "  "); err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "schema to JSON")
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

func writeJSON(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, n.Content[i].Value)
			buf.WriteByte(':')
			if err := writeJSON(buf, n.Content[i+1]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSON(buf, c); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		v, err := scalar(n)
		if err != nil {
			return err
		}
		if s, ok := v.(string); ok {
			writeString(buf, s)
			return nil
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		buf.Write(b)
	default:
		return fmt.Errorf("line %d: unsupported YAML node", n.Line)
	}
	return nil
}

// writeString writes s as a JSON string, escaping every character that is
// not visible (control characters, and spaces other than U+0020) as \uXXXX,
// so that a pattern listing whitespace stays readable.
func writeString(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			buf.WriteByte('\\')
			buf.WriteRune(r)
		case r == '\n':
			buf.WriteString(`\n`)
		case r == '\t':
			buf.WriteString(`\t`)
		case r == '\r':
			buf.WriteString(`\r`)
		case r == '\f':
			buf.WriteString(`\f`)
		case r == ' ' || (r > 0x20 && r < 0x7f) || (r >= 0x7f && unicode.IsPrint(r)):
			buf.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(buf, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(buf, `\u%04x`, r)
		}
	}
	buf.WriteByte('"')
}

// scalar returns the JSON value of a YAML scalar, by its resolved tag.
// Values JSON has no form for are errors.
func scalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!str":
		return n.Value, nil
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		err := n.Decode(&b)
		return b, err
	case "!!int":
		var i any
		if err := n.Decode(&i); err != nil {
			return nil, err
		}
		return i, nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, err
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s is not a finite number, which JSON cannot hold", n.Value)
		}
		return f, nil
	case "!!timestamp":
		return nil, fmt.Errorf("%s is a YAML timestamp, which JSON cannot hold; quote it to make it a string", n.Value)
	default:
		return nil, fmt.Errorf("the tag %s has no JSON form", n.Tag)
	}
}

// compiled holds every schema compiled once, keyed by name.
var compiled = sync.OnceValues(func() (map[string]*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	ids := map[string]string{}
	for _, k := range kinds {
		js, err := JSON(k.name)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", k.file, err)
		}
		m, _ := doc.(map[string]any)
		id, _ := m["$id"].(string)
		if id == "" {
			return nil, fmt.Errorf("schema %s has no $id", k.file)
		}
		if err := c.AddResource(id, doc); err != nil {
			return nil, fmt.Errorf("schema %s: %w", k.file, err)
		}
		ids[k.name] = id
	}
	out := map[string]*jsonschema.Schema{}
	for _, k := range kinds {
		s, err := c.Compile(ids[k.name])
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", k.file, err)
		}
		out[k.name] = s
	}
	return out, nil
})

func compiledSchema(name string) (*jsonschema.Schema, error) {
	if _, err := File(name); err != nil {
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
		v, err := scalar(n)
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
