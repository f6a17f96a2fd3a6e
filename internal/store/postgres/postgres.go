// Package postgres is the store for an organisation whose machines and CI
// runners share one registry: the same store.Store as the file store, kept
// in a PostgreSQL database through pgx, held to the same conformance suite.
//
// The registry lives in one schema (agents, unless the URL's search_path
// names another): a table per collection of documents (profiles, actions,
// plans: canonical content, digest, version), the content-addressed
// objects, and the history log. Versioned migrations, embedded in the
// binary, are applied by 'agents store migrate' alone: any other use of a
// schema that is not at the version this build knows is refused.
//
// Every mutation is one transaction. Writers of a name serialise on a
// transaction-scoped advisory lock of that name, taken with lock_timeout
// set from --lock-timeout, so concurrent writers on many machines lose
// nothing and a removal or an add without --update is decided on what the
// last writer committed. A serialization failure or deadlock is retried
// while the lock timeout lasts.
//
// The SQL is written once, generically, over table descriptors (see
// table.go); the Store methods are thin adapters over it.
package postgres

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/store/postgres/early"
	"github.com/agentsctl/agents/internal/storeurl"
)

// DefaultConnectTimeout bounds connecting when the URL sets no
// connect_timeout (nor PGCONNECT_TIMEOUT): well under the time an agent
// gives a hook.
const DefaultConnectTimeout = early.DefaultConnectTimeout

// ReplyTimeoutFactor sets how long the store waits for the server's
// answer to any one exchange when Options.ReplyTimeout is not set: this
// many connect timeouts (30 s with the default connect timeout), on top
// of the lock timeout, which a statement may spend waiting on the server
// for a lock. A batch of a store copy (500 statements) takes well under a
// second on a healthy server, so only a server or network that has
// stopped answering reaches it.
const ReplyTimeoutFactor = early.ReplyTimeoutFactor

// keepAlive is how often an idle connection is probed, so a peer that
// vanished (a host powered off, a network cut) is noticed by the kernel
// rather than after the system's default of two hours.
var keepAlive = net.KeepAliveConfig{Enable: true, Idle: 15 * time.Second, Interval: 5 * time.Second, Count: 3}

// DefaultSchema is the schema the registry lives in when the URL's
// search_path does not name one.
const DefaultSchema = early.DefaultSchema

// Options configure the PostgreSQL store.
type Options struct {
	// LockTimeout bounds how long a mutation waits for another writer of
	// the same name. Zero tries once.
	LockTimeout time.Duration
	// ConnectTimeout, when positive, replaces the URL's connect_timeout.
	ConnectTimeout time.Duration
	// ReplyTimeout bounds how long the store waits for the server's
	// answer to any one exchange (a statement, a batch, a commit), on top
	// of LockTimeout: past it, the connection is closed and the operation
	// fails as unreachable (exit 75), whatever it had sent is rolled back
	// by the server. Zero is ReplyTimeoutFactor connect timeouts.
	ReplyTimeout time.Duration
	// Now stamps history events; nil stamps them with the server's clock,
	// which every machine sharing the registry agrees on.
	Now func() time.Time
	// URLOnly takes where and how to connect from the URL alone: the
	// libpq environment (PGHOST, PGPORT, PGDATABASE, PGUSER, PGSERVICE,
	// PGSSLMODE, PGSSLROOTCERT, …) is not read, but for the password
	// (PGPASSWORD, PGPASSFILE). A hook sets it: the agent that runs the
	// hook sets its environment, which must not choose the server a
	// decision is read from.
	URLOnly bool
}

// libpqSettings are the libpq environment variables the driver reads;
// passwordSettings those of them that only authenticate.
var (
	libpqSettings = []string{"PGHOST", "PGPORT", "PGDATABASE", "PGUSER", "PGPASSWORD", "PGPASSFILE", "PGAPPNAME",
		"PGCONNECT_TIMEOUT", "PGSSLMODE", "PGSSLKEY", "PGSSLCERT", "PGSSLCERTMODE", "PGSSLSNI", "PGSSLROOTCERT",
		"PGSSLPASSWORD", "PGSSLNEGOTIATION", "PGTARGETSESSIONATTRS", "PGSERVICE", "PGSERVICEFILE", "PGTZ",
		"PGOPTIONS", "PGMINPROTOCOLVERSION", "PGMAXPROTOCOLVERSION", "PGCHANNELBINDING", "PGREQUIREAUTH"}
	passwordSettings = []string{"PGPASSWORD", "PGPASSFILE"}
)

