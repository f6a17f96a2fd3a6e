package postgres

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/storeurl"
)

// fail turns an error from pgx or the server into one the command layer
// maps to an exit code: unreachable or dropped (75, retry), locked (75),
// refused to the role (7), a schema to migrate (3), or internal (1).
// Messages name the server, never the password.
func (s *Store) fail(ctx context.Context, err error, what string) error {
	if err == nil {
		return nil
	}
	var e *errs.Error
	if errors.As(err, &e) {
		return err
	}
	if errors.Is(err, errLockBusy) {
		return s.locked(what)
	}
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.Canceled)) {
		return store.Interrupted(ctx.Err())
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return s.failPg(pe, err, what)
	}
	if why := tlsRefused(err); why != "" && s.tlsRequired() {
		return errs.New(errs.KindInvalid, "the PostgreSQL store at %s cannot be reached as the URL's TLS settings require: %s", s.where, s.scrub(why)).
			WithHint("give the server's CA with sslrootcert=FILE (or PGSSLROOTCERT), check the host name in the URL, or see sslmode in docs/postgres.md")
	}
	if why := authRequirementUnmet(err); why != "" {
		return errs.New(errs.KindInvalid, "the PostgreSQL server at %s does not authenticate as the store's settings require: %s", s.where, s.scrub(why)).
			WithHint("check channel_binding and require_auth in the store URL against how the server authenticates the role (its pg_hba.conf); see docs/postgres.md")
	}
	if unreachable(err) {
		return s.unavailable(err, what)
	}
	return errs.Wrap(errs.KindInternal, errors.New(s.scrub(err.Error())), "%s (PostgreSQL store at %s)", what, s.where)
}

// failPg classifies an error the server reported.
func (s *Store) failPg(pe *pgconn.PgError, err error, what string) error {
	msg := s.scrub(pe.Message)
	user := s.cfg.User
	switch code := pe.Code; {
	case code == "40001" || code == "40P01":
		// Kept as it is, for the retry loop to see.
		return errs.Wrap(errs.KindLocked, err, "%s: another writer got in the way (PostgreSQL store at %s)", what, s.where)
	case code == "55P03":
		return s.locked(what)
	case code == "42501" && pe.Severity == "FATAL":
		// Refused as it connected: the role may not connect to the
		// database at all.
		return errs.New(errs.KindPermission, "the PostgreSQL server at %s refused the role %q: %s", s.where, user, msg).
			WithHint("grant the role CONNECT on database %s, or use a role that has it (see docs/postgres.md)", s.database())
	case code == "42501" && reading(what):
		return errs.New(errs.KindPermission, "the PostgreSQL role %q may not do this: %s, %s (store at %s)", user, what, msg, s.where).
			WithHint("grant the role USAGE on schema %s and SELECT on its tables, as docs/postgres.md shows", s.schema)
	case code == "42501":
		return errs.New(errs.KindPermission, "the PostgreSQL role %q may not do this: %s, %s (store at %s)", user, what, msg, s.where).
			WithHint("this role can read the registry; use a role with the writer's grants to change it (see docs/postgres.md)")
	case code == "25006":
		return errs.New(errs.KindPermission, "the PostgreSQL store at %s accepts no changes: %s (%s)", s.where, what, msg).
			WithHint("point the store URL at the primary server, or use a connection that may write")
	case code == "28P01" || code == "28000":
		return errs.New(errs.KindPermission, "the PostgreSQL server at %s refused the role %q: %s", s.where, user, msg).
			WithHint("check the user name and password (PGPASSWORD or ~/.pgpass), and the server's pg_hba.conf")
	case code == "3D000":
		return errs.New(errs.KindInvalid, "the PostgreSQL server at %s has no database %q", s.where, s.database()).
			WithHint("create it (createdb %s), or name another in the store URL", s.database())
	case code == "42P01" || code == "3F000":
		return s.notMigrated()
	case code == "42704" && strings.Contains(pe.Message, "configuration parameter"),
		code == "22023" && pe.Severity == "FATAL",
		code == "42601" && pe.Severity == "FATAL":
		// A parameter of the URL the server does not know, a value it
		// refuses, or options it cannot parse, told when connecting: the
		// URL is what to fix.
		return errs.New(errs.KindUsage, "the PostgreSQL server at %s refused a parameter of the store URL: %s", s.where, msg).
			WithHint("remove or correct that parameter in the store URL (see docs/postgres.md)")
	case code == "57P01" || code == "57P02" || code == "57P03" || code == "53300" || strings.HasPrefix(code, "08"):
		return s.unavailable(err, what)
	case code == "57014":
		// A statement_timeout of the role, the database or the server (or
		// someone's pg_cancel_backend) ended the statement: its
		// transaction was rolled back whole, and another try may pass.
		return errs.New(errs.KindUnavailable, "the PostgreSQL store at %s stopped %s: %s", s.where, what, msg).
			WithHint("retry: a change is made whole or not at all; if a statement_timeout (the store URL's, or the role's or the server's: ALTER ROLE %s SET statement_timeout = '30s') is too short, raise it", user)
	case strings.HasPrefix(code, "53"):
		// Out of disk, memory or connections on the server: nothing was
		// made, and the same command may pass once it has room.
		return errs.New(errs.KindUnavailable, "the PostgreSQL store at %s could not do %s: %s", s.where, what, msg).
			WithHint("the server is short of resources (disk, memory or connections): retry once it has room; a change is made whole or not at all")
	case strings.HasPrefix(code, "23"):
		return errs.New(errs.KindInternal, "the PostgreSQL store at %s refused %s: %s", s.where, what, msg).
			WithHint("the registry's tables hold what agents did not write; compare them with docs/postgres.md")
	}
	return errs.New(errs.KindInternal, "%s: PostgreSQL error %s: %s (store at %s)", what, pe.Code, msg, s.where)
}

