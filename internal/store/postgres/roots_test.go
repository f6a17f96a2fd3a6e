package postgres_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store/postgres"
)

// testCA is a self-signed CA certificate, standing for the one that
// signed a server's certificate: Open only reads it, no server is asked.
const testCA = `-----BEGIN CERTIFICATE-----
MIIBijCCAS+gAwIBAgIUQHjIB5GcMSjKUCmtuIXAKNZCbeowCgYIKoZIzj0EAwIw
GTEXMBUGA1UEAwwOYWdlbnRzIHRlc3QgQ0EwIBcNMjYxMjAyMTc0OTIxWhgPMjEy
NjExMDgxNzQ5MjFaMBkxFzAVBgNVBAMMDmFnZW50cyB0ZXN0IENBMFkwEwYHKoZI
zj0CAQYIKoZIzj0DAQcDQgAEjcVHKiwB9m/5lIA+f5WMcRFUK/bjlZ7SpHEDNy++
aMipCY1pYJJ2mF98YFaN2NXwLLvV7n4zinWaD7if6Z0/QqNTMFEwHQYDVR0OBBYE
FLJYyHOdNqbuCT0pqGMV50GBlBo7MB8GA1UdIwQYMBaAFLJYyHOdNqbuCT0pqGMV
50GBlBo7MA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSQAwRgIhANnWjBNg
ulgFxV6xyNhCV0LpywsqU801S1I5wexG96mCAiEA/074hISkdHVSRUgqEoOOXMbS
PAO/Q+safgq2n3tN4Sc=
-----END CERTIFICATE-----`

// TestRootCertificates: a URL that asks to verify the server's
// certificate names the root certificate to verify it against, as libpq
// requires (sslrootcert, PGSSLROOTCERT, ~/.postgresql/root.crt), or is
// refused with exit 3's kind before anything connects; the driver would
// verify against the operating system's CAs instead. sslrootcert=system
// goes with verify-full (or no sslmode) alone. Open connects to nothing,
// so no server is needed.
func TestRootCertificates(t *testing.T) {
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, []byte(testCA), 0o600); err != nil {
		t.Fatal(err)
	}
	withRoot := filepath.Join(dir, "with-root")
	if err := os.MkdirAll(filepath.Join(withRoot, ".postgresql"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(withRoot, ".postgresql", "root.crt"), []byte(testCA), 0o600); err != nil {
		t.Fatal(err)
	}
	serviceFile := filepath.Join(dir, "pg_service.conf")
	if err := os.WriteFile(serviceFile, []byte("[weak]\nsslmode=verify-ca\nsslrootcert=system\n[full]\nsslmode=verify-full\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const base = "postgres://u:pw@127.0.0.1:1/x"
	for _, tc := range []struct {
		name, query string
		env         map[string]string
		home        string // dir when ""
		urlOnly     bool
		want        errs.Kind // 0: accepted
		says        string
	}{
		{name: "verify-ca, no root", query: "?sslmode=verify-ca", want: errs.KindInvalid, says: "sslmode=verify-ca, but no root certificate was given"},
		{name: "verify-full, no root", query: "?sslmode=verify-full", want: errs.KindInvalid, says: `root certificate file "` + filepath.Join(dir, ".postgresql", "root.crt") + `" does not exist`},
		{name: "PGSSLMODE=verify-full, no root", env: map[string]string{"PGSSLMODE": "verify-full"}, want: errs.KindInvalid, says: "PGSSLROOTCERT=FILE"},
		{name: "a hook's hint names the URL alone", query: "?sslmode=verify-ca", urlOnly: true, want: errs.KindInvalid, says: "a hook reads no PGSSLROOTCERT"},
		{name: "a hook reads no PGSSLROOTCERT", query: "?sslmode=verify-ca", env: map[string]string{"PGSSLROOTCERT": ca}, urlOnly: true, want: errs.KindInvalid, says: "no root certificate"},
		{name: "the service's verify-full, no root", query: "?service=full&servicefile=" + serviceFile, want: errs.KindInvalid, says: "sslmode=verify-full"},
		{name: "many hosts, no root", query: "?sslmode=verify-ca", want: errs.KindInvalid, says: "no root certificate"},
		{name: "require verifies nothing", query: "?sslmode=require"},
		{name: "prefer verifies nothing", query: ""},
		{name: "disable", query: "?sslmode=disable"},
		{name: "verify-ca, sslrootcert", query: "?sslmode=verify-ca&sslrootcert=" + ca},
		{name: "verify-full, PGSSLROOTCERT", query: "?sslmode=verify-full", env: map[string]string{"PGSSLROOTCERT": ca}},
		{name: "verify-ca, ~/.postgresql/root.crt", query: "?sslmode=verify-ca", home: withRoot},
		{name: "a hook reads ~/.postgresql/root.crt", query: "?sslmode=verify-full", home: withRoot, urlOnly: true},
		{name: "verify-full, system", query: "?sslmode=verify-full&sslrootcert=system"},
		{name: "system alone is verify-full", query: "?sslrootcert=system"},
		{name: "verify-ca, system", query: "?sslmode=verify-ca&sslrootcert=system", want: errs.KindUsage, says: `sslmode "verify-ca" may not be used with sslrootcert=system`},
		{name: "require, system", query: "?sslmode=require&sslrootcert=system", want: errs.KindUsage, says: `sslmode "require"`},
		{name: "ssl=true, system", query: "?ssl=true&sslrootcert=system", want: errs.KindUsage, says: `sslmode "require"`},
		{name: "disable, system", query: "?sslmode=disable&sslrootcert=sys%74em", want: errs.KindUsage, says: `sslmode "disable"`},
		{name: "the last sslmode counts", query: "?sslmode=verify-ca&sslrootcert=system&sslmode=verify-full"},
		{name: "PGSSLROOTCERT=system, verify-ca", query: "?sslmode=verify-ca", env: map[string]string{"PGSSLROOTCERT": "system"}, want: errs.KindUsage, says: "sslrootcert=system"},
		{name: "PGSSLMODE=prefer, system", query: "?sslrootcert=system", env: map[string]string{"PGSSLMODE": "prefer"}, want: errs.KindUsage, says: `sslmode "prefer"`},
		{name: "the service's verify-ca, system", query: "?service=weak&servicefile=" + serviceFile, want: errs.KindUsage, says: `sslmode "verify-ca"`},
		{name: "the URL's sslmode beats the service's", query: "?service=weak&sslmode=verify-full&servicefile=" + serviceFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range []string{"PGSSLMODE", "PGSSLROOTCERT", "PGSERVICE", "PGSERVICEFILE", "PGHOST", "PGPORT"} {
				t.Setenv(v, tc.env[v])
			}
			home := tc.home
			if home == "" {
				home = dir
			}
			t.Setenv("HOME", home)
			url := base + tc.query
			if tc.name == "many hosts, no root" {
				url = "postgres://u:pw@127.0.0.1:1,127.0.0.2:1/x" + tc.query
			}
			s, err := postgres.Open(url, postgres.Options{URLOnly: tc.urlOnly})
			if s != nil {
				s.Close()
			}
			if tc.want == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errs.Is(err, tc.want) || !strings.Contains(err.Error()+" "+hint(err), tc.says) {
				t.Fatalf("got %v (hint %q), want kind %v saying %q", err, hint(err), tc.want, tc.says)
			}
			if strings.Contains(err.Error()+hint(err), "pw@") {
				t.Errorf("the message shows the password: %v", err)
			}
		})
	}
}

func hint(err error) string {
	var e *errs.Error
	if errors.As(err, &e) {
		return e.Hint
	}
	return ""
}
