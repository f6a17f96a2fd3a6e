package strictyaml

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"
)

// ParseWritten returns the root of data when it is in the form agents
// writes (see fastParse), which needs no syntax checks; false means only
// that Parse must read it.
func ParseWritten(data []byte) (*yaml.Node, bool) { return fastParse(data) }

// fastParse builds, for the narrow form of YAML that agents itself writes
// (block mappings of lower-case keys, block sequences of scalars, plain
// scalars that are plainly strings, decimal numbers, true, false or null,
// double-quoted strings without escapes, and [] and {}), the very tree
// yaml.v3 builds, and reports false for anything else, which Parse then
// gives to yaml.v3. A stored profile, action or plan is read on every
// decision, and yaml.v3's parser, run for the first time in a process,
// costs a fifth of a millisecond; this reads the same file in a few
// microseconds. Whatever it cannot be sure of (a comment, a tab, a blank
// line, a non-ASCII byte, an escape, a word YAML might read as something
// other than a string) is left to yaml.v3: FuzzFastParse and
// TestFastParseAgrees hold the two to the same trees.
func fastParse(data []byte) (*yaml.Node, bool) {
	if len(data) == 0 || data[len(data)-1] != '\n' {
		return nil, false
	}
	p := fastParser{lines: bytes.Split(data[:len(data)-1], []byte{'\n'})}
	for _, l := range p.lines {
		if !plainLine(l) {
			return nil, false
		}
	}
	root, ok := p.mapping(0)
	if !ok || p.at != len(p.lines) {
		return nil, false
	}
	return root, true
}

// fastParser walks the lines of a document; at is the next line to read.
type fastParser struct {
	lines [][]byte
	at    int
}

// plainLine reports whether a line is empty, or printable ASCII with
// something after its indentation and no space at its end.
func plainLine(l []byte) bool {
	if len(l) == 0 {
		return true
	}
	if l[len(l)-1] == ' ' {
		return false
	}
	for _, c := range l {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return indent(l) < len(l)
}

func indent(l []byte) int {
	n := 0
	for n < len(l) && l[n] == ' ' {
		n++
	}
	return n
}

// item reports whether a line, past its indentation, starts a sequence
// entry.
func item(l []byte, ind int) bool {
	return len(l) > ind+1 && l[ind] == '-' && l[ind+1] == ' '
}

// skipBlank steps over empty lines, which mean nothing between block
// entries.
func (p *fastParser) skipBlank() {
	for p.at < len(p.lines) && len(p.lines[p.at]) == 0 {
		p.at++
	}
}

// mapping reads a block mapping whose keys are indented as the line at
// p.at is.
func (p *fastParser) mapping(ind int) (*yaml.Node, bool) {
	p.skipBlank()
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: tagMap, Line: p.at + 1, Column: ind + 1}
	for p.skipBlank(); p.at < len(p.lines); p.skipBlank() {
		l := p.lines[p.at]
		switch in := indent(l); {
		case in < ind:
			return n, len(n.Content) > 0
		case in > ind || item(l, ind):
			return nil, false
		}
		colon := bytes.IndexByte(l, ':')
		if colon < 0 || !fastKey(l[ind:colon]) {
			return nil, false
		}
		line := p.at + 1
		key := &yaml.Node{Kind: yaml.ScalarNode, Tag: tagStr, Value: string(l[ind:colon]), Line: line, Column: ind + 1}
		rest := l[colon+1:]
		p.at++
		var value *yaml.Node
		switch {
		case len(rest) > 1 && rest[0] == ' ' && rest[1] != ' ':
			var ok bool
			if value, ok = fastScalar(string(rest[1:]), line, colon+3); !ok {
				return nil, false
			}
		case len(rest) == 0 && p.skipBlankAhead():
			// A block below the key: a sequence at the key's indentation
			// or deeper, or a mapping deeper.
			next := p.lines[p.at]
			in := indent(next)
			var ok bool
			switch {
			case in >= ind && item(next, in):
				value, ok = p.sequence(in)
			case in > ind:
				value, ok = p.mapping(in)
			}
			if !ok {
				return nil, false
			}
		default:
			return nil, false
		}
		n.Content = append(n.Content, key, value)
	}
	return n, len(n.Content) > 0
}