// Store is the registry in a PostgreSQL database. It holds one connection,
// made on first use; its methods are safe for concurrent use.
type Store struct {
	store.Kinds
	cfg     *pgx.ConnConfig
	secrets []string // the passwords (the URL's, the driver's), scrubbed from every message
	where   string   // the server, as messages name it
	schema  string
	opts    Options

	mu      sync.Mutex
	conn    *pgx.Conn
	checked bool // the schema's version was checked on conn
	// raw is a connection without pgx's type registry, which pgx builds
	// for its first connection in a process at a cost of about half a
	// millisecond: a lookup of one document (show, every decision) needs
	// no more than two columns' bytes. It is used only while conn is not
	// open, and closed when conn is made.
	raw        *pgconn.PgConn
	rawChecked bool // the schema's version was checked on raw
	// passwordAsked is set when the server asked for a password on a
	// connection that had sent statements ahead (see startedConn): the
	// server read them as the password, and the store connects again.
	passwordAsked *atomic.Bool
}

var (
	_ store.Store                       = (*Store)(nil)
	_ store.Transferer                  = (*Store)(nil)
	_ interface{ Close() error }        = (*Store)(nil)
	_ interface{ CloseForExit() error } = (*Store)(nil)
)

// Open returns the store the URL names, without connecting: the first
// operation connects. The URL is a libpq connection URL (postgres:// or
// postgresql://); what it leaves out comes from the libpq environment
// (PGHOST, PGUSER, PGPASSWORD, PGSERVICE, PGSSLMODE, ...) and ~/.pgpass,
// as for psql.
func Open(url string, opts Options) (*Store, error) {
	if err := storeurl.CheckAuthority(url); err != nil {
		return nil, errs.Usage("invalid store URL: %s", err.Error()).
			WithHint("give a URL such as postgres://user@host:5432/dbname?sslmode=verify-full; see docs/postgres.md")
	}
	url = storeurl.Normalize(url)
	if opts.URLOnly {
		// The driver reads the environment as it parses the URL, and has
		// no way to be told not to: the settings go from this process's
		// environment (one store is opened per process).
		for _, v := range libpqSettings {
			if !slices.Contains(passwordSettings, v) {
				os.Unsetenv(v)
			}
		}
	}
	if err := checkFiles(url); err != nil {
		return nil, err
	}
	secrets := []string{storeurl.Password(url)}
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		msg := storeurl.Scrub(parseMessage(err), secrets[0])
		return nil, errs.Usage("invalid store URL %s: %s", storeurl.Redact(url), msg).
			WithHint("give a URL such as postgres://user@host:5432/dbname?sslmode=verify-full; see docs/postgres.md")
	}
	if cfg.Password != "" && cfg.Password != secrets[0] {
		secrets = append(secrets, cfg.Password)
	}
	if err := checkRoots(&cfg.Config, url, whereOf(cfg.Config), opts.URLOnly); err != nil {
		return nil, err
	}
	schema, err := schemaOf(cfg.RuntimeParams["search_path"])
	if err != nil {
		return nil, err
	}
	if cfg.RuntimeParams["search_path"] == "" {
		cfg.RuntimeParams["search_path"] = schema
	}
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = early.DefaultAppName
	}
	if cfg.RuntimeParams["lock_timeout"] == "" {
		// A read waits for a table another session holds no longer than
		// a change waits for the store (a change sets its own): then it
		// is locked (exit 75), not a command that never returns. Sent
		// with the connection, so it costs no round trip. A lock timeout
		// of 0 ("try once") is sent as 1ms: PostgreSQL reads 0 as "wait
		// for ever".
		cfg.RuntimeParams["lock_timeout"] = strconv.FormatInt(max(1, opts.LockTimeout.Milliseconds()), 10)
	}
	switch {
	case opts.ConnectTimeout > 0:
		cfg.ConnectTimeout = opts.ConnectTimeout
	case cfg.ConnectTimeout == 0:
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	if opts.ReplyTimeout <= 0 {
		opts.ReplyTimeout = ReplyTimeoutFactor * cfg.ConnectTimeout
	}
	if cfg.RuntimeParams["idle_in_transaction_session_timeout"] == "" {
		// A client that vanishes mid-transaction (its process frozen, its
		// network cut) releases its locks when the server gives up on
		// it, not when the server's TCP stack notices.
		cfg.RuntimeParams["idle_in_transaction_session_timeout"] = strconv.FormatInt(max(1, opts.ReplyTimeout.Milliseconds()), 10)
	}
	replyWait := opts.ReplyTimeout + max(0, opts.LockTimeout)
	cfg.AfterNetConnect = func(_ context.Context, _ *pgconn.Config, c net.Conn) (net.Conn, error) {
		return &replyConn{Conn: c, wait: replyWait}, nil
	}
	asked := new(atomic.Bool)
	cfg.DialFunc = dialer(cfg, asked)
	// One short-lived connection per command: a statement is sent and
	// answered in one round trip, without preparing it first.
	cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	cfg.StatementCacheCapacity = 0
	cfg.DescriptionCacheCapacity = 0
	s := &Store{cfg: cfg, secrets: secrets, where: whereOf(cfg.Config), schema: schema, opts: opts, passwordAsked: asked}
	s.Kinds = store.NewKinds(&docs[*profile.AutomationProfile]{s, profiles}, &docs[*action.Action]{s, actions}, &docs[*plan.Plan]{s, plans})
	return s, nil
}

