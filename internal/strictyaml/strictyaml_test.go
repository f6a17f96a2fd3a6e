package strictyaml

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/errs"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		line int
		want string // substring of the one problem; "" for success
	}{
		{"mapping", "a: 1\n", 0, ""},
		{"bom and crlf", "\xef\xbb\xbfa: 1\r\nb: 2\r\n", 0, ""},
		{"document markers", "---\na: 1\n...\n", 0, ""},
		{"scalar root parses", "hello\n", 0, ""},
		{"empty", "", 0, "file is empty"},
		{"only comments", "# nothing\n# here\n", 0, "file is empty"},
		{"only whitespace", "\n\n   \n", 0, "file is empty"},
		{"bare document marker", "---\n", 0, "file is empty"},
		{"second document", "a: 1\n---\nb: 2\n", 2, "more than one YAML document"},
		{"empty second document", "a: 1\n---\n", 2, "more than one YAML document"},
		{"broken second document", "a: 1\n---\nb: [\n", 0, "more than one YAML document"},
		{"syntax error", "a: 1\nb: c: d\n", 2, "invalid YAML: mapping values are not allowed"},
		{"tab indentation", "a:\n\tb: 1\n", 2, "invalid YAML"},
		{"unknown anchor", "a: *nope\n", 0, "unknown anchor"},
		{"nul byte", "a: 1\nb: \x00\n", 2, "NUL byte (at offset 8)"},
		{"utf-16", "\xff\xfea\x00:\x00", 1, "UTF-16"},
		{"invalid utf-8", "a: 1\nb: \xc3\x28\n", 2, "not valid UTF-8 (bad byte at offset 8)"},
		{"control character", "a: \x01\n", 0, "invalid YAML"},
		{"too deep", strings.Repeat("[", 10001), 0, "invalid YAML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, ps := Parse([]byte(tt.in), "f.yaml")
			if tt.want == "" {
				if len(ps) != 0 || root == nil {
					t.Fatalf("Parse(%q) = %v, want success", tt.in, ps)
				}
				return
			}
			if len(ps) != 1 {
				t.Fatalf("Parse(%q) problems = %v, want one", tt.in, ps)
			}
			if root != nil {
				t.Errorf("Parse(%q) returned a root with a problem", tt.in)
			}
			p := ps[0]
			if !strings.Contains(p.Message, tt.want) {
				t.Errorf("message = %q, want it to contain %q", p.Message, tt.want)
			}
			if tt.line != 0 && p.Line != tt.line {
				t.Errorf("line = %d, want %d", p.Line, tt.line)
			}
			if p.File != "f.yaml" {
				t.Errorf("file = %q, want f.yaml", p.File)
			}
		})
	}
}

func TestParseSizeLimit(t *testing.T) {
	// A document of exactly MaxFileSize bytes is accepted; one byte more is not.
	body := "a: " + strings.Repeat("x", MaxFileSize-len("a: \n")) + "\n"
	if len(body) != MaxFileSize {
		t.Fatalf("test document is %d bytes", len(body))
	}
	if _, ps := Parse([]byte(body), "f"); len(ps) != 0 {
		t.Fatalf("document at the limit: %v", ps)
	}
	_, ps := Parse([]byte(body+" "), "f")
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "larger than") {
		t.Fatalf("document over the limit: %v", ps)
	}
}

// decodeOne parses "v: <text>" and returns the field for v.
func decodeOne(t *testing.T, text string) (*Decoder, Field) {
	t.Helper()
	d := NewDecoder("f.yaml")
	root, ok := d.Root([]byte("v: " + text + "\n"))
	if !ok {
		t.Fatalf("parse %q: %v", text, d.Problems())
	}
	fs := d.Fields(At("", root), []string{"v"})
	if len(fs) != 1 {
		t.Fatalf("fields of %q: %v", text, fs)
	}
	return d, fs[0]
}