// reading reports whether what, as a failure names it, only reads the
// registry: a role refused a read lacks the reader's grants, not only the
// writer's.
func reading(what string) bool {
	for _, p := range []string{"reading ", "listing ", "looking up "} {
		if strings.HasPrefix(what, p) {
			return true
		}
	}
	return false
}

// authRequirementUnmet says how a connection failed the URL's own
// authentication requirements (channel_binding=require, require_auth), or
// "": a retry would fail the same way, so it is not an outage. The driver
// tells these apart by their text alone: a server that authenticated
// without channel binding fails its check, and one that offers SCRAM
// without channel binding (no TLS, or no SCRAM-SHA-256-PLUS) fails the
// SASL exchange before it starts, "channel binding required but ...".
func authRequirementUnmet(err error) string {
	msg := err.Error()
	for _, m := range []string{"channel binding check failed", "require_auth check failed", "channel binding required but"} {
		if i := strings.Index(msg, m); i >= 0 {
			return msg[i:]
		}
	}
	return ""
}

// unavailable is the error of a server that cannot be reached or dropped
// the connection: the change, if one was under way, was not made (a
// transaction is whole or nothing).
func (s *Store) unavailable(err error, what string) error {
	return errs.New(errs.KindUnavailable, "the PostgreSQL store at %s is unreachable: %s (%s)", s.where, cause(err, s), what).
		WithHint("check that the server runs and this machine can reach it, then retry: a change is made whole or not at all")
}

// notMigrated is the error of a schema without the registry's tables.
func (s *Store) notMigrated() error {
	return errs.New(errs.KindInvalid, "the PostgreSQL store at %s has no registry in schema %q: it was never migrated", s.where, s.schema).
		About(errs.AboutSchema, s.schema, "missing")
}

// schemaUsableQuery says whether the role may use the store's schema
// (USAGE), with no row when the schema does not exist.
const schemaUsableQuery = "SELECT has_schema_privilege(oid, 'USAGE') FROM pg_namespace WHERE nspname = $1"