// dialer is how cfg's connections are dialed: the first takes the
// connection begun as the process started (package early) when it went to
// the same address and, if it sent the start-up message, with the very
// parameters this connection would send; every other is dialed here.
func dialer(cfg *pgx.ConnConfig, passwordAsked *atomic.Bool) pgconn.DialFunc {
	d := &net.Dialer{KeepAliveConfig: keepAlive}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		// The parameters as the driver builds its start-up message.
		params := maps.Clone(cfg.RuntimeParams)
		if params == nil {
			params = map[string]string{}
		}
		params["user"] = cfg.User
		if cfg.Database != "" {
			params["database"] = cfg.Database
		}
		version := uint32(pgproto3.ProtocolVersion30)
		if cfg.MaxProtocolVersion != "" && cfg.MaxProtocolVersion != "3.0" || cfg.TLSConfig != nil || len(cfg.Fallbacks) > 0 {
			version = 0 // no start-up message sent early can be this one's
		}
		fd, sent, ahead, aheadAt := early.Take(ctx, network, addr, version, params)
		if fd < 0 {
			return d.DialContext(ctx, network, addr)
		}
		f := os.NewFile(uintptr(fd), "postgres "+addr)
		c, err := net.FileConn(f)
		f.Close()
		if err == nil && c.RemoteAddr() == nil {
			// The server reset the connection before it was taken (it
			// has no peer): of no use, and the driver needs the
			// server's address, to send a cancel request to.
			c.Close()
			err = errors.New("reset")
		}
		if err != nil {
			return d.DialContext(ctx, network, addr)
		}
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetKeepAliveConfig(keepAlive)
		}
		if sent {
			return &startedConn{Conn: c, params: params, ahead: ahead, aheadAt: aheadAt, passwordAsked: passwordAsked}, nil
		}
		return c, nil
	}
}

// Schema returns the schema the registry lives in.
func (s *Store) Schema() string { return s.schema }

// Where names the server for messages: host and port, or the socket.
func (s *Store) Where() string { return s.where }

// Identity names the registry the store reads and writes: the server, the
// database and the schema. Two URLs written differently (postgres:// and
// postgresql://, parameters in another order, another user) that have the
// same identity name the same registry.
func (s *Store) Identity() string {
	return fmt.Sprintf("postgres %s database %q schema %q", s.where, s.database(), s.schema)
}

// database names the database the store connects to: the URL's, else the
// server's default, the one named as the role is.
func (s *Store) database() string {
	if s.cfg.Database == "" {
		return s.cfg.User
	}
	return s.cfg.Database
}

// Close closes the connection, if one was made.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var err error
	if s.raw != nil {
		err = s.raw.Close(ctx)
		s.raw = nil
	}
	if s.conn != nil {
		err = errors.Join(err, s.conn.Close(ctx))
		s.conn = nil
	}
	return err
}

