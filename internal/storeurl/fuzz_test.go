package storeurl

import (
	"strings"
	"testing"
)

// FuzzRedact: whatever a password in a URL's user information holds, and
// whatever follows its @, Redact shows none of it, and Password finds
// all of it. The seeds (testdata/fuzz/FuzzRedact) run with every go test.
func FuzzRedact(f *testing.F) {
	f.Add("s3cret", "db.example.com:5432/agents?sslmode=verify-full")
	f.Fuzz(func(t *testing.T, password, rest string) {
		const prefix = "postgres://agents:"
		u := prefix + password + "@" + rest
		shown := prefix + Mask + "@" + rest
		if password == "" || strings.Contains(shown, password) {
			t.Skip("the password is also in what may be shown")
		}
		if got := Redact(u); strings.Contains(got, password) {
			t.Fatalf("Redact(%q) = %q shows the password", u, got)
		}
		if !strings.Contains(rest, "@") {
			if got := Password(u); got != unescape(password) {
				t.Fatalf("Password(%q) = %q, want %q", u, got, unescape(password))
			}
		}
	})
}

// FuzzRedactMistyped: a store value that is no URL but reads like one
// carrying a password (a scheme without its "//", a user:password@host
// with no scheme) shows nothing of what stands between its first ':' and
// its last '@'.
func FuzzRedactMistyped(f *testing.F) {
	f.Add("postgres:/u", "SECRET", "host/db")
	f.Add("postgres//u", "SEC/RET", "h/db")
	f.Fuzz(func(t *testing.T, head, password, rest string) {
		if strings.Contains(head, "://") || strings.Contains(head+password, "@") || strings.ContainsAny(rest, "@") {
			t.Skip("not the shape under test")
		}
		s := head + ":" + password + "@" + rest
		if LooksLikeURL(s) || password == "" || strings.Contains(head+":"+Mask+"@"+rest, password) {
			t.Skip("the password is also in what may be shown")
		}
		if got := Redact(s); strings.Contains(got, password) {
			t.Fatalf("Redact(%q) = %q shows the password", s, got)
		}
	})
}