func onlyProblem(t *testing.T, d *Decoder, want string) {
	t.Helper()
	ps := d.Problems()
	if want == "" {
		if len(ps) != 0 {
			t.Fatalf("unexpected problems: %v", ps)
		}
		return
	}
	if len(ps) != 1 {
		t.Fatalf("problems = %v, want one containing %q", ps, want)
	}
	if !strings.Contains(ps[0].Message, want) {
		t.Fatalf("problem = %q, want it to contain %q", ps[0].Message, want)
	}
	if ps[0].Path != "v" || ps[0].Line != 1 {
		t.Fatalf("problem at %s line %d, want v line 1", ps[0].Path, ps[0].Line)
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		in, want, problem string
	}{
		{"hello", "hello", ""},
		{`"123"`, "123", ""},
		{"'true'", "true", ""},
		{"!!str 123", "123", ""},
		{"|\n  two\n  lines", "two\nlines\n", ""},
		{`""`, "", ""},
		{"123", "", "must be a string, got integer 123"},
		{"1.5", "", "got number 1.5"},
		{"true", "", "got boolean true"},
		{"~", "", "must be a string, got null"},
		{"", "", "must be a string, got null"},
		{"2024-01-02", "", "got timestamp 2024-01-02"},
		{"[a]", "", "must be a string, got a list"},
		{"{a: b}", "", "must be a string, got a mapping"},
		{"!custom x", "", `unsupported tag "!custom"`},
		{"!!binary aGk=", "", "got binary data"},
		{`"a\0b"`, "", "NUL character"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, f := decodeOne(t, tt.in)
			got, ok := d.String(f)
			onlyProblem(t, d, tt.problem)
			if ok != (tt.problem == "") || got != tt.want {
				t.Errorf("String(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
}

func TestBool(t *testing.T) {
	tests := []struct {
		in      string
		want    bool
		problem string
	}{
		{"true", true, ""},
		{"false", false, ""},
		{"!!bool true", true, ""},
		{"True", false, "got True; write true or false, in lower case"},
		{"TRUE", false, "got TRUE; write true or false, in lower case"},
		{"FALSE", false, "got FALSE; write true or false, in lower case"},
		{"False", false, "in lower case"},
		{`!!bool "false"`, false, `got "false" in quotes; write true or false, without quotes`},
		{`!!bool 'true'`, false, "without quotes"},
		{"!!bool |\n  true\n", false, `got "true\n" as block text`},
		{"yes", false, `got string "yes"`},
		{"no", false, `got string "no"`},
		{"on", false, `got string "on"`},
		{"off", false, `got string "off"`},
		{"y", false, `got string "y"`},
		{`"yes"`, false, `got string "yes"`},
		{`"true"`, false, `got string "true"`},
		{"1", false, "got integer 1"},
		{"0", false, "got integer 0"},
		{"~", false, "got null"},
		{"!!bool yes", false, "must be true or false"},
		{"!custom true", false, "unsupported tag"},
		{"[true]", false, "got a list"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, f := decodeOne(t, tt.in)
			got, ok := d.Bool(f)
			onlyProblem(t, d, tt.problem)
			if ok != (tt.problem == "") || got != tt.want {
				t.Errorf("Bool(%q) = %v, %v; want %v", tt.in, got, ok, tt.want)
			}
		})
	}
}

func TestInt(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		problem string
	}{
		{"0", 0, ""},
		{"42", 42, ""},
		{"-3", -3, ""},
		{"-0", 0, ""},
		{"10", 10, ""},
		{"!!int 10", 10, ""},
		// Quoted text tagged to be read as a number is still text.
		{`!!int "7"`, 0, `must be an integer, got "7" in quotes or as text; write the number without quotes`},
		{`!!int '7'`, 0, "in quotes or as text"},
		{"!!int |\n  7\n", 0, "in quotes or as text"},
		{"!!float 3", 0, "must be an integer, got 3 tagged !!float; write it without the tag"},
		{"9223372036854775807", 9223372036854775807, ""},
		{"-9223372036854775808", -9223372036854775808, ""},
		// Only plain decimal: other forms are read differently by
		// different YAML readers (010 is 8 to YAML 1.1, 10 to 1.2 core).
		{"010", 0, "must be an integer written in plain decimal, got 010; write a plain decimal number"},
		{"-010", 0, "plain decimal, got -010"},
		{"00", 0, "plain decimal, got 00"},
		{"+7", 0, "plain decimal, got +7"},
		{"+0", 0, "plain decimal, got +0"},
		{"0x1F", 0, "plain decimal, got 0x1F"},
		{"0o17", 0, "plain decimal, got 0o17"},
		{"-0o17", 0, "plain decimal, got -0o17"},
		{"0b11", 0, "plain decimal, got 0b11"},
		{"-0b11", 0, "plain decimal, got -0b11"},
		{"1_000", 0, "plain decimal, got 1_000"},
		{"!!int 0x1F", 0, "plain decimal, got 0x1F"},
		{"1_000_000_000_000_000_000_000", 0, "plain decimal, got 1_000_000_000_000_000_000_000"},
		{"+99999999999999999999", 0, "plain decimal"},
		{"9223372036854775808", 0, "out of range"},
		{"99999999999999999999", 0, "out of range"},
		{"-99999999999999999999", 0, "out of range"},
		{"1.5", 0, "must be an integer, got number 1.5"},
		{"3.0", 0, "must be an integer, got number 3.0"},
		{"1e3", 0, "must be an integer"},
		{".nan", 0, "must be an integer"},
		{`"3"`, 0, `got string "3"`},
		{"three", 0, `got string "three"`},
		{"~", 0, "got null"},
		{"true", 0, "got boolean"},
		{"!!int 1.5", 0, "must be an integer"},
		{"!custom 3", 0, "unsupported tag"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, f := decodeOne(t, tt.in)
			got, ok := d.Int(f)
			onlyProblem(t, d, tt.problem)
			if ok != (tt.problem == "") || got != tt.want {
				t.Errorf("Int(%q) = %v, %v; want %v", tt.in, got, ok, tt.want)
			}
		})
	}
}

func TestFloat(t *testing.T) {
	tests := []struct {
		in      string
		want    float64
		problem string
	}{
		{"0", 0, ""},
		{"1", 1, ""},
		{"0.7", 0.7, ""},
		{"1.0", 1, ""},
		{"-0.0", 0, ""},
		{"-0", 0, ""},
		{".5", 0.5, ""},
		{"!!float 1", 1, ""},
		{`!!float "0.5"`, 0, `must be a number, got "0.5" in quotes or as text; write the number without quotes`},
		{`!!int "1"`, 0, "in quotes or as text"},
		{"5e-1", 0.5, ""},
		{"5.", 5, ""},
		{"1E+2", 100, ""},
		{"2.5e-01", 0.25, ""},
		{"0.5e0", 0.5, ""},
		{"!!float 1", 1, ""},
		{"!!float 0.25", 0.25, ""},
		// Only plain decimal, as for integers.
		{"1_000.5", 0, "must be a number written in plain decimal, got 1_000.5; write a plain decimal number"},
		{"1_0.5", 0, "plain decimal, got 1_0.5"},
		{"0x10", 0, "plain decimal, got 0x10"},
		{"0o10", 0, "plain decimal, got 0o10"},
		{"0b10", 0, "plain decimal, got 0b10"},
		{"010", 0, "plain decimal, got 010"},
		{"1_000", 0, "plain decimal, got 1_000"},
		{"+3", 0, "plain decimal, got +3"},
		{"+0.5", 0, "plain decimal, got +0.5"},
		{"00.5", 0, "plain decimal, got 00.5"},
		{"01e2", 0, "plain decimal, got 01e2"},
		{"!!float 0x1p-2", 0, "plain decimal, got 0x1p-2"},
		{"!!float 1_0.5", 0, "plain decimal, got 1_0.5"},
		{"!!float 0x10", 0, "plain decimal, got 0x10"},
		{"!!float 1e", 0, "plain decimal, got 1e"},
		{"0x1p-2", 0, `must be a number, got string "0x1p-2"`},
		{"!!float Infinity", 0, "must be a finite number"},
		{"!!float inf", 0, "must be a finite number"},
		{"18446744073709551615", 18446744073709551615, ""},
		{".nan", 0, "must be a finite number, got .nan"},
		{".NaN", 0, "finite"},
		{".inf", 0, "finite"},
		{"-.inf", 0, "finite"},
		{"+.INF", 0, "finite"},
		{"1e400", 0, "out of range"},
		{"-1e400", 0, "out of range"},
		{"1e-400", 0, "closer to 0 than the smallest number read at full precision"},
		{"-1e-400", 0, "closer to 0 than the smallest number read at full precision"},
		{"0.000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001", 0, "closer to 0 than the smallest number"},
		{"4e-320", 0, "closer to 0 than the smallest number read at full precision"},
		{"!!float 1e-400", 0, "closer to 0 than the smallest number"},
		{"2.2250738585072014e-308", 2.2250738585072014e-308, ""},
		{"0e-400", 0, ""},
		{"0.0e5", 0, ""},
		{"1e-300", 1e-300, ""},
		{"!!float NaN", 0, "finite"},
		{"!!float 1e400", 0, "out of range"},
		{`"0.5"`, 0, `must be a number, got string "0.5"`},
		{`"1e400"`, 0, `must be a number, got string "1e400"`},
		{"high", 0, `got string "high"`},
		{"~", 0, "got null"},
		{"true", 0, "got boolean"},
		{"[1]", 0, "got a list"},
		{"!custom 1", 0, "unsupported tag"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, f := decodeOne(t, tt.in)
			got, ok := d.Float(f)
			onlyProblem(t, d, tt.problem)
			if ok != (tt.problem == "") || got != tt.want {
				t.Errorf("Float(%q) = %v, %v; want %v", tt.in, got, ok, tt.want)
			}
			if math.Signbit(got) {
				t.Errorf("Float(%q) kept a negative zero", tt.in)
			}
		})
	}
}