// CloseForExit closes the store of a process that exits as soon as it
// returns. The connection pgx made (for a change, a listing, history) is
// closed as Close closes it. The connection that only looked documents up
// is left for the kernel to close as the process ends, when it holds no
// transaction: the server then ends its session after this process has
// gone, instead of running the backend's exit beside this process's last
// steps on the same processors (about half a millisecond of a lookup on a
// machine with two). PostgreSQL takes the end of a connection on which no
// transaction is open as a normal end of session, and says so only at
// its DEBUG1 log level.
func (s *Store) CloseForExit() error {
	s.mu.Lock()
	leave := s.raw != nil && !s.raw.IsClosed() && s.raw.TxStatus() == 'I'
	if leave {
		// Kept reachable, so that no finalizer closes the socket first.
		leftForExit = append(leftForExit, s.raw)
		s.raw, s.rawChecked = nil, false
	}
	s.mu.Unlock()
	return s.Close()
}

// leftForExit holds the connections CloseForExit left open.
var leftForExit []*pgconn.PgConn

// Check implements store.Store: it warns when the connection to a server on
// another machine may go unencrypted, so that anyone on the way could read
// or change the profiles.
func (s *Store) Check(context.Context) ([]store.Warning, error) {
	if local(s.cfg.Host) {
		return nil, nil
	}
	plain := s.cfg.TLSConfig == nil
	for _, fb := range s.cfg.Fallbacks {
		plain = plain || fb.TLSConfig == nil
	}
	if !plain {
		return nil, nil
	}
	return []store.Warning{{Message: fmt.Sprintf("the connection to the PostgreSQL store at %s may not be encrypted, so the network could read or change the profiles: set sslmode=verify-full in the store URL", s.where)}}, nil
}

// HandEditable implements store.HandEditable: a role with UPDATE on a
// table, or the owner of one (a trigger), can change a row without the
// history that agents writes with it, so a decision holds a custom profile
// to its history's last put, as in a home.
func (s *Store) HandEditable() bool { return true }

// schemaOf returns the schema of a search_path: its first entry.
func schemaOf(searchPath string) (string, error) {
	first, _, _ := strings.Cut(searchPath, ",")
	first = strings.TrimSpace(first)
	if first == "" {
		return DefaultSchema, nil
	}
	if !early.PlainIdent(first) {
		return "", errs.Usage("invalid schema %q in the store URL's search_path", first).
			WithHint("name a schema of lower-case letters, digits and underscores, such as agents")
	}
	return first, nil
}

func whereOf(c pgconn.Config) string {
	if strings.HasPrefix(c.Host, "/") {
		return fmt.Sprintf("socket %s/.s.PGSQL.%d", c.Host, c.Port)
	}
	return net.JoinHostPort(c.Host, fmt.Sprint(c.Port))
}

func local(host string) bool {
	if strings.HasPrefix(host, "/") || host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// parseMessage is what a URL parse error says, without the URL: pgx
// quotes the URL it could not parse, password and all.
func parseMessage(err error) string {
	msg := err.Error()
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) {
		if i := strings.LastIndex(msg, "`: "); i >= 0 {
			return msg[i+3:]
		}
		return "cannot parse it"
	}
	return msg
}

// key returns the advisory lock key of parts: a hash, so two names may
// share a key (they then wait for each other, which is safe).
func (s *Store) key(parts ...string) int64 {
	h := fnv.New64a()
	h.Write([]byte("agents\x00" + s.schema))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	return int64(h.Sum64())
}

// with runs fn on the connection, connecting (and checking the schema's
// version) first if needed. A failure is classified for the user.
func (s *Store) with(ctx context.Context, what string, fn func(c *pgx.Conn) error) error {
	return s.onConn(ctx, func(c *pgx.Conn) error {
		if !s.checked {
			if err := s.checkSchema(ctx, c); err != nil {
				return err
			}
			s.checked = true
		}
		if err := fn(c); err != nil {
			return s.fail(ctx, err, what)
		}
		return nil
	})
}

