package safetypack

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/jsonread"
	"github.com/agentsctl/agents/internal/suggest"
)

// member is one key of a JSON object with its raw value and where it was.
type member struct {
	key   string
	line  int
	value json.RawMessage
	start int64 // offset of the value in the whole document
}

// doc is a JSON document being read strictly: every problem is collected
// with the file, the field path and the line.
type doc struct {
	data     []byte
	file     string
	newlines []int
	problems []errs.Problem
	// blankIDs are the blank strings boundary_ids lists: each is a problem
	// there already, so the keys that name one are not problems again.
	blankIDs map[string]bool
}

// utf8BOM is the byte order mark some editors put at the start of a UTF-8
// file.
var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// newDoc starts reading data. A leading UTF-8 byte order mark is dropped:
// editors write one, it carries nothing, and the seals cover the parsed
// content, never the bytes.
func newDoc(data []byte, file string) *doc {
	data = bytes.TrimPrefix(data, utf8BOM)
	d := &doc{data: data, file: file}
	for i, c := range data {
		if c == '\n' {
			d.newlines = append(d.newlines, i)
		}
	}
	return d
}

// lineAt returns the 1-based line of a byte offset.
func (d *doc) lineAt(off int64) int {
	return sort.SearchInts(d.newlines, int(off)) + 1
}

// sorted returns the problems in line order; problems without a line (a
// missing key) come last, each group in the order found.
func (d *doc) sorted() []errs.Problem {
	sort.SliceStable(d.problems, func(i, j int) bool {
		li, lj := d.problems[i].Line, d.problems[j].Line
		if li == 0 || lj == 0 {
			return li != 0 && lj == 0
		}
		return li < lj
	})
	return d.problems
}

func (d *doc) problem(path string, line int, format string, a ...any) {
	d.problems = append(d.problems, errs.Problem{File: d.file, Path: path, Line: line, Message: fmt.Sprintf(format, a...)})
}

// listString reads an item of a list, at path on the list's line, as a
// string that is not blank, reporting what else it is.
func (d *doc) listString(path string, line int, raw json.RawMessage) (string, bool) {
	var s string
	if !isJSONString(raw) || json.Unmarshal(raw, &s) != nil {
		d.problem(path, line, "must be a string, got %s", jsonread.KindOfRaw(raw))
		return "", false
	}
	if strings.TrimSpace(s) == "" {
		d.problem(path, line, "must not be blank")
		return "", false
	}
	return s, true
}

// top reads the document's top object and returns its members in order,
// first reporting what makes the bytes unreadable as a document at all. It
// returns false when reading further makes no sense.
func (d *doc) top() ([]member, bool) {
	switch {
	case len(d.data) > MaxFileSize:
		d.problem("", 0, "file is %d bytes; at most %d are read", len(d.data), MaxFileSize)
		return nil, false
	case len(bytes.TrimSpace(d.data)) == 0:
		d.problem("", 0, "file is empty")
		return nil, false
	case !utf8.Valid(d.data):
		d.problem("", 0, "file is not valid UTF-8")
		return nil, false
	}
	return d.object(nil, 0, "")
}

// members hands each member of the document's top object whose key is
// among known to each, in file order, and reports every other key as
// unknown where it stands. It returns false when the document cannot be
// read as an object at all (see top).
func (d *doc) members(known []string, each func(m member)) bool {
	members, ok := d.top()
	if !ok {
		return false
	}
	for _, m := range members {
		if !slices.Contains(known, m.key) {
			d.unknownKey(m.key, m.line, m.key, known)
			continue
		}
		each(m)
	}
	return true
}

// object reads the JSON object starting at offset base of the document (the
// whole document when raw is nil) and returns its members in order. A
// duplicate key is a problem; the first occurrence is kept. Syntax errors
// end the reading with one problem.
func (d *doc) object(raw []byte, base int64, path string) ([]member, bool) {
	if raw == nil {
		raw = d.data
	}
	r := jsonread.New(bytes.NewReader(raw), jsonread.Options{Mode: jsonread.Strict, Base: base})
	if err := r.Open(); err != nil {
		e := jsonread.ErrorOf(err)
		if e.Failure == jsonread.NotObject {
			d.problem(path, d.lineAt(base), "must be a JSON object, got %s", jsonread.Kind(e.Token))
		} else {
			d.syntax(e.Err, base, r, len(raw), path)
		}
		return nil, false
	}
	var members []member
	for {
		m, more, err := r.Next()
		if err != nil {
			d.syntax(jsonread.ErrorOf(err).Err, base, r, len(raw), path)
			return nil, false
		}
		if !more {
			break
		}
		line := d.lineAt(m.Offset)
		v, err := r.Raw()
		if err != nil {
			d.syntax(jsonread.ErrorOf(err).Err, base, r, len(raw), joinPath(path, m.Key))
			return nil, false
		}
		if m.Repeat {
			d.problem(joinPath(path, m.Key), line, "duplicate key (first on line %d)", d.lineAt(m.First))
			continue
		}
		members = append(members, member{key: m.Key, line: line, value: v, start: r.Offset() - int64(len(v))})
	}
	if err := r.Close(); err != nil {
		switch e := jsonread.ErrorOf(err); {
		case e.Failure == jsonread.Trailing && e.Err == nil:
			d.problem("", d.lineAt(r.Offset()), "more data after the document (%s)", jsonread.Kind(e.Token))
		case e.Failure == jsonread.Trailing:
			d.syntax(e.Err, base, r, len(raw), "")
		default:
			d.syntax(e.Err, base, r, len(raw), path)
		}
		return nil, false
	}
	return members, true
}

func (d *doc) syntax(err error, base int64, r *jsonread.Reader, size int, path string) {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		d.problem(path, d.lineAt(base+se.Offset), "invalid JSON: %s", se.Error())
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		d.problem(path, d.lineAt(base+int64(size)), "invalid JSON: unexpected end of file")
	default:
		d.problem(path, d.lineAt(r.Offset()), "invalid JSON: %s", err.Error())
	}
}

// str decodes a raw value that must be a JSON string.
func (d *doc) str(m member, path string) (string, bool) {
	var s string
	if err := json.Unmarshal(m.value, &s); err != nil || !isJSONString(m.value) {
		d.problem(path, m.line, "must be a string, got %s", jsonread.KindOfRaw(m.value))
		return "", false
	}
	return s, true
}

func isJSONString(raw []byte) bool { return len(raw) > 0 && raw[0] == '"' }

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// unknownKey reports a key that the format does not define, suggesting the
// nearest known key when one is close.
func (d *doc) unknownKey(path string, line int, key string, known []string) {
	if s := suggest.Key(key, known); s != "" {
		d.problem(path, line, "unknown key %q (did you mean %q?)", key, s)
		return
	}
	d.problem(path, line, "unknown key %q (known keys: %s)", key, strings.Join(known, ", "))
}

// hasProblemAt reports whether a problem was already found at path.
func (d *doc) hasProblemAt(path string) bool {
	for _, p := range d.problems {
		if p.Path == path {
			return true
		}
	}
	return false
}
