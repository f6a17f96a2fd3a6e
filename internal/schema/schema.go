// Package schema serves the JSON Schemas (draft 2020-12) of agents' documents
// (automation profile, safety profile, action, safety pack). The schemas are
// written once, as YAML, in docs/schema/; this package embeds them, converts
// them to JSON for editors, and bundles a schema with the ones it refers to.
// Its subpackage schemacheck validates documents against them.
//
// The schemas are a second, independent statement of the document formats:
// editors use them, and tests check that they agree with the Go decoders in
// internal/profile wherever a schema can judge. What a schema cannot judge is
// listed in each schema's description; the Go decoders remain the authority.
//
// Validation lives in the subpackage schemacheck, which the agents binary
// does not link: see its documentation. It uses
// passes the official JSON-Schema-Test-Suite for 2020-12, compiles a schema
// once into a reusable value, reports each failure with its instance
// unless given a loader. The alternatives weighed: xeipuuv/gojsonschema stops
// at draft-07 and no longer changes; qri-io/jsonschema has been quiet for
// years and covers 2019-09 and later only in part; kaptinlin/jsonschema and
// google/jsonschema-go target 2020-12 too but are young, with a shorter
// record against the test suite.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"path"
	"strings"
	"unicode"
	"unicode/utf16"

	"go.yaml.in/yaml/v3"

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
	_, root, err := load(name)
	if err != nil {
		return nil, err
	}
	return nodeJSON(root)
}

// load returns the file of the named schema and its parsed YAML.
func load(name string) (string, *yaml.Node, error) {
	file, err := File(name)
	if err != nil {
		return "", nil, err
	}
	root, err := parseFile(file)
	return file, root, err
}

// Bundle returns the named schema as indented JSON that stands alone: every
// schema it refers to, directly or not, is embedded under $defs with its
// own $id, as draft 2020-12 describes for bundling, so its references
// resolve without fetching anything. This is the form to hand to an editor.
func Bundle(name string) ([]byte, error) {
	file, root, err := load(name)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{file: true}
	queue := refFiles(root)
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
		v, err := Scalar(n)
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

// Scalar returns the JSON value of a YAML scalar, by its resolved tag.
// Values JSON has no form for are errors.
func Scalar(n *yaml.Node) (any, error) {
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