// onConn runs fn on the connection, holding s.mu, connecting first if
// needed.
func (s *Store) onConn(ctx context.Context, fn func(c *pgx.Conn) error) error {
	if err := ctx.Err(); err != nil {
		return store.Interrupted(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.connLocked(ctx)
	if err != nil {
		return err
	}
	return fn(c)
}

// sendBatch sends a batch of statements in one round trip: on a new
// connection, the schema's version is read in the same round trip, ahead
// of them.
func (s *Store) sendBatch(ctx context.Context, c *pgx.Conn, what string, b *pgx.Batch, read func(br pgx.BatchResults) error) error {
	checking := !s.checked
	if checking {
		b.QueuedQueries = append([]*pgx.QueuedQuery{{SQL: early.VersionQuery(s.schema)}}, b.QueuedQueries...)
	}
	br := c.SendBatch(ctx, b)
	if checking {
		var v *int64
		var current, misplaced *string
		if err := br.QueryRow().Scan(&v, &current, &misplaced); err != nil {
			_ = br.Close()
			return s.versionFailed(ctx, err, s.usableOn(ctx, c))
		}
		if err := s.checkSession(current, misplaced, valueOr0(v)); err != nil {
			_ = br.Close()
			return err
		}
		s.checked = true
	}
	err := read(br)
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return s.fail(ctx, err, what)
	}
	return nil
}

// lookupRow runs query, a SELECT of at most one row whose one parameter
// is arg, and returns the columns of its row, with found false when it
// has none. On a new connection the schema's version is read in the same
// round trip, ahead of it. It goes through pgx's connection when one is
// open, and otherwise through raw, so that a command which only looks up
// documents never builds pgx's type registry. Every column is read as its
// bytes: text and bytea alike.
func (s *Store) lookupRow(ctx context.Context, what, query, arg string) (cols [][]byte, found bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, false, store.Interrupted(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil && !s.conn.IsClosed() {
		var b pgx.Batch
		b.Queue(query, arg)
		err := s.sendBatch(ctx, s.conn, what, &b, func(br pgx.BatchResults) error {
			rows, err := br.Query()
			if err != nil {
				return err
			}
			defer rows.Close()
			if rows.Next() {
				cols = make([][]byte, len(rows.FieldDescriptions()))
				dest := make([]any, len(cols))
				for i := range cols {
					dest[i] = &cols[i]
				}
				if err := rows.Scan(dest...); err != nil {
					return err
				}
				found = true
			}
			return rows.Err()
		})
		return cols, found, err
	}
	c, err := s.rawLocked(ctx)
	if err != nil {
		return nil, false, err
	}
	var b pgconn.Batch
	checking := !s.rawChecked
	if checking {
		// The same statements as early.Lookup sends ahead, byte for byte.
		b.ExecParams(early.VersionQuery(s.schema), nil, nil, nil, []int16{pgx.BinaryFormatCode})
	}
	b.ExecParams(query, [][]byte{[]byte(arg)}, []uint32{textOID}, []int16{pgx.TextFormatCode}, []int16{pgx.BinaryFormatCode})
	results, err := c.ExecBatch(ctx, &b).ReadAll()
	if checking {
		if len(results) == 0 {
			if err == nil {
				err = errors.New("no answer to the version query")
			}
			return nil, false, s.versionFailed(ctx, err, s.usableOnRaw(ctx, c))
		}
		v, current, misplaced, verr := versionOf(results[0])
		if verr != nil {
			return nil, false, s.versionFailed(ctx, verr, s.usableOnRaw(ctx, c))
		}
		if verr := s.checkSession(current, misplaced, v); verr != nil {
			return nil, false, verr
		}
		s.rawChecked = true
		results = results[1:]
	}
	switch {
	case err != nil:
	case len(results) != 1:
		err = fmt.Errorf("%d answers to one query", len(results))
	default:
		err = results[0].Err
	}
	if err != nil {
		return nil, false, s.fail(ctx, err, what)
	}
	if rows := results[0].Rows; len(rows) > 0 {
		return rows[0], true, nil
	}
	return nil, false, nil
}

// textOID is PostgreSQL's type text.
const textOID = 25

// versionOf reads the answer to early.VersionQuery in binary form: the version
// (NULL, no migration, is 0, else a big-endian int8), the session's
// schema (a name: its bytes; nil when NULL) and the first of the
// registry's tables that is not a table of it (text; nil when NULL).
func versionOf(r *pgconn.Result) (version int64, current, misplaced *string, err error) {
	if r.Err != nil {
		return 0, nil, nil, r.Err
	}
	if len(r.Rows) != 1 || len(r.Rows[0]) != 3 {
		return 0, nil, nil, fmt.Errorf("the schema version came as %d rows", len(r.Rows))
	}
	textOf := func(b []byte) *string {
		if b == nil {
			return nil
		}
		t := string(b)
		return &t
	}
	current, misplaced = textOf(r.Rows[0][1]), textOf(r.Rows[0][2])
	v := r.Rows[0][0]
	switch len(v) {
	case 0:
		if v == nil {
			return 0, current, misplaced, nil
		}
	case 8:
		return int64(binary.BigEndian.Uint64(v)), current, misplaced, nil
	}
	return 0, nil, nil, fmt.Errorf("the schema version came as %d bytes", len(v))
}

// rawLocked returns the open raw connection or makes one; s.mu is held.
func (s *Store) rawLocked(ctx context.Context) (*pgconn.PgConn, error) {
	if s.raw != nil && !s.raw.IsClosed() {
		return s.raw, nil
	}
	s.raw, s.rawChecked = nil, false
	s.passwordAsked.Store(false)
	c, err := pgconn.ConnectConfig(ctx, &s.cfg.Config)
	if err != nil && s.passwordAsked.Swap(false) {
		c, err = pgconn.ConnectConfig(ctx, &s.cfg.Config) // dialed anew
	}
	if err != nil {
		return nil, s.fail(ctx, err, "connecting")
	}
	s.raw = c
	return c, nil
}

// connLocked returns the open connection or makes one; s.mu is held.
func (s *Store) connLocked(ctx context.Context) (*pgx.Conn, error) {
	if s.conn != nil && !s.conn.IsClosed() {
		return s.conn, nil
	}
	s.conn, s.checked = nil, false
	if s.raw != nil {
		// One connection at a time: the server counts them.
		_ = s.raw.Close(ctx)
		s.raw, s.rawChecked = nil, false
	}
	s.passwordAsked.Store(false)
	c, err := pgx.ConnectConfig(ctx, s.cfg)
	if err != nil && s.passwordAsked.Swap(false) {
		c, err = pgx.ConnectConfig(ctx, s.cfg) // dialed anew
	}
	if err != nil {
		return nil, s.fail(ctx, err, "connecting")
	}
	s.conn = c
	return c, nil
}

// write runs fn as one transaction that holds the advisory locks of the
// given names in coll (for a whole collection when names is nil),
// retrying on a serialization failure or deadlock while the lock timeout
// lasts. Readers take no lock: each statement sees committed data.
func (s *Store) write(ctx context.Context, coll string, names []string, what string, fn func(tx pgx.Tx) error) error {
	return s.writeColls(ctx, []string{coll}, names, what, fn)
}

func (s *Store) writeColls(ctx context.Context, colls []string, names []string, what string, fn func(tx pgx.Tx) error) error {
	deadline := time.Now().Add(s.opts.LockTimeout)
	delay := 5 * time.Millisecond
	for {
		err := s.with(ctx, what, func(c *pgx.Conn) error {
			tx, err := c.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
			if err != nil {
				return err
			}
			if err := s.lock(ctx, tx, colls, names, time.Until(deadline)); err != nil {
				_ = tx.Rollback(context.WithoutCancel(ctx))
				return err
			}
			if err := fn(tx); err != nil {
				_ = tx.Rollback(context.WithoutCancel(ctx))
				return err
			}
			// Once the change is whole, a signal no longer stops it: a
			// commit cut off would leave its outcome unknown, and the
			// command would say it was interrupted of a change the server
			// made. The reply timeout still bounds the wait.
			return tx.Commit(context.WithoutCancel(ctx))
		})
		if !retryable(err) || time.Now().After(deadline) {
			if retryable(err) {
				return s.locked(what)
			}
			return err
		}
		t := time.NewTimer(min(delay, time.Until(deadline)+time.Millisecond))
		select {
		case <-ctx.Done():
			t.Stop()
			return store.Interrupted(ctx.Err())
		case <-t.C:
		}
		delay = min(delay*2, 200*time.Millisecond)
	}
}

// lock takes the transaction's advisory locks: with names, the
// collection's shared and each name's exclusive lock; without, each
// collection's exclusive lock (a copy's). It waits at most left, and not
// at all when left is not positive.
func (s *Store) lock(ctx context.Context, tx pgx.Tx, colls, names []string, left time.Duration) error {
	var shared, excl []int64
	if names == nil {
		for _, c := range colls {
			excl = append(excl, s.key(c))
		}
	} else {
		for _, c := range colls {
			shared = append(shared, s.key(c))
			for _, n := range names {
				excl = append(excl, s.key(c, n))
			}
		}
	}
	if left <= 0 {
		var ok bool
		err := tx.QueryRow(ctx, `SELECT coalesce(bool_and(pg_try_advisory_xact_lock_shared(k)), true) AND
			(SELECT coalesce(bool_and(pg_try_advisory_xact_lock(k)), true) FROM unnest($2::int8[]) AS k)
			FROM unnest($1::int8[]) AS k`, shared, excl).Scan(&ok)
		if err == nil && !ok {
			err = errLockBusy
		}
		return err
	}
	ms := max(left.Milliseconds(), 1)
	_, err := tx.Exec(ctx, `SELECT set_config('lock_timeout', $1, true),
		(SELECT count(pg_advisory_xact_lock_shared(k)) FROM unnest($2::int8[]) AS k),
		(SELECT count(pg_advisory_xact_lock(k)) FROM unnest($3::int8[]) AS k)`, fmt.Sprintf("%dms", ms), shared, excl)
	return err
}

var errLockBusy = errors.New("lock busy")

// locked is the error of a mutation that could not take its lock in time.
func (s *Store) locked(what string) error {
	return errs.New(errs.KindLocked, "the store is locked by another writer: gave up %s after %s (PostgreSQL store at %s)", what, s.opts.LockTimeout, s.where).
		About(errs.AboutLock, s.where)
}

// retryable reports a transaction that failed only because it ran at the
// same time as another.
func retryable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "40001" || pe.Code == "40P01"
	}
	return false
}