func TestOptional(t *testing.T) {
	for _, in := range []string{"~", "null", "", "NULL"} {
		d, f := decodeOne(t, in)
		if v, ok := d.OptFloat(f); !ok || v != nil {
			t.Errorf("OptFloat(%q) = %v, %v", in, v, ok)
		}
		if v, ok := d.OptInt(f); !ok || v != nil {
			t.Errorf("OptInt(%q) = %v, %v", in, v, ok)
		}
		if v, ok := d.OptString(f); !ok || v != nil {
			t.Errorf("OptString(%q) = %v, %v", in, v, ok)
		}
		onlyProblem(t, d, "")
	}
	d, f := decodeOne(t, "2.5")
	if v, ok := d.OptFloat(f); !ok || v == nil || *v != 2.5 {
		t.Errorf("OptFloat(2.5) = %v, %v", v, ok)
	}
	d, f = decodeOne(t, "7")
	if v, ok := d.OptInt(f); !ok || v == nil || *v != 7 {
		t.Errorf("OptInt(7) = %v, %v", v, ok)
	}
	d, f = decodeOne(t, "x")
	if v, ok := d.OptString(f); !ok || v == nil || *v != "x" {
		t.Errorf("OptString(x) = %v, %v", v, ok)
	}
	d, f = decodeOne(t, ".inf")
	if v, ok := d.OptFloat(f); ok || v != nil {
		t.Errorf("OptFloat(.inf) = %v, %v", v, ok)
	}
	onlyProblem(t, d, "finite")
}

