package early

import (
	"maps"
	"strings"
	"testing"
)

// FuzzDecode: whatever Decode accepts, Encode writes back to a message
// Decode reads the same.
func FuzzDecode(f *testing.F) {
	f.Add(Encode(protocol30, defaults))
	f.Add([]byte("\x00\x00\x00\x09\x00\x03\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, p, ok := Decode(b)
		if !ok {
			return
		}
		v2, p2, ok := Decode(Encode(v, p))
		if !ok || v2 != v || !maps.Equal(p, p2) {
			t.Fatalf("%q: read %x %v, then %x %v %v", b, v, p, v2, p2, ok)
		}
	})
}

// FuzzGuess: a store URL is either left to the driver or read into an
// address it names and, only for sslmode=disable with a user and a
// database, a start-up message with the store's settings.
func FuzzGuess(f *testing.F) {
	for _, u := range []string{plain, plain + "&search_path=x&connect_timeout=7", "postgres://a:b@10.1.2.3:6543/d",
		"postgresql://u@127.0.0.1/?sslmode=disable", "postgres://u@1.2.3.4/db?=x", "postgres://@1.2.3.4/db"} {
		f.Add(u, "")
		f.Add(u, "250ms")
	}
	f.Fuzz(func(t *testing.T, url, lockTimeout string) {
		args := []string{"--store", url, "--lock-timeout", lockTimeout, "plan", "list"}
		g, ok := guessFrom(args, func(string) string { return "" })
		if !ok {
			return
		}
		host, _, _ := strings.Cut(g.Address, ":")
		if _, _, err := splitAddress(g.Address); err != nil || g.Network != "tcp" || !strings.Contains(url, "@"+host) {
			t.Fatalf("%q: dials %s %s", url, g.Network, g.Address)
		}
		if g.Params == nil {
			return
		}
		if !strings.Contains(url, "sslmode=disable") || g.Params["user"] == "" || g.Params["database"] == "" ||
			g.Params["search_path"] == "" || g.Params["application_name"] == "" || g.Params["lock_timeout"] == "" ||
			g.Params["idle_in_transaction_session_timeout"] == "" {
			t.Fatalf("%q: start-up %v", url, g.Params)
		}
		if b := Encode(protocol30, g.Params); len(b) < 9 {
			t.Fatalf("%q: message %q", url, b)
		} else if _, p, ok := Decode(b); !ok || !maps.Equal(p, g.Params) {
			t.Fatalf("%q: message %q does not read back", url, b)
		}
	})
}