// now is the time to stamp a history event with: nil for the server's
// clock.
func (s *Store) now() *time.Time {
	if s.opts.Now == nil {
		return nil
	}
	t := s.opts.Now().UTC().Round(0)
	return &t
}

// replyConn is a connection on which every read and write gives up after
// wait: a server or network that stops answering once connected makes
// the operation fail (and pgx close the connection) instead of hanging.
// A deadline the driver sets itself (to cancel a call when its context
// ends) is kept when it comes sooner.
type replyConn struct {
	net.Conn
	wait time.Duration

	mu          sync.Mutex
	read, write time.Time // the driver's own deadlines; zero when none
	// silent is set once the server has let wait pass without a word:
	// every later read and write fails at once, so that the driver's
	// attempt to drain or close the exchange does not wait as long again.
	silent bool
}

func (c *replyConn) Read(b []byte) (int, error) { return c.bounded(true, c.Conn.Read, b) }

func (c *replyConn) Write(b []byte) (int, error) { return c.bounded(false, c.Conn.Write, b) }

// bounded does one read (or write), op, under the deadline arm sets, and
// notes whether ours passed.
func (c *replyConn) bounded(read bool, op func([]byte) (int, error), b []byte) (int, error) {
	limit, err := c.arm(read)
	if err != nil {
		return 0, err
	}
	n, err := op(b)
	c.noteTimeout(err, limit)
	return n, err
}

