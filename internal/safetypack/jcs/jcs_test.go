package jcs

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// The number examples of RFC 8785 appendix B: IEEE 754 bit patterns and the
// text their canonical form must have.
func TestFormatNumberRFC8785AppendixB(t *testing.T) {
	tests := []struct {
		bits string
		want string // "" means the value has no JSON form
	}{
		{"0000000000000000", "0"},
		{"8000000000000000", "0"},
		{"0000000000000001", "5e-324"},
		{"8000000000000001", "-5e-324"},
		{"7fefffffffffffff", "1.7976931348623157e+308"},
		{"ffefffffffffffff", "-1.7976931348623157e+308"},
		{"4340000000000000", "9007199254740992"},
		{"c340000000000000", "-9007199254740992"},
		{"4430000000000000", "295147905179352830000"},
		{"7fffffffffffffff", ""},
		{"7ff0000000000000", ""},
		{"44b52d02c7e14af5", "9.999999999999997e+22"},
		{"44b52d02c7e14af6", "1e+23"},
		{"44b52d02c7e14af7", "1.0000000000000001e+23"},
		{"444b1ae4d6e2ef4e", "999999999999999700000"},
		{"444b1ae4d6e2ef4f", "999999999999999900000"},
		{"444b1ae4d6e2ef50", "1e+21"},
		{"3eb0c6f7a0b5ed8c", "9.999999999999997e-7"},
		{"3eb0c6f7a0b5ed8d", "0.000001"},
		{"41b3de4355555553", "333333333.3333332"},
		{"41b3de4355555554", "333333333.33333325"},
		{"41b3de4355555555", "333333333.3333333"},
		{"41b3de4355555556", "333333333.3333334"},
		{"41b3de4355555557", "333333333.33333343"},
		{"becbf647612f3696", "-0.0000033333333333333333"},
		{"43143ff3c1cb0959", "1424953923781206.2"},
	}
	for _, tt := range tests {
		t.Run(tt.bits, func(t *testing.T) {
			u, err := strconv.ParseUint(tt.bits, 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			got, err := FormatNumber(math.Float64frombits(u))
			if tt.want == "" {
				if err == nil {
					t.Fatalf("FormatNumber = %q, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("FormatNumber: %v", err)
			}
			if got != tt.want {
				t.Errorf("FormatNumber = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCanonicalizeRFC8785Examples(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			// Section 3.2.2: literals, numbers and string escapes.
			name: "primitives",
			in: `{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`,
			want: `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
		},
		{
			// Section 3.2.3: keys sorted by UTF-16 code units, so the
			// emoji (a surrogate pair) sorts before U+FB33.
			name: "sorting",
			in: `{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}`,
			want: "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\",\"\U0001F600\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}",
		},
		{
			name: "nested and whitespace",
			in:   " { \"b\" : [ 1 , { \"z\":1, \"a\":2 } ], \"a\" : {} , \"c\": [] } ",
			want: `{"a":{},"b":[1,{"a":2,"z":1}],"c":[]}`,
		},
		{
			name: "control characters",
			in:   `"\u0001\b\f\t\u001f\u007f"`,
			want: "\"\\u0001\\b\\f\\t\\u001f\u007f\"",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Canonicalize([]byte(tt.in))
			if err != nil {
				t.Fatalf("Canonicalize: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("Canonicalize =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestCanonicalizeRejects(t *testing.T) {
	for name, in := range map[string]string{
		"duplicate key":     `{"a":1,"a":2}`,
		"nested duplicate":  `{"x":{"a":1,"a":1}}`,
		"trailing data":     `{} {}`,
		"syntax error":      `{"a":}`,
		"number overflow":   `1e400`,
		"invalid UTF-8":     "\"\xff\"",
		"empty input":       ``,
		"unterminated list": `[1,2`,
	} {
		t.Run(name, func(t *testing.T) {
			if got, err := Canonicalize([]byte(in)); err == nil {
				t.Errorf("Canonicalize(%q) = %q, want an error", in, got)
			}
		})
	}
}

func TestMarshalMatchesCanonicalize(t *testing.T) {
	type doc struct {
		Zeta  string            `json:"zeta"`
		Alpha []float64         `json:"alpha"`
		Map   map[string]string `json:"map"`
		HTML  string            `json:"html"`
	}
	got, err := Marshal(doc{Zeta: "z", Alpha: []float64{0.1, 1e21, 1}, Map: map[string]string{"b": "2", "a": "1"}, HTML: "<&>"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"alpha":[0.1,1e+21,1],"html":"<&>","map":{"a":"1","b":"2"},"zeta":"z"}`
	if string(got) != want {
		t.Errorf("Marshal = %s, want %s", got, want)
	}
	if strings.Contains(string(got), `\u003c`) {
		t.Error("Marshal escaped HTML characters")
	}
}