// skipBlankAhead steps over empty lines and reports whether a line
// follows them.
func (p *fastParser) skipBlankAhead() bool {
	p.skipBlank()
	return p.at < len(p.lines)
}

// sequence reads a block sequence of scalars whose entries are indented as
// the line at p.at is.
func (p *fastParser) sequence(ind int) (*yaml.Node, bool) {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: tagSeq, Line: p.at + 1, Column: ind + 1}
	for p.skipBlank(); p.at < len(p.lines); p.skipBlank() {
		l := p.lines[p.at]
		in := indent(l)
		if in < ind || (in == ind && !item(l, ind)) {
			break
		}
		if in > ind || l[ind+2] == ' ' {
			return nil, false
		}
		v, ok := fastScalar(string(l[ind+2:]), p.at+1, ind+3)
		if !ok || v.Kind != yaml.ScalarNode {
			return nil, false
		}
		n.Content = append(n.Content, v)
		p.at++
	}
	return n, true
}

// fastKey reports whether k is a key this parser reads: a lower-case
// word of letters, digits and underscores.
func fastKey(k []byte) bool {
	if len(k) == 0 || !(k[0] >= 'a' && k[0] <= 'z' || k[0] == '_') {
		return false
	}
	for _, c := range k {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// fastScalar returns the node of a value written on its key's or its
// entry's line, at the given line and column.
func fastScalar(v string, line, col int) (*yaml.Node, bool) {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: v, Line: line, Column: col}
	switch {
	case v == "[]":
		return &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Tag: tagSeq, Line: line, Column: col}, true
	case v == "{}":
		return &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Tag: tagMap, Line: line, Column: col}, true
	case v[0] == '"':
		inner := v[1:]
		if len(inner) == 0 || inner[len(inner)-1] != '"' {
			return nil, false
		}
		inner = inner[:len(inner)-1]
		if strings.ContainsAny(inner, `"\`) {
			return nil, false
		}
		n.Tag, n.Style, n.Value = tagStr, yaml.DoubleQuotedStyle, inner
	case v == "null":
		n.Tag = tagNull
	case v == "true" || v == "false":
		n.Tag = tagBool
	case decimal(v, false):
		n.Tag = tagInt
	case decimal(v, true):
		n.Tag = tagFloat
	case plainWords(v):
		n.Tag = tagStr
	default:
		return nil, false
	}
	return n, true
}

// decimal reports whether s is an optional minus, then 0 or a digit 1-9
// and at most 17 more digits, then (only when fraction is set) a point and
// one or more digits.
func decimal(s string, fraction bool) bool {
	s = strings.TrimPrefix(s, "-")
	whole, frac, dot := strings.Cut(s, ".")
	if dot != fraction || len(whole) == 0 || len(whole) > 18 || (len(whole) > 1 && whole[0] == '0') {
		return false
	}
	if dot && (len(frac) == 0 || len(frac) > 18) {
		return false
	}
	for _, part := range []string{whole, frac} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return false
			}
		}
	}
	return true
}

// plainWords reports whether s is a plain scalar every YAML reader takes
// for a string: it starts with a letter, holds only letters, digits,
// single spaces and _ - / . , ( ) ;, and is no word that YAML 1.1 or 1.2
// gives another meaning (yes, no, on, off, y, n, true, false, null, in any
// case).
func plainWords(s string) bool {
	if !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == ' ':
			if s[i-1] == ' ' {
				return false
			}
		case strings.IndexByte("_-/.,();", c) >= 0:
		default:
			return false
		}
	}
	for _, w := range []string{"yes", "no", "on", "off", "y", "n", "true", "false", "null"} {
		if strings.EqualFold(s, w) {
			return false
		}
	}
	return true
}
