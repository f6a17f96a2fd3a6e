package canon

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/strictyaml"
)

type inner struct {
	Z bool     `json:"z"`
	A []string `json:"a"`
}

type doc struct {
	Name  string   `json:"name"`
	Value float64  `json:"value"`
	Count int      `json:"count"`
	Cap   *float64 `json:"cap"`
	In    inner    `json:"in"`
	Text  string   `json:"text"`
}

func TestYAMLKeepsFieldOrderAndTypes(t *testing.T) {
	d := doc{Name: "yes", Value: 0.5, Count: 3, In: inner{A: []string{}}, Text: "a\nb"}
	got, err := YAML(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `name: "yes"
value: 0.5
count: 3
cap: null
in:
  z: false
  a: []
text: |-
  a
  b
`
	if string(got) != want {
		t.Errorf("YAML:\n%s\nwant:\n%s", got, want)
	}
	// The string "yes" must come back as a string, not a boolean.
	var back map[string]any
	if err := yaml.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	if back["name"] != "yes" {
		t.Errorf("name decoded as %#v, want the string yes", back["name"])
	}
}

// A whole number past 64 bits is written as YAML reads a float, with no
// tag, and reads back as the same number.
func TestYAMLWholeNumberPast64Bits(t *testing.T) {
	big := 1e20
	got, err := YAML(doc{Value: 1e21, Cap: &big, In: inner{A: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), "!!") || !strings.Contains(string(got), "cap: 100000000000000000000\n") {
		t.Errorf("YAML:\n%s", got)
	}
	var back doc
	if err := yaml.Unmarshal(got, &back); err != nil || back.Cap == nil || *back.Cap != big || back.Value != 1e21 {
		t.Errorf("read back: %+v, %v", back, err)
	}
}

func TestJSONDoesNotEscapeHTML(t *testing.T) {
	got, err := CompactJSON(map[string]string{"k": "<a&b>"})
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"k":"<a&b>"}` {
		t.Errorf("got %s", got)
	}
}

func TestJSONToNodeRejectsTrailingData(t *testing.T) {
	if _, err := JSONToNode([]byte(`{} {}`)); err == nil || !strings.Contains(err.Error(), "trailing") {
		t.Errorf("err = %v, want trailing data error", err)
	}
}

// TestStableYAMLRefusesWhatCannotBeStored: a value whose canonical YAML is
// over the limit a stored file may have is refused as invalid before it
// is decoded, naming its size; one at the limit is stored.
func TestStableYAMLRefusesWhatCannotBeStored(t *testing.T) {
	type text struct {
		Text string `json:"text"`
	}
	decoded := false
	decode := func([]byte) (text, error) { decoded = true; return text{}, nil }
	// "text: " and a line break around the string.
	at := text{Text: strings.Repeat("x", strictyaml.MaxFileSize-7)}
	if _, _, err := StableYAML(at, "doc", decode); err != nil || !decoded {
		t.Fatalf("a value at the limit: %v (decoded %v)", err, decoded)
	}
	decoded = false
	_, _, err := StableYAML(text{Text: at.Text + "x"}, "doc", decode)
	if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "doc would be 1048577 bytes as stored, over the 1048576-byte (1 MiB) limit") || decoded {
		t.Fatalf("a value over the limit: %v (decoded %v)", err, decoded)
	}
}

// WriteJSON's output is read by add --config's YAML reader: a string
// holding characters JSON may carry raw but YAML refuses (DEL, C1
// controls, U+FFFE) or reads as a line break (U+0085) must come back the
// same from both readers.
func TestWriteJSONIsReadableAsYAML(t *testing.T) {
	text := "a\x7fb\u0080c\u0085d\u009be\ufffef\uffffg\u00a0h\u2028i\ufeffj漢"
	for _, v := range []any{doc{Text: text}, []doc{{Text: text}, {Text: text}}} {
		var b strings.Builder
		if err := WriteJSON(&b, v); err != nil {
			t.Fatal(err)
		}
		var fromJSON, fromYAML any
		if err := json.Unmarshal([]byte(b.String()), &fromJSON); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, b.String())
		}
		if err := yaml.Unmarshal([]byte(b.String()), &fromYAML); err != nil {
			t.Fatalf("not YAML: %v\n%s", err, b.String())
		}
		for _, got := range []any{fromJSON, fromYAML} {
			if list, ok := got.([]any); ok {
				got = list[1]
			}
			if s := got.(map[string]any)["text"]; s != text {
				t.Errorf("text read back as %q, want %q", s, text)
			}
		}
	}
}

// TestEscapedControls: the bidirectional controls, like the C1 controls,
// leave WriteJSON as \u escapes, so no terminal reorders or acts on a line
// of output; the characters around them, wide ones included, are left as
// they are.
func TestEscapedControls(t *testing.T) {
	text := "a\u202eb\u2066c\u2069d\u200fe\u200ef\u061cg\u202ah\u009bi漢\u2028"
	var b strings.Builder
	if err := WriteJSON(&b, doc{Text: text}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, r := range []rune{0x202e, 0x2066, 0x2069, 0x200f, 0x200e, 0x061c, 0x202a, 0x9b} {
		if strings.ContainsRune(out, r) {
			t.Errorf("U+%04X written raw: %q", r, out)
		}
		if !strings.Contains(out, fmt.Sprintf(`\u%04x`, r)) {
			t.Errorf("U+%04X not escaped: %q", r, out)
		}
	}
	if !strings.Contains(out, "漢") {
		t.Errorf("a wide character was escaped: %q", out)
	}
	var back doc
	if err := json.Unmarshal([]byte(out), &back); err != nil || back.Text != text {
		t.Errorf("read back as %q (%v), want %q", back.Text, err, text)
	}
}