func TestStringList(t *testing.T) {
	tests := []struct {
		in       string
		want     []string
		problems []string // paths
	}{
		{"[]", []string{}, nil},
		{"[a, b]", []string{"a", "b"}, nil},
		{"[' a ', b, a, ' b']", []string{"a", "b"}, nil},
		{"[b, a, b, c, a]", []string{"b", "a", "c"}, nil},
		{"[a, '', ' ', b]", []string{"a", "b"}, []string{"v[1]", "v[2]"}},
		{"[a, 123, true, ~, [x]]", []string{"a"}, []string{"v[1]", "v[2]", "v[3]", "v[4]"}},
		// A character one cannot see makes another name of the same look.
		{`[a, "shell\u200b", "b\x7f", "c\td", "\ufeffe", "f\ufe0f", "g\u3164"]`, []string{"a"}, []string{"v[1]", "v[2]", "v[3]", "v[4]", "v[5]", "v[6]"}},
		// Line and paragraph separators break a name in two where shown;
		// a replacement character stands for bytes one reader drops.
		{`[a, "read\u2028x", "read\u2029x", "read\ufffd"]`, []string{"a"}, []string{"v[1]", "v[2]", "v[3]"}},
		{"a", nil, []string{"v"}},
		{"{a: 1}", nil, []string{"v"}},
		{"~", nil, []string{"v"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, f := decodeOne(t, tt.in)
			got, ok := d.StringList(f)
			var paths []string
			for _, p := range d.Problems() {
				paths = append(paths, p.Path)
			}
			if !slices.Equal(paths, tt.problems) {
				t.Errorf("problem paths = %v, want %v (%v)", paths, tt.problems, d.Problems())
			}
			if ok != (len(tt.problems) == 0) {
				t.Errorf("ok = %v", ok)
			}
			if ok && !slices.Equal(got, tt.want) {
				t.Errorf("StringList(%s) = %q, want %q", tt.in, got, tt.want)
			}
			if ok && got == nil {
				t.Errorf("StringList(%s) returned nil", tt.in)
			}
		})
	}
}

