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