// arm sets the deadline of the next read (or write): the driver's when it
// comes first, else wait from now; limit is ours, or zero when the
// driver's was set. A connection gone silent fails at once.
func (c *replyConn) arm(read bool) (limit time.Time, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.silent {
		return time.Time{}, os.ErrDeadlineExceeded
	}
	driver := c.write
	if read {
		driver = c.read
	}
	limit = time.Now().Add(c.wait)
	d := sooner(driver, limit)
	if !d.Equal(limit) {
		limit = time.Time{}
	}
	if read {
		return limit, c.Conn.SetReadDeadline(d)
	}
	return limit, c.Conn.SetWriteDeadline(d)
}

// noteTimeout marks the connection silent when err is our own deadline
// passing (limit not zero), not one the driver set.
func (c *replyConn) noteTimeout(err error, limit time.Time) {
	if err == nil || limit.IsZero() || !errors.Is(err, os.ErrDeadlineExceeded) {
		return
	}
	c.mu.Lock()
	c.silent = true
	c.mu.Unlock()
}

func (c *replyConn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.read, c.write = t, t
	return c.Conn.SetDeadline(t)
}

func (c *replyConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.read = t
	return c.Conn.SetReadDeadline(t)
}

func (c *replyConn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.write = t
	return c.Conn.SetWriteDeadline(t)
}

// sooner returns the driver's deadline when it is set and comes before
// limit, limit otherwise.
func sooner(driver, limit time.Time) time.Time {
	if !driver.IsZero() && driver.Before(limit) {
		return driver
	}
	return limit
}
