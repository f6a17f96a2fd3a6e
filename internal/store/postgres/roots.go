package postgres

import (
	"crypto/tls"
	"os"
	"path/filepath"
	"strings"

	"github.com/jackc/pgservicefile"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/agentsctl/agents/internal/errs"
)

// checkRoots holds the URL's TLS settings to libpq's rules for the root
// certificates a server's certificate is verified against, where pgx
// parts from them (the driver does read ~/.postgresql/root.crt when it
// exists and nothing names another file, as libpq does):
//
//   - sslmode=verify-ca or verify-full with no root certificate given
//     (no sslrootcert, no PGSSLROOTCERT, no ~/.postgresql/root.crt) is
//     refused, as libpq refuses it: pgx would verify the server against
//     the operating system's CAs, which vouch for any host that has a
//     public certificate, so a URL that asks for the store's own CA
//     would be satisfied by anyone's;
//   - sslrootcert=system, the operating system's CAs (libpq 16), is
//     taken with sslmode=verify-full or no sslmode only: pgx would turn
//     any other sslmode into verify-full, libpq refuses it.
//
// urlOnly says that the libpq environment is not read (Options.URLOnly),
// for the hint. The messages name the server (where), never the URL.
func checkRoots(cfg *pgconn.Config, url, where string, urlOnly bool) error {
	if mode, ok := unrooted(cfg); ok {
		file := defaultRootFile()
		given := "sslrootcert=FILE in the store URL, PGSSLROOTCERT=FILE, or " + file
		if urlOnly {
			given = "sslrootcert=FILE in the store URL (a hook reads no PGSSLROOTCERT), or " + file
		}
		return errs.New(errs.KindInvalid, "the store's settings ask for sslmode=%s, but no root certificate was given to verify the PostgreSQL server at %s against: no sslrootcert, and root certificate file %q does not exist", mode, where, file).
			WithHint("give the CA that signed the server's certificate: %s; or trust the system's CAs with sslrootcert=system and sslmode=verify-full", given)
	}
	if !systemRoots(cfg) {
		return nil
	}
	if mode, root := givenTLS(url); root == "system" && mode != "" && mode != "verify-full" {
		return errs.Usage("sslmode %q may not be used with sslrootcert=system: the system's CAs vouch for a server by its host name, which only verify-full checks", mode).
			WithHint("use sslmode=verify-full with sslrootcert=system, or give the server's CA with sslrootcert=FILE")
	}
	return nil
}

// tlsConfigs returns the TLS settings of every connection cfg may make,
// nil for a plain one.
func tlsConfigs(cfg *pgconn.Config) []*tls.Config {
	out := []*tls.Config{cfg.TLSConfig}
	for _, fb := range cfg.Fallbacks {
		out = append(out, fb.TLSConfig)
	}
	return out
}

// unrooted reports whether a connection of cfg verifies the server's
// certificate with no root certificate given, and the sslmode that asks
// it to. pgx sets RootCAs whenever an sslrootcert is given; it verifies
// the chain itself (VerifyPeerCertificate) for verify-ca, and lets the
// TLS library verify chain and host name for verify-full.
func unrooted(cfg *pgconn.Config) (string, bool) {
	for _, tc := range tlsConfigs(cfg) {
		switch {
		case tc == nil || tc.RootCAs != nil:
		case !tc.InsecureSkipVerify:
			return "verify-full", true
		case tc.VerifyPeerCertificate != nil:
			return "verify-ca", true
		}
	}
	return "", false
}

// systemRoots reports whether a connection of cfg verifies the server's
// host name against a root certificate given, as pgx makes every
// connection of sslrootcert=system do: only then need the sslmode given
// be looked at.
func systemRoots(cfg *pgconn.Config) bool {
	for _, tc := range tlsConfigs(cfg) {
		if tc != nil && tc.RootCAs != nil && !tc.InsecureSkipVerify {
			return true
		}
	}
	return false
}

// defaultRootFile is the root certificate file libpq and pgx read when
// nothing names one: ~/.postgresql/root.crt, home being $HOME.
func defaultRootFile() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return "~/.postgresql/root.crt"
	}
	return filepath.Join(home, ".postgresql", "root.crt")
}

// givenTLS returns the sslmode and sslrootcert the driver read for url,
// from where it read them, first to last: the URL's parameters (the last
// of a repeated one; ssl=true is sslmode=require), the service the URL or
// PGSERVICE names, the environment (PGSSLMODE, PGSSLROOTCERT). "" is a
// setting none of them gives. The URL parsed already, so its parameters
// are read without checking them again.
func givenTLS(url string) (mode, root string) {
	q := query(url)
	mode, root = q["sslmode"], q["sslrootcert"]
	if svc := firstSet(q["service"], os.Getenv("PGSERVICE")); svc != "" && (mode == "" || root == "") {
		file := firstSet(q["servicefile"], os.Getenv("PGSERVICEFILE"))
		if file == "" {
			if home, err := os.UserHomeDir(); err == nil {
				file = filepath.Join(home, ".pg_service.conf")
			}
		}
		if sf, err := pgservicefile.ReadServicefile(file); err == nil {
			if s, err := sf.GetService(svc); err == nil {
				mode, root = firstSet(mode, s.Settings["sslmode"]), firstSet(root, s.Settings["sslrootcert"])
			}
		}
	}
	return firstSet(mode, os.Getenv("PGSSLMODE")), firstSet(root, os.Getenv("PGSSLROOTCERT"))
}

// query returns the parameters of a postgres:// URL as the driver reads
// them: after the first ? that follows the host list, split at &, each
// side %-decoded and trimmed of spaces, the last of a key winning.
func query(url string) map[string]string {
	q := map[string]string{}
	_, rest, _ := strings.Cut(url, "://")
	if i := strings.IndexAny(rest, "@/"); i >= 0 && rest[i] == '@' {
		rest = rest[i+1:]
	}
	_, params, ok := strings.Cut(rest, "?")
	if !ok {
		return q
	}
	sslLast := false
	for pair := range strings.SplitSeq(params, "&") {
		k, v, _ := strings.Cut(pair, "=")
		k, v = uriDecode(k), uriDecode(v)
		switch k {
		case "ssl":
			sslLast = true
		case "sslmode":
			sslLast = false
		}
		q[k] = v
	}
	if q["ssl"] == "true" && sslLast {
		q["sslmode"] = "require"
	}
	return q
}

// uriDecode decodes a URL's %-escapes, as libpq does, and trims spaces.
func uriDecode(s string) string {
	s = strings.Trim(s, " ")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				b.WriteByte(hi<<4 | lo)
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func firstSet(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
