// Package jsonread reads one JSON object, member by member, for every
// JSON input agents takes: a tool call on stdin (--stdin-json), an agent's
// hook input, a safety pack, its mastery report and a check context. It
// streams from any reader, in bounded memory and nesting depth when asked,
// and tells its caller what it found (a key, a repeated key, a key it was
// not told of, a value of some kind, broken JSON, data after the object)
// for the caller to word in its own terms.
//
// Two modes: Strict hands every member to the caller, a key it was not
// told of marked as such (an invalid key, for a document agents defines);
// Lenient skips the members of keys it was not told of, unread, whatever
// they hold (input whose producer adds fields over time).
package jsonread

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
)

// Mode says what a reader does with a member whose key it was not told of.
type Mode int

const (
	// Strict returns every member; one whose key is not among Known is
	// marked unknown, for the caller to refuse.
	Strict Mode = iota
	// Lenient skips every member whose key is not among Known.
	Lenient
)

// Options configure a reader.
type Options struct {
	Mode Mode
	// Known are the keys of the object; nil knows every key.
	Known []string
	// MaxBytes, when positive, bounds what is read: past it, reading
	// fails and TooLarge reports it.
	MaxBytes int64
	// MaxDepth, when positive, bounds how deep a skipped value may nest.
	MaxDepth int
	// Base is the offset of the first byte read in a larger document,
	// added to every offset reported.
	Base int64
}

// Member is one key of the object, as Next read it.
type Member struct {
	Key string
	// Offset is where the key ends in the document.
	Offset int64
	// Known is false for a key Options.Known does not hold (Strict).
	Known bool
	// Repeat is set on a key seen before in the object; First is where
	// that first one ended.
	Repeat bool
	First  int64
}

// Failure says why the object could not be read.
type Failure int

// The failures.
const (
	// Empty: nothing but white space was given.
	Empty Failure = iota + 1
	// NotJSON: the input does not begin as JSON.
	NotJSON
	// NotObject: the input is JSON, but not an object (Token says what).
	NotObject
	// Broken: the JSON breaks off or goes wrong inside the object.
	Broken
	// TooDeep: a value nests deeper than MaxDepth.
	TooDeep
	// Trailing: more follows the object (Token says what, when it is
	// JSON).
	Trailing
)

// Error is a failure to read the object.
type Error struct {
	Failure Failure
	// Token is the token of a NotObject or Trailing failure.
	Token json.Token
	// Offset is where the failure was found.
	Offset int64
	// Err is the decoder's error, for Broken, NotJSON and a Trailing
	// failure that is not JSON.
	Err error
	// Key, when not "", is the key of the member Lenient was skipping.
	Key string
}

// ErrorOf is err as the reader's Error: an error the reader did not make
// is a Broken failure.
func ErrorOf(err error) *Error {
	var e *Error
	if !errors.As(err, &e) {
		return &Error{Failure: Broken, Err: err}
	}
	return e
}

// Error says what failed, in the words of a hook input or a --stdin-json
// call; callers word their own messages from Failure.
func (e *Error) Error() string {
	switch e.Failure {
	case Empty:
		return "nothing was given; expected one JSON object"
	case NotObject:
		return "expected one JSON object, got " + Kind(e.Token)
	case TooDeep:
		return e.Err.Error()
	case Trailing:
		return "more than one JSON value; expected exactly one object"
	}
	return ErrText(e.Err)
}

// Unwrap returns the decoder's error.
func (e *Error) Unwrap() error { return e.Err }

// Reader reads one JSON object.
type Reader struct {
	dec  *json.Decoder
	cr   countingReader
	opts Options
	// seen holds the offset of each key read (in Lenient mode, each Known
	// key): the first few in few, without allocating, the rest in more.
	few  [8]seenKey
	nfew int
	more map[string]int64
}

type seenKey struct {
	key string
	at  int64
}

// first returns the offset of key's first member, if there was one.
func (r *Reader) first(key string) (int64, bool) {
	for _, s := range r.few[:r.nfew] {
		if s.key == key {
			return s.at, true
		}
	}
	at, ok := r.more[key]
	return at, ok
}

// saw records key's first member at offset at.
func (r *Reader) saw(key string, at int64) {
	if r.nfew < len(r.few) {
		r.few[r.nfew] = seenKey{key, at}
		r.nfew++
		return
	}
	if r.more == nil {
		r.more = map[string]int64{}
	}
	r.more[key] = at
}

// New returns a reader of the object r holds. Numbers are read as
// json.Number, so no figure is rounded on the way.
func New(r io.Reader, opts Options) *Reader {
	jr := &Reader{cr: countingReader{r: r}, opts: opts}
	if opts.MaxBytes > 0 {
		jr.cr.r = io.LimitReader(r, opts.MaxBytes+1)
	}
	jr.dec = json.NewDecoder(&jr.cr)
	jr.dec.UseNumber()
	return jr
}

