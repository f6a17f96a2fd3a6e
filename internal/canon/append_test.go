package canon

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func encodeRef(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// TestAppendStringIsEncodingJSON: every string, including control
// characters, quotes, HTML characters, line separators and invalid UTF-8,
// is written as encoding/json writes it with HTML escaping off.
func TestAppendStringIsEncodingJSON(t *testing.T) {
	cases := []string{"", "plain", `"quoted" \ back`, "<a href='x'>&amp;</a>", "\b\f\n\r\t\x00\x01\x1f\x7f",
		"\u2028\u2029", "é 😀 \uffff", "bad \xff\xfe utf-8 \xc3", "\xed\xa0\x80 surrogate"}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "\"", "\\", "<", "&", "\n", "\x00", "\x1f", "é", "😀", "\u2028", "\u2029", "\xff", "\xc3", "\x80", " "}
	for range 20000 {
		var s strings.Builder
		for range r.IntN(12) {
			s.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		cases = append(cases, s.String())
	}
	for _, s := range cases {
		if got, want := string(AppendString(nil, s)), encodeRef(t, s); got != want {
			t.Fatalf("AppendString(%q) = %s, encoding/json writes %s", s, got, want)
		}
	}
	for _, list := range [][]string{nil, {}, {"a"}, {"a", "<b>", "\n"}} {
		if got, want := string(AppendStrings(nil, list)), encodeRef(t, list); got != want {
			t.Errorf("AppendStrings(%q) = %s, want %s", list, got, want)
		}
	}
	s := "x"
	for _, p := range []*string{nil, &s} {
		if got, want := string(AppendOptional(nil, p)), encodeRef(t, p); got != want {
			t.Errorf("AppendOptional = %s, want %s", got, want)
		}
	}
}

// TestAppendFloatIsEncodingJSON: numbers are written as encoding/json
// writes a float64, in fixed and exponent notation.
func TestAppendFloatIsEncodingJSON(t *testing.T) {
	cases := []float64{0, math.Copysign(0, -1), 1, -1, 0.7, 0.1 + 0.2, 1e-6, 9.99e-7, 1e-7, 1.5e-9, 5e-324, 1e20, 1e21, 123456789.125, math.MaxFloat64, -2.5e-8}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		cases = append(cases, r.Float64(), math.Float64frombits(r.Uint64()))
	}
	for _, f := range cases {
		got, err := AppendFloat(nil, f)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			if err == nil {
				t.Errorf("AppendFloat(%v) gave no error", f)
			}
			continue
		}
		if err != nil || string(got) != encodeRef(t, f) {
			t.Fatalf("AppendFloat(%v) = %s, %v; encoding/json writes %s", f, got, err, encodeRef(t, f))
		}
	}
}

// appended writes its JSON itself; plainAppended is the same document for
// encoding/json.
type (
	appended struct {
		Name  string  `json:"name"`
		Value float64 `json:"value"`
	}
	plainAppended appended
)

// appendCalls counts the calls of appended's AppendJSON.
var appendCalls int

func (a *appended) AppendJSON(b []byte) ([]byte, error) {
	appendCalls++
	b = append(b, `{"name":`...)
	b = AppendString(b, a.Name)
	b = append(b, `,"value":`...)
	b, err := AppendFloat(b, a.Value)
	return append(b, '}'), err
}

// TestAppenderIsUsed: a document that writes its own JSON is written by it,
// alone and as the elements of a streamed list, and the result is what
// encoding/json gives for the same fields.
func TestAppenderIsUsed(t *testing.T) {
	docs := []*appended{{"a <b> & \"c\"", 0.5}, {"é\n", 1e-7}, {"", 0}}
	plain := make([]*plainAppended, len(docs))
	for i, d := range docs {
		p := plainAppended(*d)
		plain[i] = &p
	}
	var got, want bytes.Buffer
	appendCalls = 0
	if err := WriteJSON(&got, docs); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&want, plain); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("list:\n got %s\nwant %s", got.String(), want.String())
	}
	if appendCalls != len(docs) {
		t.Errorf("a list of %d called AppendJSON %d times", len(docs), appendCalls)
	}
	one, err := JSON(docs[0])
	if err != nil {
		t.Fatal(err)
	}
	if ref, _ := JSON(plain[0]); string(one) != string(ref) {
		t.Errorf("one document:\n got %s\nwant %s", one, ref)
	}
	if appendCalls != len(docs)+1 {
		t.Error("one document was not written by its AppendJSON")
	}
}