func TestStringListLarge(t *testing.T) {
	// Past the small-list scan, duplicates are still dropped in order.
	var items []string
	for i := range 40 {
		items = append(items, string(rune('a'+i%20)))
	}
	d, f := decodeOne(t, "["+strings.Join(items, ", ")+"]")
	got, ok := d.StringList(f)
	if !ok || len(got) != 20 || got[0] != "a" || got[19] != "t" {
		t.Fatalf("StringList = %q, %v", got, ok)
	}
}

func fieldsOf(t *testing.T, doc string, known []string) (*Decoder, []Field) {
	t.Helper()
	d := NewDecoder("f.yaml")
	root, ok := d.Root([]byte(doc))
	if !ok {
		return d, nil
	}
	return d, d.Fields(At("", root), known)
}

func keysOf(fs []Field) []string {
	var keys []string
	for _, f := range fs {
		keys = append(keys, f.Key)
	}
	return keys
}

func messages(ps []errs.Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.String())
		b.WriteString("\n")
	}
	return b.String()
}

func TestFields(t *testing.T) {
	known := []string{"a", "b", "c", "auto_apply"}
	tests := []struct {
		name     string
		doc      string
		keys     []string
		problems []string // substrings, in order
	}{
		{"plain", "a: 1\nb: 2\n", []string{"a", "b"}, nil},
		{"unknown with suggestion", "a: 1\nauto_aply: 2\n", []string{"a"}, []string{`f.yaml:2: auto_aply: unknown field "auto_aply" (did you mean "auto_apply"?)`}},
		{"unknown without suggestion", "zzzzzz: 1\n", nil, []string{`zzzzzz: unknown field "zzzzzz"`}},
		{"duplicate", "a: 1\nb: 2\na: 3\n", []string{"a", "b"}, []string{`f.yaml:3: a: duplicate key "a" (first at line 1)`}},
		{"non-string key", "1: x\na: 2\n", []string{"a"}, []string{"keys must be strings, got integer 1"}},
		{"null key", "~: x\n", nil, []string{"keys must be strings, got null"}},
		{"complex key", "? [a]\n: 1\n", nil, []string{"keys must be strings, got a list"}},
		{"quoted merge is a key", "'<<': {a: 1}\n", nil, []string{`unknown field "<<"`}},
		{"merge inline", "<<: {a: 1, b: 2}\nb: 3\n", []string{"b", "a"}, nil},
		{"merge alias", "a: &x {c: 1}\n<<: *x\n", []string{"a", "c"}, nil},
		{"merge list first wins", "<<: [{a: 1}, {a: 2, b: 2}]\n", []string{"a", "b"}, nil},
		{"second merge key", "<<: {a: 1}\n<<: {a: 2}\n", []string{"a"}, []string{`f.yaml:2: <<: duplicate key "<<" (first at line 1)`}},
		{"second merge key tagged", "<<: {a: 1}\n!!merge <<: {b: 2}\n", []string{"a"}, []string{`duplicate key "<<"`}},
		{"second merge key in merged mapping", "<<: {<<: {a: 1}, <<: {a: 2}}\n", []string{"a"}, []string{`<<: duplicate key "<<"`}},
		{"merge chain", "<<: {<<: {c: 1}, b: 1}\na: 1\n", []string{"a", "b", "c"}, nil},
		{"merge of scalar", "<<: 3\n", nil, []string{"merge key (<<) must name a mapping or a list of mappings, got integer 3"}},
		{"merge list of scalars", "<<: [{a: 1}, 3]\n", []string{"a"}, []string{"merge key (<<) list must hold mappings"}},
		{"merge with custom tag", "<<: !t {a: 1}\n", nil, []string{"unsupported tag"}},
		{"unknown key inside merged mapping", "<<: {zzzzzz: 1}\n", nil, []string{`unknown field "zzzzzz"`}},
		{"self merge", "&r\na: 1\n<<: *r\n", []string{"a"}, []string{"refers to a mapping that contains it"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, fs := fieldsOf(t, tt.doc, known)
			if got := keysOf(fs); !slices.Equal(got, tt.keys) {
				t.Errorf("keys = %v, want %v", got, tt.keys)
			}
			ps := d.Problems()
			if len(ps) != len(tt.problems) {
				t.Fatalf("problems:\n%swant %d", messages(ps), len(tt.problems))
			}
			for i, want := range tt.problems {
				if !strings.Contains(ps[i].String(), want) {
					t.Errorf("problem %d = %q, want it to contain %q", i, ps[i].String(), want)
				}
			}
		})
	}
}

