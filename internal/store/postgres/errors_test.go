package postgres

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/agentsctl/agents/internal/errs"
)

// TestPermissionHints: a refusal for want of a grant is exit 7's kind
// whatever was refused, and its hint names the grant that was wanting:
// CONNECT when the server refused the connection, the reader's when a read
// was refused, the writer's when a change was.
func TestPermissionHints(t *testing.T) {
	s, err := Open("postgres://ci@127.0.0.1:1/reg?sslmode=disable&search_path=team", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		severity, message, what string
		hint, notHint           string
	}{
		{"FATAL", `permission denied for database "reg"`, "connecting", "CONNECT on database reg", "can read"},
		{"ERROR", "permission denied for table goose_db_version", "reading the schema version", "SELECT on its tables", "can read"},
		{"ERROR", "permission denied for table profiles", "listing profiles", "SELECT on its tables", "can read"},
		{"ERROR", "permission denied for table profiles", "reading profile acme/x", "SELECT on its tables", "can read"},
		{"ERROR", "permission denied for table objects", "writing profile acme/x", "writer's grants", "SELECT on its tables"},
	} {
		err := s.fail(context.Background(), &pgconn.PgError{Severity: c.severity, Code: "42501", Message: c.message}, c.what)
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != errs.KindPermission || !strings.Contains(e.Error(), `"ci"`) {
			t.Errorf("%s: %v, want a permission error naming the role", c.what, err)
			continue
		}
		if !strings.Contains(e.Hint, c.hint) || strings.Contains(e.Hint, c.notHint) {
			t.Errorf("%s: hint %q, want one saying %q (and not %q)", c.what, e.Hint, c.hint, c.notHint)
		}
	}
	// A URL that names no database connects to the role's own, as the
	// server reads it: the hint names that one.
	s, err = Open("postgres://ci@127.0.0.1:1/?sslmode=disable", Options{URLOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	err = s.fail(context.Background(), &pgconn.PgError{Severity: "FATAL", Code: "42501", Message: `permission denied for database "ci"`}, "connecting")
	var e *errs.Error
	if !errors.As(err, &e) || !strings.Contains(e.Hint, "CONNECT on database ci,") {
		t.Errorf("no database in the URL: %v, hint %q, want one naming database ci", err, e.Hint)
	}
	err = s.fail(context.Background(), &pgconn.PgError{Severity: "FATAL", Code: "3D000", Message: `database "ci" does not exist`}, "connecting")
	if !errors.As(err, &e) || !strings.Contains(e.Error(), `has no database "ci"`) || !strings.Contains(e.Hint, "createdb ci)") {
		t.Errorf("no database in the URL, none named as the role: %v, hint %q", err, e.Hint)
	}
}

// TestServerShortOrStopped: a statement the server cancelled (its
// statement_timeout) or could not run for want of disk or memory was
// rolled back whole, so it is a retry (exit 75's kind), not an internal
// error; a constraint the tables broke stays internal.
func TestServerShortOrStopped(t *testing.T) {
	s, err := Open("postgres://ci@127.0.0.1:1/reg?sslmode=disable&search_path=team", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for code, want := range map[string]errs.Kind{
		"57014": errs.KindUnavailable, // canceling statement due to statement timeout
		"53100": errs.KindUnavailable, // disk full
		"53200": errs.KindUnavailable, // out of memory
		"53300": errs.KindUnavailable, // too many connections
		"23503": errs.KindInternal,    // a foreign key broken
		"XX000": errs.KindInternal,
	} {
		err := s.fail(context.Background(), &pgconn.PgError{Severity: "ERROR", Code: code, Message: "m"}, "writing profile acme/x")
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != want {
			t.Errorf("code %s: %v, want kind %v", code, err, want)
		}
	}
}

// TestAuthenticationRequirementUnmet: a server that does not authenticate
// as channel_binding or require_auth in the URL demand is refused as the
// settings' mismatch it is (invalid, exit 3): retrying would not help.
func TestAuthenticationRequirementUnmet(t *testing.T) {
	s, err := Open("postgres://ci@127.0.0.1:1/reg?sslmode=disable&search_path=team", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range []string{
		"127.0.0.1:1 (127.0.0.1): channel binding check failed: channel binding required but server did not authenticate using channel binding",
		`127.0.0.1:1 (127.0.0.1): require_auth check failed: authentication method requirement "scram-sha-256" failed: server did not complete authentication`,
		"127.0.0.1:1 (127.0.0.1): failed SASL auth: channel binding required but server does not support SCRAM-SHA-256-PLUS",
		"127.0.0.1:1 (127.0.0.1): failed SASL auth: channel binding required but channel binding data is not available",
	} {
		err := s.fail(context.Background(), errors.New(msg), "connecting")
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != errs.KindInvalid || strings.Contains(e.Msg, "(127.0.0.1)") || !strings.Contains(e.Hint, "channel_binding") {
			t.Errorf("%s: %v, want invalid input without the address twice", msg, err)
		}
	}
}
