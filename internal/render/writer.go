package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Writer writes human-format text, escaping control characters in every
// value so that a profile's text cannot drive the terminal. The first write
// error sticks and is returned by Err.
type Writer struct {
	w   io.Writer
	err error
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Line writes the parts, escaped and separated by nothing, then a newline.
func (w *Writer) Line(parts ...string) {
	for _, p := range parts {
		w.raw(Escape(p))
	}
	w.raw("\n")
}

// Field writes "key: value" with the value escaped.
func (w *Writer) Field(key, value string) { w.Line(key, ": ", value) }

// Linef formats, escapes and writes one line.
func (w *Writer) Linef(format string, a ...any) { w.Line(fmt.Sprintf(format, a...)) }

// Raw writes s as it is. Only for text the program itself made.
func (w *Writer) Raw(s string) { w.raw(s) }

func (w *Writer) raw(s string) {
	if w.err != nil {
		return
	}
	_, w.err = io.WriteString(w.w, s)
}

// Err returns the first write error.
func (w *Writer) Err() error { return w.err }

// Escape replaces control characters (C0, DEL, C1, and Unicode format
// characters such as bidirectional overrides), line and paragraph
// separators, and invalid UTF-8 with Go escape sequences, so the text is
// inert on a terminal.
func Escape(s string) string {
	clean := true
	for i, r := range s {
		if r == utf8.RuneError || isUnsafe(r) {
			if r == utf8.RuneError {
				if _, size := utf8.DecodeRuneInString(s[i:]); size != 1 {
					continue
				}
			}
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case isUnsafe(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isUnsafe reports a character that is not text a terminal shows as it
// is: a control or format character, or a line or paragraph separator
// (U+2028, U+2029), which many terminals and viewers take for a line
// break.
func isUnsafe(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}