func TestMergeValues(t *testing.T) {
	// Explicit keys win over merged ones wherever they appear.
	d, fs := fieldsOf(t, "<<: {a: 1, b: 1}\na: 2\n", []string{"a", "b"})
	if !d.OK() || len(fs) != 2 {
		t.Fatalf("fields %v problems %v", keysOf(fs), d.Problems())
	}
	for _, f := range fs {
		want := map[string]int64{"a": 2, "b": 1}[f.Key]
		if v, ok := d.Int(f); !ok || v != want {
			t.Errorf("%s = %v, want %v", f.Key, v, want)
		}
	}
}

func TestNestedMergeCycle(t *testing.T) {
	// An anchor is defined before its children, so a mapping can merge a
	// mapping that contains it; the decoder must notice, not loop.
	d := NewDecoder("f.yaml")
	root, ok := d.Root([]byte("a: &x\n  b: 1\n  c:\n    <<: *x\n"))
	if !ok {
		t.Fatal(d.Problems())
	}
	fs := d.Fields(At("", root), []string{"a"})
	inner := d.Fields(fs[0], []string{"b", "c"})
	var c Field
	for _, f := range inner {
		if f.Key == "c" {
			c = f
		}
	}
	merged, _ := d.Mapping(c)
	if got := keysOf(merged); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("merged keys = %v", got)
	}
	// Walking c's merged c again is bounded by the merge stack per call;
	// each call terminates.
	if !d.OK() {
		t.Errorf("problems: %v", d.Problems())
	}
}

func TestAliasBombs(t *testing.T) {
	// Billion laughs through merge keys: each level merges the previous one
	// nine times. Without a bound this is 9^9 merged entries.
	var b strings.Builder
	b.WriteString("l0: &l0 {x0: 1, x1: 1, x2: 1, x3: 1, x4: 1, x5: 1, x6: 1, x7: 1, x8: 1}\n")
	for i := 1; i <= 9; i++ {
		prev := "*l" + string(rune('0'+i-1))
		b.WriteString("l" + string(rune('0'+i)) + ": &l" + string(rune('0'+i)) + " {<<: [")
		b.WriteString(strings.TrimSuffix(strings.Repeat(prev+", ", 9), ", "))
		b.WriteString("]}\n")
	}
	b.WriteString("<<: *l9\n")
	d, _ := fieldsOf(t, b.String(), []string{"x0"})
	found := false
	for _, p := range d.Problems() {
		if strings.Contains(p.Message, "too many alias or merge-key uses") {
			found = true
		}
	}
	if !found {
		t.Fatalf("merge bomb not refused: %s", messages(d.Problems()))
	}

	// Billion laughs through plain aliases in a list: each item is one
	// alias use, never expanded.
	b.Reset()
	b.WriteString("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	b.WriteString("v: [" + strings.TrimSuffix(strings.Repeat("*a, ", 20000), ", ") + "]\n")
	d, fs := fieldsOf(t, b.String(), []string{"a", "v"})
	if len(fs) != 2 {
		t.Fatalf("fields: %v", keysOf(fs))
	}
	d.StringList(fs[1])
	ps := d.Problems()
	if len(ps) == 0 || len(ps) > MaxProblems+1 {
		t.Fatalf("got %d problems", len(ps))
	}
	if !strings.Contains(messages(ps), "too many alias or merge-key uses") {
		t.Errorf("alias flood not refused:\n%s", messages(ps[:5]))
	}
}

func TestProblemLimit(t *testing.T) {
	var b strings.Builder
	for i := range 1000 {
		b.WriteString("unknown_key_")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString(strings.Repeat("y", i))
		b.WriteString(": 1\n")
	}
	d, _ := fieldsOf(t, b.String(), []string{"a"})
	ps := d.Problems()
	if len(ps) != MaxProblems+1 {
		t.Fatalf("got %d problems, want %d", len(ps), MaxProblems+1)
	}
	if last := ps[len(ps)-1]; last.Message != "900 more problems not shown" {
		t.Errorf("last problem = %q", last.Message)
	}
	if err := d.Err(); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("Err() = %v, want invalid", err)
	}
}

