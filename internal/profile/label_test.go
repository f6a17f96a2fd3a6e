package profile

import (
	"regexp"
	"strings"
	"testing"
)

// TestIsLabelMatchesThePattern holds the hand-written label check to the
// DNS-1123 label pattern it replaces, on edge cases and on every string of
// up to three characters over an alphabet that covers each class.
func TestIsLabelMatchesThePattern(t *testing.T) {
	re := regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)
	cases := []string{
		"", "a", "-", "a-", "-a", "a-b", "a--b", "A", "aB", "a_b", "a.b", "a/b", "é", "a b",
		strings.Repeat("a", 62), strings.Repeat("a", 63), strings.Repeat("a", 64),
		strings.Repeat("a", 62) + "-", "a" + strings.Repeat("-", 61) + "b",
	}
	alphabet := []string{"a", "z", "0", "9", "-", "A", "_", "/", "\x00", "é"}
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		cases = append(cases, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(prefix+c, n-1)
		}
	}
	gen("", 3)
	for _, s := range cases {
		if got, want := isLabel(s), re.MatchString(s); got != want {
			t.Errorf("isLabel(%q) = %v, the pattern says %v", s, got, want)
		}
	}
}
