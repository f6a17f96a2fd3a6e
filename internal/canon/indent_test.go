package canon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// reference is the encoding JSON must give: encoding/json's own
// indentation.
func reference(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(v)
	return buf.String(), err
}

type marshalsItself []int

func (m marshalsItself) MarshalJSON() ([]byte, error) { return []byte(`"custom"`), nil }

type withText struct{ N int }

func (withText) MarshalText() ([]byte, error) { return []byte("text"), nil }

func TestJSONIndentsAsEncodingJSONDoes(t *testing.T) {
	f := 0.1
	tricky := []string{
		"", `"`, `\`, `\"`, `"\\"`, "{[,:]}", "a\nb\tc\rd\be\ff", "\x00\x1f\x7f", "<&>",
		"\u2028\u2029", "ünïcödé 🙂", "\xff\xfe invalid", `{"not": "json"}`, "  spaces  ",
	}
	values := []any{
		nil, true, 0, -1.5e-7, 1e21, math.MaxInt64, "", tricky,
		[]any{}, map[string]any{}, []any{[]any{}, map[string]any{}, []any{nil}},
		map[string]any{"b": []any{1, "x", nil, map[string]any{"z": []string{}}}, "a": map[string]any{}},
		doc{Name: "yes", Value: 0.5, Cap: &f, In: inner{A: []string{"x", "y"}}, Text: "a\nb"},
		[]doc{{}, {Name: "second", In: inner{A: []string{}}}},
		[]*doc{nil, {Name: "p"}},
		[]byte("bytes"), []string(nil), []string{}, []int{1, 2, 3},
		marshalsItself{1}, []withText{{1}, {2}}, []marshalsItself{{1}, nil},
		[][]int{{}, {1}, nil},
	}
	for _, s := range tricky {
		values = append(values, s, map[string]string{s: s}, []string{s, s})
	}
	for i, v := range values {
		want, err := reference(v)
		if err != nil {
			t.Fatalf("value %d: %v", i, err)
		}
		got, err := JSON(v)
		if err != nil || string(got) != want {
			t.Errorf("JSON(value %d %#v) =\n%s(err %v), want\n%s", i, v, got, err, want)
		}
		// WriteJSON writes the same, but for the characters YAML cannot
		// read raw (see TestWriteJSONIsReadableAsYAML).
		want = string(Escaped([]byte(want)))
		var buf bytes.Buffer
		if err := WriteJSON(&buf, v); err != nil || buf.String() != want {
			t.Errorf("WriteJSON(value %d %#v) =\n%s(err %v), want\n%s", i, v, buf.String(), err, want)
		}
	}
}

// TestWriteJSONStreamsLongLists writes a list long enough to be written
// in several parts and compares it whole.
func TestWriteJSONStreamsLongLists(t *testing.T) {
	var list []doc
	for i := range 2000 {
		list = append(list, doc{Name: fmt.Sprintf("n%d", i), Count: i, In: inner{A: []string{strings.Repeat("x", i%7)}}})
	}
	want, _ := reference(list)
	var w countingWriter
	if err := WriteJSON(&w, list); err != nil {
		t.Fatal(err)
	}
	if w.buf.String() != want {
		t.Fatal("a long list is written differently")
	}
	if w.writes < 2 {
		t.Errorf("a %d-byte list was written in %d part(s)", len(want), w.writes)
	}
}

type countingWriter struct {
	buf    bytes.Buffer
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	return w.buf.Write(p)
}

func FuzzIndentJSON(f *testing.F) {
	f.Add(`{"a":[1,{"b":"c\"}"}],"d":{}}`)
	f.Add(`["\\",[],{"":""}]`)
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		want, err := reference(v)
		if err != nil {
			return
		}
		got, err := JSON(v)
		if err != nil || string(got) != want {
			t.Fatalf("JSON(%q) =\n%s\nwant\n%s", s, got, want)
		}
	})
}
