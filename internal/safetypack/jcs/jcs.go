// Package jcs implements the JSON Canonicalization Scheme of RFC 8785: one
// byte sequence for every JSON value, so that a hash over it is stable no
// matter how the document was indented, how its keys were ordered, or how its
// strings and numbers were spelled.
//
// Object keys are sorted by their UTF-16 code units, numbers are written as
// ECMAScript's Number.prototype.toString writes them, and strings carry only
// the escapes JSON requires. Duplicate object keys are an error, because a
// canonical form of an ambiguous document would hide the ambiguity.
package jcs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Canonicalize parses one JSON document and returns its canonical encoding.
func Canonicalize(data []byte) ([]byte, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("jcs: input is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var buf bytes.Buffer
	if err := copyValue(&buf, dec); err != nil {
		return nil, fmt.Errorf("jcs: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("jcs: trailing data after the document")
	}
	return buf.Bytes(), nil
}

// Marshal encodes v with encoding/json and returns its canonical encoding.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("jcs: %w", err)
	}
	return Canonicalize(buf.Bytes())
}

type member struct {
	key   string
	units []uint16
	value []byte
}

// copyValue reads one value from dec and writes its canonical form to w.
func copyValue(w *bytes.Buffer, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			var members []member
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				key := kt.(string) // the decoder only yields string keys
				if seen[key] {
					return fmt.Errorf("duplicate object key %q", key)
				}
				seen[key] = true
				var vb bytes.Buffer
				if err := copyValue(&vb, dec); err != nil {
					return err
				}
				members = append(members, member{key: key, units: utf16.Encode([]rune(key)), value: vb.Bytes()})
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			sort.Slice(members, func(i, j int) bool { return lessUnits(members[i].units, members[j].units) })
			w.WriteByte('{')
			for i, m := range members {
				if i > 0 {
					w.WriteByte(',')
				}
				writeString(w, m.key)
				w.WriteByte(':')
				w.Write(m.value)
			}
			w.WriteByte('}')
			return nil
		case '[':
			w.WriteByte('[')
			for i := 0; dec.More(); i++ {
				if i > 0 {
					w.WriteByte(',')
				}
				if err := copyValue(w, dec); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			w.WriteByte(']')
			return nil
		}
		return fmt.Errorf("unexpected %q", t)
	case string:
		writeString(w, t)
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			return fmt.Errorf("number %s: %w", t, err)
		}
		s, err := FormatNumber(f)
		if err != nil {
			return err
		}
		w.WriteString(s)
	case bool:
		w.WriteString(strconv.FormatBool(t))
	case nil:
		w.WriteString("null")
	default:
		return fmt.Errorf("unexpected token %v", tok)
	}
	return nil
}

// lessUnits orders two keys by their UTF-16 code units, as RFC 8785 section
// 3.2.3 requires (this differs from code-point order above U+FFFF).
func lessUnits(a, b []uint16) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

// WriteString writes s as RFC 8785 writes a string, for an encoder that
// writes a canonical form directly rather than through Marshal.
func WriteString(w *bytes.Buffer, s string) { writeString(w, s) }

// SortKeys sorts object keys in the order RFC 8785 writes them: by their
// UTF-16 code units.
func SortKeys(keys []string) {
	sort.Slice(keys, func(i, j int) bool {
		return lessUnits(utf16.Encode([]rune(keys[i])), utf16.Encode([]rune(keys[j])))
	})
}

// writeString writes s as a JSON string with only the escapes RFC 8785
// allows: \" \\ \b \f \n \r \t, and \u00xx (lower-case hex) for the other
// control characters. Everything else is written as UTF-8.
func writeString(w *bytes.Buffer, s string) {
	w.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			w.WriteString(`\"`)
		case '\\':
			w.WriteString(`\\`)
		case '\b':
			w.WriteString(`\b`)
		case '\f':
			w.WriteString(`\f`)
		case '\n':
			w.WriteString(`\n`)
		case '\r':
			w.WriteString(`\r`)
		case '\t':
			w.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(w, `\u%04x`, r)
			} else {
				w.WriteRune(r)
			}
		}
	}
	w.WriteByte('"')
}

// FormatNumber writes f as ECMAScript's Number.prototype.toString does
// (RFC 8785 section 3.2.2.3): the shortest decimal that reads back as f, in
// fixed notation for magnitudes in [1e-6, 1e21) and in exponent notation
// otherwise. NaN and the infinities have no JSON form and are an error.
func FormatNumber(f float64) (string, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", fmt.Errorf("number %v has no JSON form", f)
	}
	if f == 0 {
		return "0", nil // also for -0
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	format := byte('e')
	if f >= 1e-6 && f < 1e21 {
		format = 'f'
	}
	s := strconv.FormatFloat(f, format, -1, 64)
	// Go writes a two-digit exponent at least (1e-07); ECMAScript does not.
	if i := strings.IndexByte(s, 'e'); i > 0 && s[i+2] == '0' {
		s = s[:i+2] + s[i+3:]
	}
	return sign + s, nil
}
