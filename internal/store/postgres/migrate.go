package postgres

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store/postgres/early"
)

// The schema's migrations, applied in the order of their numbers by goose.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// LatestVersion is the schema version this build of agents works with: the
// number of its newest migration.
var LatestVersion = sync.OnceValue(func() int64 {
	entries, _ := fs.ReadDir(migrationFiles, "migrations")
	var latest int64
	for _, e := range entries {
		n, _, _ := strings.Cut(e.Name(), "_")
		if v, err := strconv.ParseInt(n, 10, 64); err == nil && v > latest {
			latest = v
		}
	}
	return latest
})

// checkSchema refuses a session in a schema other than the store's, and
// a schema that is not at the version this build knows: an unmigrated one
// (run 'agents store migrate') or a newer one (upgrade agents). Nothing
// ever migrates it by surprise.
func (s *Store) checkSchema(ctx context.Context, c *pgx.Conn) error {
	var v *int64
	var current, misplaced *string
	if err := c.QueryRow(ctx, early.VersionQuery(s.schema)).Scan(&v, &current, &misplaced); err != nil {
		return s.versionFailed(ctx, err, s.usableOn(ctx, c))
	}
	return s.checkSession(current, misplaced, valueOr0(v))
}

// checkSession refuses a session whose search_path puts another schema
// first than the one the store names (nil: none of it exists), and then a
// schema version other than this build's. The store names its tables
// without a schema, so in another schema it would read another registry:
// a connection pooler that drops the search_path of the start-up message
// (PgBouncer's ignore_startup_parameters) leaves the server's own. It
// then refuses a schema where one of the registry's tables (misplaced, nil
// when none) is not a table of that schema: dropped, so that the session
// would find the next schema's of its search_path, or replaced by a view
// or anything else that would answer for it. What such a session reads is
// not the registry the store names, and nothing is decided from it. The
// version is judged first: a schema at another version may lack tables of
// this one's without harm (at version 0, goose's table alone, all of them:
// a registry never migrated, not a damaged one), and is refused anyway.
func (s *Store) checkSession(current, misplaced *string, version int64) error {
	if current == nil || *current != s.schema {
		in := "in no schema (none of its search_path exists)"
		if current != nil {
			in = fmt.Sprintf("in schema %q", *current)
		}
		return errs.New(errs.KindInvalid, "the PostgreSQL server at %s puts this session %s, not in schema %q that the store names", s.where, in, s.schema).
			WithHint("a connection pooler that drops search_path must set it to %s itself (PgBouncer: connect_query); see docs/postgres.md", s.schema)
	}
	if err := s.checkVersion(version); err != nil {
		return err
	}
	if misplaced != nil {
		return errs.New(errs.KindInvalid, "the registry in the PostgreSQL store at %s (schema %q) is damaged: %s is not a table of that schema, so this session would read it from elsewhere or from something in its place", s.where, s.schema, *misplaced).
			WithHint("restore schema %s from a backup (see docs/postgres.md)", s.schema)
	}
	return nil
}

// checkVersion refuses a schema version other than this build's.
func (s *Store) checkVersion(have int64) error {
	switch want := LatestVersion(); {
	case have == 0:
		return s.notMigrated()
	case have < want:
		return errs.New(errs.KindInvalid, "the registry in the PostgreSQL store at %s (schema %q) is at version %d, and this agents needs version %d", s.where, s.schema, have, want).
			About(errs.AboutSchema, s.schema, "old")
	case have > want:
		return errs.New(errs.KindInvalid, "the registry in the PostgreSQL store at %s (schema %q) is at version %d, newer than this agents knows (%d)", s.where, s.schema, have, want).
			WithHint("upgrade agents to the version that migrated it")
	}
	return nil
}

func valueOr0(v *int64) int64 {
	if v == nil {
		return 0
	}
	return *v
}

// MigrateResult says what Migrate did.
type MigrateResult struct {
	// Schema is where the registry lives.
	Schema string `json:"schema"`
	// From and To are the schema versions before and after.
	From int64 `json:"from"`
	To   int64 `json:"to"`
	// Applied lists the migrations applied, by file name.
	Applied []string `json:"applied"`
	// Redecoded counts the documents whose derived fast form was made
	// again for this build of agents.
	Redecoded int `json:"redecoded"`
}

