// Package canon produces the canonical JSON and YAML encodings of agents'
// documents. JSON comes from encoding/json with struct field order; YAML is
// derived from that JSON, key order kept, so the two formats can never
// disagree about a field.
package canon

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// JSON returns the canonical, indented JSON encoding of v with a trailing
// newline. HTML characters are not escaped. The output is what
// encoding/json's Encoder gives with SetIndent("", "  "); it is indented
// here, from the compact encoding, because the Encoder's own indentation
// costs several times the encoding itself (most of a long listing's time).
func JSON(v any) ([]byte, error) {
	b, err := encode(v)
	if err != nil {
		return nil, err
	}
	return indentJSON(make([]byte, 0, len(b)+len(b)/2), b, 0), nil
}

// Appender is a document that writes its own JSON: compact, exactly as
// encoding/json writes it with HTML characters left as they are (the
// document's tests hold it to that). encode uses it in place of
// encoding/json, which would reflect over the type and then check and
// compact what a MarshalJSON wrote, byte by byte.
type Appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// encode returns the compact JSON encoding of v, HTML characters not
// escaped, with the Encoder's trailing newline.
func encode(v any) ([]byte, error) {
	if a, ok := v.(Appender); ok {
		b, err := a.AppendJSON(make([]byte, 0, 1024))
		if err != nil {
			return nil, err
		}
		return append(b, '\n'), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteJSON writes JSON(v) to w, the characters a YAML reader refuses or
// takes for a line break escaped (see Escaped), so that what it writes
// is also accepted by the YAML reader of add --config, as the same
// document. A slice is written one element at a time, so a long list never
// has to be held in memory twice over.
func WriteJSON(w io.Writer, v any) error {
	rv := reflect.ValueOf(v)
	if !streamable(rv) {
		b, err := JSON(v)
		if err != nil {
			return err
		}
		_, err = w.Write(Escaped(b))
		return err
	}
	if rv.Len() == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	var elem bytes.Buffer
	enc := json.NewEncoder(&elem)
	enc.SetEscapeHTML(false)
	out := append(make([]byte, 0, 64<<10), '[')
	var scratch []byte
	for i := range rv.Len() {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, "\n  "...)
		if a, ok := rv.Index(i).Interface().(Appender); ok {
			b, err := a.AppendJSON(scratch[:0])
			if err != nil {
				return err
			}
			scratch = b
			out = indentJSON(out, b, 1)
		} else {
			elem.Reset()
			if err := enc.Encode(rv.Index(i).Interface()); err != nil {
				return err
			}
			out = indentJSON(out, bytes.TrimSuffix(elem.Bytes(), []byte("\n")), 1)
		}
		if len(out) >= 32<<10 {
			if _, err := w.Write(Escaped(out)); err != nil {
				return err
			}
			out = out[:0]
		}
	}
	out = append(out, "\n]\n"...)
	_, err := w.Write(Escaped(out))
	return err
}

// Escaped returns b, JSON made of whole values, with DEL, the C1
// controls (U+0080 to U+009F), the noncharacters U+FFFE and U+FFFF and
// the bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E,
// U+2066 to U+2069) written as \u escapes, the same characters to a JSON
// reader. JSON may carry them raw, but YAML, which reads JSON files, may
// not carry the first three (it refuses them, and takes a raw U+0085 for a
// line break and folds it into a space); and a terminal would act on a C1
// control or reorder a line at a bidirectional one. They can only stand
// inside strings, where the escape is the same character.
func Escaped(b []byte) []byte {
	const hex = "0123456789abcdef"
	var out []byte
	start := 0
	for i := 0; i < len(b); i++ {
		var r int
		switch {
		case b[i] == 0x7f:
			r = 0x7f
		case b[i] == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f:
			r = int(b[i+1])
		case b[i] == 0xef && i+2 < len(b) && b[i+1] == 0xbf && (b[i+2] == 0xbe || b[i+2] == 0xbf):
			r = 0xffc0 | int(b[i+2]&0x3f)
		case b[i] == 0xd8 && i+1 < len(b) && b[i+1] == 0x9c:
			r = 0x061c
		case b[i] == 0xe2 && i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0x8e || b[i+2] == 0x8f || b[i+2] >= 0xaa && b[i+2] <= 0xae):
			r = 0x2000 | int(b[i+2]&0x3f)
		case b[i] == 0xe2 && i+2 < len(b) && b[i+1] == 0x81 && b[i+2] >= 0xa6 && b[i+2] <= 0xa9:
			r = 0x2040 | int(b[i+2]&0x3f)
		default:
			continue
		}
		out = append(out, b[start:i]...)
		out = append(out, '\\', 'u', hex[r>>12], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		i += utf8.RuneLen(rune(r)) - 1
		start = i + 1
	}
	if out == nil {
		return b
	}
	return append(out, b[start:]...)
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// streamable reports whether encoding/json writes v as a JSON array of its
// elements, each encoded on its own: a non-nil slice that is not bytes and
// does not marshal itself.
func streamable(rv reflect.Value) bool {
	if rv.Kind() != reflect.Slice || rv.IsNil() || rv.Type().Elem().Kind() == reflect.Uint8 {
		return false
	}
	t := rv.Type()
	for _, m := range []reflect.Type{jsonMarshaler, textMarshaler} {
		if t.Implements(m) || reflect.PointerTo(t).Implements(m) {
			return false
		}
	}
	return true
}

// indentJSON appends src, compact JSON as encoding/json writes it, indented
// as json.Indent(dst, src, "", "  ") would, the value being depth levels
// deep already. Empty objects and arrays stay {} and [].
func indentJSON(dst, src []byte, depth int) []byte {
	inString, open := false, false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inString {
			dst = append(dst, c)
			switch c {
			case '\\':
				if i+1 < len(src) {
					i++
					dst = append(dst, src[i])
				}
			case '"':
				inString = false
			}
			continue
		}
		if open && c != '}' && c != ']' {
			// The first member of an object or array that is not empty.
			open = false
			depth++
			dst = newline(dst, depth)
		}
		switch c {
		case '"':
			inString = true
			dst = append(dst, c)
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = newline(append(dst, c), depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				dst = newline(dst, depth)
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func newline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, ' ', ' ')
	}
	return dst
}

// CompactJSON returns the canonical JSON encoding of v on one line, without a
// trailing newline.
func CompactJSON(v any) ([]byte, error) {
	b, err := encode(v)
	if err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b, []byte("\n")), nil
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
		if _, err := t.Int64(); err != nil || strings.ContainsAny(s, ".eE") {
			// A whole number past 64 bits (encoding/json writes 1e20 as
			// 100000000000000000000) reads as a float in YAML: tagged an
			// integer, it would be written with its tag.
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
