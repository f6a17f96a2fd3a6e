// Package canon produces the canonical JSON and YAML encodings of agents'
// documents. JSON comes from encoding/json with struct field order; YAML is
// derived from that JSON, key order kept, so the two formats can never
// disagree about a field.
package canon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// JSON returns the canonical, indented JSON encoding of v with a trailing
// newline. HTML characters are not escaped.
func JSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// CompactJSON returns the canonical JSON encoding of v on one line, without a
// trailing newline.
func CompactJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// YAML returns the canonical YAML encoding of v: the same document as JSON,
// in the same key order, indented by two spaces.
func YAML(v any) ([]byte, error) {
	js, err := CompactJSON(v)
	if err != nil {
		return nil, err
	}
	node, err := JSONToNode(js)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(node); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// JSONToNode converts a JSON document into a YAML node tree, keeping the
// order of object keys.
func JSONToNode(js []byte) (*yaml.Node, error) {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	n, err := nodeFrom(dec)
	if err != nil {
		return nil, fmt.Errorf("canonical yaml: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("canonical yaml: trailing data after document")
	}
	return n, nil
}

func nodeFrom(dec *json.Decoder) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is not a string")
				}
				val, err := nodeFrom(dec)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, strNode(key), val)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return n, nil
		case '[':
			n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			for dec.More() {
				val, err := nodeFrom(dec)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, val)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			if len(n.Content) == 0 {
				n.Style = yaml.FlowStyle
			}
			return n, nil
		}
		return nil, fmt.Errorf("unexpected delimiter %q", t)
	case string:
		return strNode(t), nil
	case json.Number:
		s := t.String()
		tag := "!!int"
		if strings.ContainsAny(s, ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s}, nil
	case bool:
		v := "false"
		if t {
			v = "true"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: v}, nil
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	switch {
	case strings.Contains(s, "\n"):
		n.Style = yaml.LiteralStyle
	case yaml11Special[strings.ToLower(s)]:
		// YAML 1.2 reads these as strings, but YAML 1.1 parsers (and
		// people) read them as booleans: quote them.
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

var yaml11Special = map[string]bool{
	"y": true, "n": true, "yes": true, "no": true, "on": true, "off": true,
}