// Migrate brings the registry's schema to the version this build knows,
// creating the schema first if needed. It holds a session advisory lock
// (goose's, keyed by the schema) throughout, so two migrations never run
// at once; the migrations themselves each run in a transaction. A schema
// newer than this build knows is refused and left alone. It then makes the
// fast form of every profile this build cannot read again (see table.go).
func (s *Store) Migrate(ctx context.Context) (*MigrateResult, error) {
	res := &MigrateResult{Schema: s.schema, Applied: []string{}}
	db := stdlib.OpenDB(*s.cfg)
	defer db.Close()
	db.SetMaxOpenConns(2)
	fail := func(err error, what string) error {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "42501" && pe.Severity != "FATAL" {
			return errs.New(errs.KindPermission, "the PostgreSQL role %q may not migrate the store at %s: %s", s.cfg.User, s.where, s.scrub(pe.Message)).
				About(errs.AboutSchema, s.schema, "create")
		}
		return s.fail(ctx, err, what)
	}
	var exists, usable bool
	if err := db.QueryRowContext(ctx, "SELECT count(*) > 0, coalesce(bool_and(has_schema_privilege(oid, 'USAGE')), true) FROM pg_namespace WHERE nspname = $1", s.schema).Scan(&exists, &usable); err != nil {
		return nil, fail(err, "reading the schemas")
	}
	if !usable {
		// goose would find no version table, take the schema for a new
		// one and fail to create its tables in it.
		return nil, errs.New(errs.KindPermission, "the PostgreSQL role %q may not migrate the store at %s: it may not use schema %q", s.cfg.User, s.where, s.schema).
			About(errs.AboutSchema, s.schema, "create")
	}
	if !exists {
		// Two migrations of a new schema at once both find it missing;
		// IF NOT EXISTS does not stop the second CREATE from failing on
		// the catalog's unique index when the first commits in between.
		// Either way the schema is there, which is all this asks.
		if _, err := db.ExecContext(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{s.schema}.Sanitize()); err != nil && !schemaCreatedMeanwhile(err) {
			return nil, fail(err, "creating schema "+s.schema)
		}
	}
	locker, err := lock.NewPostgresSessionLocker(
		lock.WithLockID(s.lockID()),
		lock.WithLockTimeout(1, uint64(max(1, s.opts.LockTimeout.Seconds()))),
	)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "setting up the migration lock")
	}
	sub, _ := fs.Sub(migrationFiles, "migrations")
	p, err := goose.NewProvider(goose.DialectPostgres, db, sub,
		goose.WithSessionLocker(locker),
		goose.WithDisableGlobalRegistry(true),
		goose.WithSlog(slog.New(slog.NewTextHandler(io.Discard, nil))),
	)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "loading the migrations")
	}
	cur, err := p.GetDBVersion(ctx)
	if err != nil && !strings.Contains(err.Error(), "does not exist") {
		return nil, fail(unwrapGoose(err), "reading the schema version")
	}
	res.From = cur
	if cur > LatestVersion() {
		return nil, errs.New(errs.KindInvalid, "the registry in the PostgreSQL store at %s (schema %q) is at version %d, newer than this agents knows (%d); it was left alone", s.where, s.schema, cur, LatestVersion()).
			WithHint("upgrade agents to the version that migrated it")
	}
	results, err := p.Up(ctx)
	if err != nil {
		return nil, fail(unwrapGoose(err), "migrating")
	}
	for _, r := range results {
		if r.Source != nil {
			res.Applied = append(res.Applied, r.Source.Path)
		}
	}
	if res.To, err = p.GetDBVersion(ctx); err != nil {
		return nil, fail(unwrapGoose(err), "reading the schema version")
	}
	n, err := s.redecode(ctx)
	if err != nil {
		return nil, err
	}
	res.Redecoded = n
	return res, nil
}

// lockID is goose's session lock key for this schema, so that migrations
// of different schemas in one database do not wait for each other.
func (s *Store) lockID() int64 {
	h := fnv.New64a()
	h.Write([]byte("agents migrate\x00" + s.schema))
	return int64(h.Sum64() >> 1)
}

// unwrapGoose finds the database's error inside goose's wrapping, for
// classification.
func unwrapGoose(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe
	}
	if errors.Is(err, sql.ErrConnDone) {
		return err
	}
	return fmt.Errorf("%w", err)
}

// schemaCreatedMeanwhile reports whether creating a schema failed only
// because another session created it at the same moment: a unique
// violation on the catalog (23505) or a duplicate schema (42P06).
func schemaCreatedMeanwhile(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "23505" || pe.Code == "42P06")
}
