package jsonread

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// read reads doc whole and returns the keys Next gave, marked "?" when
// unknown and "!" when repeated, and the first error.
func read(doc string, opts Options) ([]string, error) {
	r := New(strings.NewReader(doc), opts)
	if err := r.Open(); err != nil {
		return nil, err
	}
	var keys []string
	for {
		m, more, err := r.Next()
		if err != nil {
			return keys, err
		}
		if !more {
			break
		}
		k := m.Key
		if !m.Known {
			k += "?"
		}
		if m.Repeat {
			k += "!"
		}
		keys = append(keys, k)
		if _, err := r.Raw(); err != nil {
			return keys, err
		}
	}
	return keys, r.Close()
}

func failureOf(err error) Failure {
	var e *Error
	if errors.As(err, &e) {
		return e.Failure
	}
	return 0
}

func TestModes(t *testing.T) {
	doc := `{"a": 1, "x": {"deep": [1, 2]}, "b": "s", "a": 2}`
	keys, err := read(doc, Options{Mode: Strict, Known: []string{"a", "b"}})
	if err != nil || strings.Join(keys, " ") != "a x? b a!" {
		t.Errorf("strict: %v, %v", keys, err)
	}
	keys, err = read(doc, Options{Mode: Lenient, Known: []string{"a", "b"}})
	if err != nil || strings.Join(keys, " ") != "a b a!" {
		t.Errorf("lenient: %v, %v", keys, err)
	}
	keys, err = read(doc, Options{})
	if err != nil || strings.Join(keys, " ") != "a x b a!" {
		t.Errorf("every key known: %v, %v", keys, err)
	}
}

// TestManyKeys: repeats are found, with their first offset, however many
// keys come before them.
func TestManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	var want []string
	for i := range 20 {
		fmt.Fprintf(&b, "%q: %d, ", fmt.Sprint("k", i), i)
		want = append(want, fmt.Sprint("k", i))
	}
	b.WriteString(`"k3": 0, "k15": 0, "k19": 0}`)
	want = append(want, "k3!", "k15!", "k19!")
	keys, err := read(b.String(), Options{Mode: Strict})
	if err != nil || strings.Join(keys, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, %v\nwant %v", keys, err, want)
	}
	doc := `{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7, "h": 8, "i": 9, "i": 10}`
	firstI := int64(strings.Index(doc, `"i"`) + len(`"i"`)) // a member's offset is just past its key
	r := New(strings.NewReader(doc), Options{})
	if err := r.Open(); err != nil {
		t.Fatal(err)
	}
	for {
		m, more, err := r.Next()
		if err != nil || !more {
			t.Fatalf("no repeat found: %v", err)
		}
		if _, err := r.Raw(); err != nil {
			t.Fatal(err)
		}
		if m.Repeat {
			if m.First != firstI || !r.Seen("i") || !r.Seen("a") || r.Seen("z") {
				t.Errorf("repeat of i: first at %d, want %d; seen i %v, a %v, z %v", m.First, firstI, r.Seen("i"), r.Seen("a"), r.Seen("z"))
			}
			break
		}
	}
}

func TestFailures(t *testing.T) {
	tests := []struct {
		doc  string
		opts Options
		want Failure
	}{
		{"  \n", Options{}, Empty},
		{"tool=read", Options{}, NotJSON},
		{`[{"a": 1}]`, Options{}, NotObject},
		{`"a"`, Options{}, NotObject},
		{`{"a": 1`, Options{}, Broken},
		{`{"a": }`, Options{}, Broken},
		{`{"a": 1} {"b": 2}`, Options{}, Trailing},
		{`{"a": 1} x`, Options{}, Trailing},
		{`{"x": [[[[1]]]]}`, Options{Mode: Lenient, Known: []string{"a"}, MaxDepth: 3}, TooDeep},
		{`{"x": ` + strings.Repeat("1", 100) + `}`, Options{MaxBytes: 10}, Broken},
	}
	for _, tt := range tests {
		_, err := read(tt.doc, tt.opts)
		if got := failureOf(err); got != tt.want {
			t.Errorf("%q: failure %v (%v), want %v", tt.doc, got, err, tt.want)
		}
	}
	// The member whose value Lenient was skipping is named.
	_, err := read(`{"x": [[[[1]]]]}`, Options{Mode: Lenient, Known: []string{"a"}, MaxDepth: 3})
	var e *Error
	if !errors.As(err, &e) || e.Key != "x" || !strings.Contains(e.Error(), "nested more than 3 levels deep") {
		t.Errorf("too deep: %+v", e)
	}
	r := New(strings.NewReader(`{"x": "`+strings.Repeat("a", 100)+`"}`), Options{MaxBytes: 10})
	_ = r.Open()
	_, _, _ = r.Next()
	if _, err := r.Raw(); err == nil || !r.TooLarge() {
		t.Errorf("past MaxBytes: %v, too large %v", err, r.TooLarge())
	}
}

func TestOffsets(t *testing.T) {
	r := New(strings.NewReader("{\n\"a\": 1,\n\"a\": 2}"), Options{Base: 100})
	if err := r.Open(); err != nil {
		t.Fatal(err)
	}
	first, _, _ := r.Next()
	_, _ = r.Raw()
	second, _, _ := r.Next()
	if first.Offset != 105 || !second.Repeat || second.First != first.Offset || second.Offset <= first.Offset {
		t.Errorf("first %+v, second %+v", first, second)
	}
}

func TestKinds(t *testing.T) {
	r := New(strings.NewReader(`{"a": 1.5, "b": [1], "c": {}, "d": null, "e": true, "f": "s"}`), Options{})
	_ = r.Open()
	var kinds, described []string
	for {
		_, more, _ := r.Next()
		if !more {
			break
		}
		tok, _ := r.Token()
		kinds = append(kinds, Kind(tok))
		described = append(described, Describe(tok))
		if _, err := r.skipRestOf(tok); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(kinds, ","); got != "a number,an array,an object,null,a boolean,a string" {
		t.Errorf("kinds = %s", got)
	}
	if got := strings.Join(described, ","); got != "the number 1.5,an array,an object,null,a boolean,a string" {
		t.Errorf("described = %s", got)
	}
	for raw, want := range map[string]string{`{}`: "an object", `[1]`: "an array", `"x"`: "a string", `false`: "a boolean", `null`: "null", `-1`: "a number", ``: "nothing"} {
		if got := KindOfRaw([]byte(raw)); got != want {
			t.Errorf("KindOfRaw(%q) = %q, want %q", raw, got, want)
		}
	}
}