func TestProblemsInLineOrder(t *testing.T) {
	d := NewDecoder("f")
	d.Addf("c", nil, "third")
	d.addAt("b", 5, "second")
	d.addAt("a", 2, "first")
	d.addAt("a2", 2, "first again")
	var got []string
	for _, p := range d.Problems() {
		got = append(got, p.Message)
	}
	want := []string{"third", "first", "first again", "second"}
	if !slices.Equal(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
}

func TestRoot(t *testing.T) {
	for _, tt := range []struct{ doc, want string }{
		{"- a\n", "the document must be a mapping of field names to values, got a list"},
		{"hello\n", `got string "hello"`},
		{"~\n", "got null"},
		{"!custom {a: 1}\n", "unsupported tag"},
	} {
		d := NewDecoder("f")
		if _, ok := d.Root([]byte(tt.doc)); ok {
			t.Errorf("Root(%q) succeeded", tt.doc)
			continue
		}
		if ps := d.Problems(); len(ps) != 1 || !strings.Contains(ps[0].Message, tt.want) {
			t.Errorf("Root(%q) problems %v, want %q", tt.doc, ps, tt.want)
		}
	}
}

func TestPaths(t *testing.T) {
	if got := Join("", "a"); got != "a" {
		t.Errorf("Join = %q", got)
	}
	if got := Join("safety", "max_retries_per_step"); got != "safety.max_retries_per_step" {
		t.Errorf("Join = %q", got)
	}
	if got := Index("guards.tool_denylist", 2); got != "guards.tool_denylist[2]" {
		t.Errorf("Index = %q", got)
	}
	d := NewDecoder("f.yaml")
	root, _ := d.Root([]byte("guards:\n  tool_denylist: [a, b, 3]\n"))
	g := d.Fields(At("", root), []string{"guards"})[0]
	l := d.Fields(g, []string{"tool_denylist"})[0]
	d.StringList(l)
	ps := d.Problems()
	if len(ps) != 1 || ps[0].Path != "guards.tool_denylist[2]" || ps[0].Line != 2 {
		t.Errorf("problems = %v", ps)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.yaml")
	if err := os.WriteFile(ok, []byte("a: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(ok); err != nil || string(data) != "a: 1\n" {
		t.Errorf("ReadFile(ok) = %q, %v", data, err)
	}

	_, err := ReadFile(filepath.Join(dir, "missing.yaml"))
	if !errs.Is(err, errs.KindNotFound) || !strings.Contains(err.Error(), "file not found") {
		t.Errorf("missing file: %v", err)
	}

	if _, err := ReadFile(dir); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "directory") {
		t.Errorf("directory: %v", err)
	}

	at := filepath.Join(dir, "at.yaml")
	if err := os.WriteFile(at, make([]byte, MaxFileSize), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadFile(at); err != nil || len(data) != MaxFileSize {
		t.Errorf("file at the limit: %d bytes, %v", len(data), err)
	}

	for _, size := range []int64{MaxFileSize + 1, 2 << 20, 64 << 20} {
		big := filepath.Join(dir, "big.yaml")
		f, err := os.Create(big)
		if err != nil {
			t.Fatal(err)
		}
		// A sparse file: large without using the disk.
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		f.Close()
		_, err = ReadFile(big)
		if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "larger than") {
			t.Errorf("file of %d bytes: %v", size, err)
		}
	}
}

// A file named on the command line must be a regular file: a FIFO with
// no writer would otherwise leave the command waiting for ever, and a pipe
// or a device is refused the same way, naming what it is.
func TestReadFileRefusesWhatIsNotAFile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("makes a FIFO and opens a pipe through /dev/fd")
	}
	fifo := filepath.Join(t.TempDir(), "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for path, what := range map[string]string{
		fifo:                                   "is a FIFO",
		"/dev/fd/" + strconv.Itoa(int(r.Fd())): "is a FIFO",
		"/dev/null":                            "is a character device",
		t.TempDir():                            "is a directory",
	} {
		done := make(chan error, 1)
		go func() { _, err := ReadFile(path); done <- err }()
		select {
		case err := <-done:
			if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), what) {
				t.Errorf("ReadFile(%s) = %v, want it refused: %s", path, err, what)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("ReadFile(%s) is still waiting", path)
		}
	}
}