// Seen reports whether the object had a member key, before the current
// one or as it (in Lenient mode, only the Known keys count).
func (r *Reader) Seen(key string) bool {
	_, ok := r.first(key)
	return ok
}

// Offset is where the reader is in the document.
func (r *Reader) Offset() int64 { return r.opts.Base + r.dec.InputOffset() }

// TooLarge reports whether the input ran past Options.MaxBytes.
func (r *Reader) TooLarge() bool { return r.opts.MaxBytes > 0 && r.cr.n > r.opts.MaxBytes }

func (r *Reader) fail(f Failure, err error) *Error {
	return &Error{Failure: f, Offset: r.Offset(), Err: err}
}

// Open reads the object's opening brace.
func (r *Reader) Open() error {
	tok, err := r.dec.Token()
	switch {
	case errors.Is(err, io.EOF):
		return r.fail(Empty, err)
	case err != nil:
		return r.fail(NotJSON, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return &Error{Failure: NotObject, Token: tok, Offset: r.Offset()}
	}
	return nil
}

// Next reads the key of the next member, whose value the caller then
// reads (Raw, Token, Skip) before the next call. It returns false at the
// end of the object. In Lenient mode, the members of keys not among
// Options.Known are skipped on the way.
func (r *Reader) Next() (Member, bool, error) {
	for r.dec.More() {
		kt, err := r.dec.Token()
		if err != nil {
			return Member{}, false, r.fail(Broken, err)
		}
		key, _ := kt.(string) // an object's keys are always strings
		m := Member{Key: key, Offset: r.Offset(), Known: r.opts.Known == nil || slices.Contains(r.opts.Known, key)}
		if !m.Known && r.opts.Mode == Lenient {
			if _, err := r.Skip(); err != nil {
				var e *Error
				if errors.As(err, &e) {
					e.Key = key
				}
				return Member{}, false, err
			}
			continue
		}
		m.First, m.Repeat = r.first(key)
		if !m.Repeat {
			r.saw(key, m.Offset)
		}
		return m, true, nil
	}
	return Member{}, false, nil
}

// Raw reads the member's value whole.
func (r *Reader) Raw() (json.RawMessage, error) {
	var raw json.RawMessage
	if err := r.dec.Decode(&raw); err != nil {
		return nil, r.fail(Broken, err)
	}
	return raw, nil
}

// Token reads the member's value's first token: the whole value, unless
// it is an object or an array, whose rest SkipRest reads.
func (r *Reader) Token() (json.Token, error) {
	tok, err := r.dec.Token()
	if err != nil {
		return nil, r.fail(Broken, err)
	}
	return tok, nil
}

// Skip reads the member's value without keeping it, and says what kind of
// value it was (see Describe). A value nested deeper than Options.MaxDepth
// fails.
func (r *Reader) Skip() (string, error) { return r.skip(1) }

func (r *Reader) skip(depth int) (string, error) {
	tok, err := r.Token()
	if err != nil {
		return "", err
	}
	if d, ok := tok.(json.Delim); ok {
		return r.skipOpened(d, depth+1)
	}
	return Describe(tok), nil
}

// SkipRest reads the rest of a value whose opening delimiter Token just
// read, at the given depth (1 for a member's value), and says what kind
// of value it was.
func (r *Reader) SkipRest(open json.Delim, depth int) (string, error) {
	return r.skipOpened(open, depth)
}

func (r *Reader) skipOpened(open json.Delim, depth int) (string, error) {
	if err := r.tooDeep(depth); err != nil {
		return "", err
	}
	for r.dec.More() {
		if open == '{' {
			if _, err := r.Token(); err != nil { // the key
				return "", err
			}
		}
		if _, err := r.skip(depth); err != nil {
			return "", err
		}
	}
	if _, err := r.Token(); err != nil { // the closing delimiter
		return "", err
	}
	return Kind(open), nil
}

// ObjectStrings reads the rest of an object whose '{' Token just read, at
// the given depth (2 for a member's value), and returns the string values
// of the members whose key keep accepts, every one of a key given more
// than once, in order, and the strings an array value of such a key holds
// (as a command given as its words); every other value is read and
// dropped, within Options.MaxDepth.
func (r *Reader) ObjectStrings(depth int, keep func(key string) bool) (map[string][]string, error) {
	return r.ObjectStringsEach(depth, keep, nil)
}

// ObjectStringsEach is ObjectStrings that also gives each every string the
// object holds outside what it returns, at any depth within
// Options.MaxDepth, with the key of the member it is (or an array it is
// in is) the value of. each may be nil.
func (r *Reader) ObjectStringsEach(depth int, keep func(key string) bool, each func(key, s string)) (map[string][]string, error) {
	if err := r.tooDeep(depth); err != nil {
		return nil, err
	}
	var out map[string][]string
	for r.dec.More() {
		kt, err := r.Token()
		if err != nil {
			return nil, err
		}
		key, _ := kt.(string)
		vt, err := r.Token()
		if err != nil {
			return nil, err
		}
		switch v := vt.(type) {
		case json.Delim:
			if v == '[' && keep(key) {
				strs, err := r.arrayStrings(depth+1, key, each)
				if err != nil {
					return nil, err
				}
				if out == nil {
					out = map[string][]string{}
				}
				out[key] = append(out[key], strs...)
				continue
			}
			if err := r.passNested(v, key, depth+1, each); err != nil {
				return nil, err
			}
		case string:
			switch {
			case keep(key):
				if out == nil {
					out = map[string][]string{}
				}
				out[key] = append(out[key], v)
			case each != nil:
				each(key, v)
			}
		}
	}
	if _, err := r.Token(); err != nil { // the closing brace
		return nil, err
	}
	return out, nil
}

// tooDeep is the TooDeep failure of a value at depth, or nil within
// Options.MaxDepth.
func (r *Reader) tooDeep(depth int) error {
	if r.opts.MaxDepth > 0 && depth > r.opts.MaxDepth {
		return r.fail(TooDeep, fmt.Errorf("nested more than %d levels deep", r.opts.MaxDepth))
	}
	return nil
}

// passNested reads the rest of an object or array whose open delimiter
// Token just read, at the given depth, inside a value whose strings are
// not kept: each is given every string in it (see eachString), or, when
// each is nil, it is read and dropped.
func (r *Reader) passNested(open json.Delim, key string, depth int, each func(key, s string)) error {
	if each != nil {
		return r.eachString(open, key, depth, each)
	}
	_, err := r.skipOpened(open, depth)
	return err
}

// eachString reads the rest of an object or array whose open delimiter
// Token just read, at the given depth, and gives each every string in it,
// at any depth, with the key of the member it is (or an array it is in
// is) the value of: key for the strings of an array.
func (r *Reader) eachString(open json.Delim, key string, depth int, each func(key, s string)) error {
	if err := r.tooDeep(depth); err != nil {
		return err
	}
	for r.dec.More() {
		k := key
		if open == '{' {
			kt, err := r.Token()
			if err != nil {
				return err
			}
			k, _ = kt.(string)
		}
		vt, err := r.Token()
		if err != nil {
			return err
		}
		switch v := vt.(type) {
		case json.Delim:
			if err := r.eachString(v, k, depth+1, each); err != nil {
				return err
			}
		case string:
			each(k, v)
		}
	}
	_, err := r.Token() // the closing delimiter
	return err
}

// arrayStrings reads the rest of an array whose '[' Token just read, at
// the given depth, the value of key, and returns the strings it holds at
// its own level; anything nested in it is given to each (see
// ObjectStringsEach), or read and dropped when each is nil.
func (r *Reader) arrayStrings(depth int, key string, each func(key, s string)) ([]string, error) {
	if err := r.tooDeep(depth); err != nil {
		return nil, err
	}
	var out []string
	for r.dec.More() {
		vt, err := r.Token()
		if err != nil {
			return nil, err
		}
		switch v := vt.(type) {
		case json.Delim:
			if err := r.passNested(v, key, depth+1, each); err != nil {
				return nil, err
			}
		case string:
			out = append(out, v)
		}
	}
	if _, err := r.Token(); err != nil { // the closing bracket
		return nil, err
	}
	return out, nil
}

// Close reads the object's closing brace and makes sure nothing follows
// it: data after the object is a Trailing failure.
func (r *Reader) Close() error {
	if _, err := r.dec.Token(); err != nil {
		return r.fail(Broken, err)
	}
	tok, err := r.dec.Token()
	switch {
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		return r.fail(Trailing, err)
	}
	return &Error{Failure: Trailing, Token: tok, Offset: r.Offset()}
}

// Kind names the JSON type of a token, for messages: "an object", "an
// array", "a string", "a number", "a boolean", "null".
func Kind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '[':
			return "an array"
		case '{':
			return "an object"
		}
	case string:
		return "a string"
	case json.Number, float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "something else"
}

// Describe is Kind, with the value of a number: "the number 1.5".
func Describe(tok json.Token) string {
	if n, ok := tok.(json.Number); ok {
		return "the number " + n.String()
	}
	return Kind(tok)
}

// KindOfRaw names the JSON type of a raw value by its first byte.
func KindOfRaw(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// ErrText is what a decoder's error says, in words: input that ends too
// early says so.
func ErrText(err error) string {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "it ends too early"
	}
	return err.Error()
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