// versionFailed classifies a failure to read the schema version. The
// server answers a role without USAGE on the schema as though the schema
// held no tables, which would read as a schema never migrated (and send
// the user to migrate it); so that answer is checked with usable, which
// runs schemaUsableQuery on the same connection, and a schema that exists
// but that the role may not use is a permission error (exit 7).
func (s *Store) versionFailed(ctx context.Context, err error, usable func() (bool, error)) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Code == "42P01" || pe.Code == "3F000") {
		if ok, uerr := usable(); uerr == nil && !ok {
			return errs.New(errs.KindPermission, "the PostgreSQL role %q may not use schema %q, where the store at %s keeps the registry", s.cfg.User, s.schema, s.where).
				WithHint("grant the role USAGE on schema %s and SELECT on its tables, as docs/postgres.md shows", s.schema)
		}
	}
	return s.fail(ctx, err, "reading the schema version")
}

// usableOn runs schemaUsableQuery on a connection of pgx.
func (s *Store) usableOn(ctx context.Context, c *pgx.Conn) func() (bool, error) {
	return func() (bool, error) {
		ok := true
		err := c.QueryRow(ctx, schemaUsableQuery, s.schema).Scan(&ok)
		if errors.Is(err, pgx.ErrNoRows) {
			return true, nil
		}
		return ok, err
	}
}

// usableOnRaw runs schemaUsableQuery on a connection without pgx's types.
func (s *Store) usableOnRaw(ctx context.Context, c *pgconn.PgConn) func() (bool, error) {
	return func() (bool, error) {
		r := c.ExecParams(ctx, schemaUsableQuery, [][]byte{[]byte(s.schema)}, []uint32{textOID}, nil, nil).Read()
		if r.Err != nil {
			return false, r.Err
		}
		return len(r.Rows) == 0 || string(r.Rows[0][0]) != "f", nil
	}
}

// cause says in a few words why a connection failed.
func cause(err error, s *Store) string {
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe):
		return s.scrub(pe.Message)
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the server closed the connection"
	case errors.Is(err, os.ErrDeadlineExceeded) && !errors.As(err, new(*pgconn.ConnectError)):
		return "no answer within " + (s.opts.ReplyTimeout + max(0, s.opts.LockTimeout)).String()
	case errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err):
		return "no answer within the connect timeout (" + s.cfg.ConnectTimeout.String() + ")"
	}
	var ne *net.OpError
	if errors.As(err, &ne) && ne.Err != nil {
		return s.scrub(ne.Err.Error())
	}
	var de *net.DNSError
	if errors.As(err, &de) {
		return "cannot resolve " + de.Name
	}
	return s.scrub(innermost(err).Error())
}

// tlsRefused says why a connection failed the URL's TLS settings (an
// untrusted or mismatched certificate, or a server without TLS where the
// URL requires it), or "" when it did not: retrying would not help.
func tlsRefused(err error) string {
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	var ve *tls.CertificateVerificationError
	switch {
	case errors.As(err, &ve), errors.As(err, &ua), errors.As(err, &he), errors.As(err, &ci):
		return innermost(err).Error()
	case strings.Contains(err.Error(), "server refused TLS connection"):
		return "the server does not offer TLS"
	}
	return ""
}

// tlsRequired reports whether the URL asks for TLS whatever the server
// offers (sslmode require, verify-ca or verify-full): with prefer or allow
// a plain connection is tried too, and a failure is the server's or the
// network's, not a TLS setting to change.
func (s *Store) tlsRequired() bool {
	if s.cfg.TLSConfig == nil {
		return false
	}
	for _, f := range s.cfg.Fallbacks {
		if f.TLSConfig == nil {
			return false
		}
	}
	return true
}

// unreachable reports an error of the connection rather than of a
// statement: no server, a dropped connection, a timeout.
func unreachable(err error) bool {
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed) ||
		pgconn.Timeout(err) || strings.Contains(err.Error(), "conn closed")
}

func innermost(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// scrub keeps the password out of a message that quotes the server or a
// library.
func (s *Store) scrub(msg string) string {
	for _, secret := range s.secrets {
		msg = storeurl.Scrub(msg, secret)
	}
	return msg
}