func TestCoreTagsOnTheWrongKind(t *testing.T) {
	// A core tag that does not match the node's kind is refused too.
	d, f := decodeOne(t, "!!str {a: 1}")
	if _, ok := d.Mapping(f); ok {
		t.Error("mapping tagged !!str accepted as a mapping")
	}
	onlyProblem(t, d, `must be a mapping, got a mapping tagged "!!str"`)
	d, f = decodeOne(t, "!!map [a]")
	if _, ok := d.Seq(f); ok {
		t.Error("list tagged !!map accepted as a list")
	}
	onlyProblem(t, d, `got a list tagged "!!map"`)
	d, f = decodeOne(t, "!!seq x")
	if _, ok := d.String(f); ok {
		t.Error("scalar tagged !!seq accepted as a string")
	}
	onlyProblem(t, d, "must be a string")
}

// TestSurrogateEscape: a character beyond U+FFFF escaped as a UTF-16
// surrogate pair, as JSON writers write it, is refused by the YAML reader;
// the problem says which escape, on which line, and how to write it.
func TestSurrogateEscape(t *testing.T) {
	data := []byte("{\n  \"name\": \"acme/x\",\n  \"description\": \"smile \\ud83d\\ude00\"\n}\n")
	_, problems := Parse(data, "p.json")
	if len(problems) != 1 {
		t.Fatalf("problems %v, want one", problems)
	}
	p := problems[0]
	if p.Line != 3 || !strings.Contains(p.Message, `\ud83d is half of a UTF-16 surrogate pair`) || !strings.Contains(p.Message, `\U followed by its 8 hex digits`) {
		t.Errorf("problem %+v", p)
	}
	// The same character written as YAML reads it passes.
	if _, problems := Parse([]byte("description: \"smile \\U0001F600\"\n"), "p.yaml"); len(problems) != 0 {
		t.Errorf("\\U0001F600: %v", problems)
	}
}

// TestSurrogateEscapeNotElsewhere: the escape named is the one YAML
// stopped at. A \u surrogate in a comment, or an escaped backslash before
// "ud83d", is not it; an escape beyond U+10FFFF is told as YAML tells it,
// at its own line.
func TestSurrogateEscapeNotElsewhere(t *testing.T) {
	for _, data := range []string{
		"# see \\ud83d in the docs\nname: acme/x\ndescription: \"bad \\U00110000 here\"\n",
		"name: acme/x\nnote: \"a \\\\ud83d\"\ndescription: \"bad \\U00110000 here\"\n",
	} {
		_, problems := Parse([]byte(data), "p.yaml")
		if len(problems) != 1 || problems[0].Line != 3 || strings.Contains(problems[0].Message, "surrogate") {
			t.Errorf("%q: problems %+v, want one at line 3 naming no surrogate", data, problems)
		}
	}
	// A surrogate after an out-of-range escape's line is still found at
	// its own line when it is what YAML stopped at.
	_, problems := Parse([]byte("# \\U00110000\nname: acme/x\ndescription: \"a \\\\ b \\udc00\"\n"), "p.yaml")
	if len(problems) != 1 || problems[0].Line != 3 || !strings.Contains(problems[0].Message, `\udc00 is half`) {
		t.Errorf("problems %+v", problems)
	}
}
