package safetypack

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The grammar the hand-written checks of syntax.go implement, as patterns.
var (
	packIDPattern = regexp.MustCompile(`^[a-z0-9]+(?:[_-][a-z0-9]+)*_v(0|[1-9][0-9]*)$`)
	semverPattern = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:-((?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)
	sha256Pattern = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// strs calls f with every string over the alphabet up to n bytes long.
func strs(alphabet string, n int, f func(string)) {
	f("")
	cur := []string{""}
	for range n {
		var next []string
		for _, s := range cur {
			for i := 0; i < len(alphabet); i++ {
				t := s + alphabet[i:i+1]
				f(t)
				next = append(next, t)
			}
		}
		cur = next
	}
}

// randomStrs calls f with n random strings over the alphabet, up to max
// bytes long.
func randomStrs(alphabet string, n, max int, f func(string)) {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for range n {
		b.Reset()
		for range r.IntN(max + 1) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		f(b.String())
	}
}

func TestPackIDMatchesItsPattern(t *testing.T) {
	check := func(s string) {
		major, ok := packIDMajor(s)
		m := packIDPattern.FindStringSubmatch(s)
		if ok != (m != nil) || ok && major != m[1] {
			t.Errorf("packIDMajor(%q) = %q, %v; the pattern says %q", s, major, ok, m)
		}
	}
	strs("a0_-v1", 7, check)
	randomStrs("abv019_-xV.", 200000, 24, check)
	for _, s := range []string{"core_safety_axes_v1", "acme_lockdown_v1", "a_v1_v2", "a-b_v10", "a__b_v1", "_a_v1", "a_v01", "a_v", "a_v1-", "acme_v1\n"} {
		check(s)
	}
}

func TestSemverMatchesItsPattern(t *testing.T) {
	check := func(s string) {
		major, ok := semverMajor(s)
		m := semverPattern.FindStringSubmatch(s)
		if ok != (m != nil) || ok && major != m[1] {
			t.Errorf("semverMajor(%q) = %q, %v; the pattern says %q", s, major, ok, m)
		}
	}
	strs("01.-+a", 7, check)
	randomStrs("0129.-+aZ_x", 300000, 24, check)
	for _, s := range []string{"1.0.0", "1.0.0-rc.1+build.5", "1.0.0-0.3.7", "1.0.0-x.7.z.92", "1.0.0-alpha+001", "1.0.0+20130313144700",
		"1.0.0-beta+exp.sha.5114f85", "1.0.0-01", "01.0.0", "1.0", "1.0.0-", "1.0.0+", "1.0.0-a..b", "1.0.0-a-b--c", "1.0.0+-", "1.2.3.4", "v1.0.0"} {
		check(s)
	}
}

func TestSHA256HexMatchesItsPattern(t *testing.T) {
	check := func(s string) {
		if got, want := isSHA256Hex(s), sha256Pattern.MatchString(s); got != want {
			t.Errorf("isSHA256Hex(%q) = %v, the pattern says %v", s, got, want)
		}
	}
	randomStrs("0af9gA", 20000, 66, check)
	for _, s := range []string{strings.Repeat("a", 64), strings.Repeat("f", 63) + "g", strings.Repeat("0", 65), strings.Repeat("A", 64), strings.Repeat("9", 64) + "\n"} {
		check(s)
	}
}
