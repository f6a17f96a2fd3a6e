package postgres

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/store/postgres/early"
	"github.com/agentsctl/agents/internal/version"
)

// table is one collection of documents as this store keeps it: a table
// named after the collection, with the same columns for every collection
//
//	name, namespace, content, digest, version, updated_at,
//	decoded, decoded_by, decoded_for
//
// so that the SQL below is written once for all of them. content is the
// canonical YAML every store keeps; decoded, when decoded_by names this
// build (see decodedTag), is the collection's fast binary form of the same
// document (store.Codec), which a listing reads in a fraction of the time
// YAML takes to parse. Collections with history also keep every version as
// an object and log each put and remove in the history table.
type table[T any] struct {
	c *store.Collection[T]
	// tag returns decoded_by of the fast forms this build writes and
	// reads, "" for none. It is worked out when first needed, not when
	// the program starts: most commands never use it.
	tag func() string
}

func newTable[T any](c *store.Collection[T]) *table[T] {
	return &table[T]{c: c, tag: sync.OnceValue(func() string {
		if id := thisBuild(); c.Codec != nil && id != "" {
			return fmt.Sprintf("%s/%d/%s", c.Name, c.Codec.Version(), id)
		}
		return ""
	})}
}

// thisBuild is buildID of the running build.
var thisBuild = sync.OnceValue(func() string {
	bi, _ := debug.ReadBuildInfo()
	return buildID(version.Get(), vcsModified(bi), os.Executable, os.Stat)
})

// vcsModified reports whether the build info says the sources were
// changed from the commit they were built at. A version and commit given
// to the linker (-X, as the Makefile or a script does) do not say so.
func vcsModified(bi *debug.BuildInfo) bool {
	if bi == nil {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.modified" {
			return s.Value == "true"
		}
	}
	return false
}

// buildID names this build in decoded_by: a decoder may judge a document
// otherwise from one build to the next, so a build reads only the fast
// forms a build of the same code wrote. A release or a clean commit is
// named by its version and commit, as the linker or the build info gives
// them (go install records the module's version, go build the commit), so
// that every machine running it shares its forms. Any other build (changed
// sources, a test binary) is named by its executable, as the file store's
// cache names its producer; "" when that cannot be read, and then the
// build writes and reads no fast form. modified is the build info's word
// that the sources were changed, which holds even when the linker was
// given a clean version and commit.
func buildID(info version.Info, modified bool, executable func() (string, error), stat func(string) (os.FileInfo, error)) string {
	switch {
	case modified || dirty(info.Version) || dirty(info.Commit):
	case known(info.Commit):
		return info.Version + "/" + info.Commit
	case known(info.Version):
		return info.Version
	}
	exe, err := executable()
	if err != nil {
		return ""
	}
	fi, err := stat(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("exe:%s:%d:%d", exe, fi.Size(), fi.ModTime().UnixNano())
}

// dirty reports a version or commit of changed sources: go build marks
// them +dirty or -dirty, git describe --dirty (the Makefile's) -dirty.
func dirty(s string) bool { return strings.HasSuffix(s, "-dirty") || strings.HasSuffix(s, "+dirty") }

// known reports a version or commit that names code: not one of the
// placeholders of a build that could not tell (the Makefile's "none"
// outside a git checkout).
func known(s string) bool {
	return s != "" && s != version.Unknown && s != version.Dev && s != "none"
}

// The tables of the registry.
var (
	profiles = newTable(store.Profiles)
	actions  = newTable(store.Actions)
	plans    = newTable(store.Plans)
)

// row is a document as read from its table.
type row struct {
	name       string
	content    []byte
	decoded    []byte
	decodedBy  *string
	decodedFor *string
	digest     string
}

const rowColumns = "name, content, decoded, decoded_by, decoded_for, digest"

func scanRow(r pgx.Row) (row, error) {
	var x row
	err := r.Scan(&x.name, &x.content, &x.decoded, &x.decodedBy, &x.decodedFor, &x.digest)
	return x, err
}

// decodeListed returns the document a row holds for a listing: from its
// fast form when this build wrote it for this content, else from the
// canonical YAML. Nothing is decided from a listing: a lookup of one
// document (decode) reads the YAML, so that a fast form rewritten by hand
// (a role with UPDATE on the table can write it) changes no decision, only
// what a listing shows until the next write.
func (t *table[T]) decodeListed(x row) (T, error) {
	if t.c.Codec != nil && t.tag() != "" && x.decoded != nil && x.decodedBy != nil && *x.decodedBy == t.tag() &&
		x.decodedFor != nil && *x.decodedFor == x.digest {
		if v, err := t.c.Codec.Read(x.decoded); err == nil && t.c.NameOf(v) == x.name {
			return v, nil
		}
	}
	return t.decode(x)
}

// decode returns the document a row holds, from its canonical YAML: what
// show prints, what decisions are taken under, and what a change replaces.
func (t *table[T]) decode(x row) (T, error) {
	v, err := t.c.Decode(x.content, t.label(x.name))
	if err != nil {
		return v, err
	}
	if got := t.c.NameOf(v); got != x.name {
		var zero T
		p := errs.Problem{File: t.label(x.name), Path: t.c.NameKey, Message: fmt.Sprintf("is %q, but the row is for %q", got, x.name)}
		return zero, errs.InvalidProblems(fmt.Sprintf("stored %s %s", t.c.Noun, t.c.Quote(x.name)), []errs.Problem{p})
	}
	return v, nil
}

// label names a stored document in problems: table/name.
func (t *table[T]) label(name string) string { return t.c.Name + "/" + name }

// fast returns the fast form of v, or nil for a collection without one
// or a build that cannot name itself.
func (t *table[T]) fast(v T) []byte {
	if t.c.Codec == nil || t.tag() == "" {
		return nil
	}
	return t.c.Codec.Append(nil, v)
}

func (t *table[T]) namespaceOf(name string) *string {
	if !t.c.Nested {
		return nil
	}
	ns := profile.NamespaceOf(name)
	return &ns
}

// Get implements store.Docs.
func (d docs[T]) Get(ctx context.Context, name string) (T, error) {
	v, _, err := d.GetDigest(ctx, name)
	return v, err
}

// GetDigest implements store.StoredDigester: the row's digest, which the
// lookup has checked against its content, is that of the canonical bytes
// of the document, so a reader holding it to its history need not encode
// it.
func (d docs[T]) GetDigest(ctx context.Context, name string) (T, string, error) {
	v, x, err := d.lookup(ctx, name)
	if err != nil {
		return v, "", err
	}
	v, err = d.t.decode(x)
	return v, x.digest, err
}

// lookup reads the row of name, checked against its digest.
func (d docs[T]) lookup(ctx context.Context, name string) (T, row, error) {
	s, t := d.s, d.t
	var v T
	if err := t.c.CheckName(ctx, name); err != nil {
		return v, row{}, err
	}
	cols, found, err := s.lookupRow(ctx, "reading "+t.c.Noun+" "+name, early.LookupQuery(t.c.Name), name)
	switch {
	case err != nil:
		return v, row{}, err
	case !found:
		return v, row{}, t.c.NotFound(name)
	case len(cols) != 3 || cols[0] == nil || cols[1] == nil || cols[2] == nil:
		return v, row{}, s.fail(ctx, fmt.Errorf("the row of %s came as %d columns", name, len(cols)), "reading "+t.c.Noun+" "+name)
	}
	x := row{name: string(cols[0]), content: cols[1], digest: string(cols[2])}
	return v, x, t.checkDigest(x)
}

// checkDigest refuses a row whose content is not what its digest says: the
// table's constraint keeps every write of agents to it, so the row was
// changed behind the store's back (its constraint dropped first), and
// nothing vouches for what it holds. Nothing is shown or decided from it.
func (t *table[T]) checkDigest(x row) error {
	return checkDigest(t.label(x.name), fmt.Sprintf("stored %s %s", t.c.Noun, t.c.Quote(x.name)), x.content, x.digest)
}

// checkDigest refuses content that does not hash to the digest its row
// records, as the row of file, in the error of subject.
func checkDigest(file, subject string, content []byte, digest string) error {
	if got := canon.Digest(content); got != digest {
		p := errs.Problem{File: file, Message: fmt.Sprintf("the content hashes to sha256 %s, but the row records %s: it was changed outside agents", got, digest)}
		return errs.InvalidProblems(subject, []errs.Problem{p})
	}
	return nil
}

// Names implements store.Docs.
func (d docs[T]) Names(ctx context.Context, q store.Query) ([]string, error) {
	s, t := d.s, d.t
	if err := q.CheckContext(ctx); err != nil {
		return nil, err
	}
	var out []string
	err := s.with(ctx, "listing "+t.c.Name, func(c *pgx.Conn) error {
		var err error
		out, err = selectNames(ctx, c, t.c.Name, q)
		return err
	})
	return out, err
}

// selectNames returns the names of the table that q selects: the
// namespace in SQL, then Match.
func selectNames(ctx context.Context, c *pgx.Conn, table string, q store.Query) ([]string, error) {
	sql, args := "SELECT name FROM "+table+" ORDER BY name", []any(nil)
	if q.Namespace != "" {
		sql, args = "SELECT name FROM "+table+" WHERE namespace = $1 ORDER BY name", []any{q.Namespace}
	}
	rows, err := c.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	all, err := pgx.CollectRows(rows, pgx.RowTo[string])
	var out []string
	for _, n := range all {
		if q.Match == nil || q.Match(n) {
			out = append(out, n)
		}
	}
	return out, err
}

// list reads the documents q selects. The namespace is selected in SQL; a
// Match (a regular expression, RE2 as everywhere in agents) is applied to
// the names first, so only the documents it keeps are read.
func (d docs[T]) list(ctx context.Context, q store.Query) ([]T, []errs.Problem, error) {
	s, t := d.s, d.t
	if err := q.CheckContext(ctx); err != nil {
		return nil, nil, err
	}
	var rowsRead []row
	err := s.with(ctx, "listing "+t.c.Name, func(c *pgx.Conn) error {
		var sql string
		var args []any
		switch {
		case q.Match != nil:
			selected, err := selectNames(ctx, c, t.c.Name, q)
			if err != nil {
				return err
			}
			if len(selected) == 0 {
				return nil
			}
			return collectRows(ctx, c, &rowsRead, "SELECT "+rowColumns+" FROM "+t.c.Name+" WHERE name = ANY($1::text[]) ORDER BY name", selected)
		case q.Namespace != "":
			sql, args = "SELECT "+rowColumns+" FROM "+t.c.Name+" WHERE namespace = $1 ORDER BY name", []any{q.Namespace}
		default:
			sql = "SELECT " + rowColumns + " FROM " + t.c.Name + " ORDER BY name"
		}
		return collectRows(ctx, c, &rowsRead, sql, args...)
	})
	if err != nil {
		return nil, nil, err
	}
	return decodeAll(ctx, t, rowsRead, q.Progress)
}

// collectRows runs a query of rowColumns, asking for results in binary so
// that bytea arrives as it is, not as hexadecimal text twice its size.
func collectRows(ctx context.Context, c *pgx.Conn, out *[]row, sql string, args ...any) error {
	rows, err := c.Query(ctx, sql, append([]any{pgx.QueryExecModeDescribeExec}, args...)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		x, err := scanRow(rows)
		if err != nil {
			return err
		}
		*out = append(*out, x)
	}
	return rows.Err()
}

// decodeAll decodes rows in parallel (parsing YAML is what a listing of
// documents without a fast form costs) and keeps the problems of those
// that fail.
func decodeAll[T any](ctx context.Context, t *table[T], rows []row, progress func(done, total int)) ([]T, []errs.Problem, error) {
	vals := make([]T, len(rows))
	probs := make([][]errs.Problem, len(rows))
	err := store.Parallel(ctx, len(rows), 64, progress, func(i int) {
		v, err := t.decodeListed(rows[i])
		if err == nil {
			// A row under a name agents never writes (a built-in's,
			// put there by SQL) is not listed as the profile it names.
			err = t.c.Validate(rows[i].name)
		}
		if err != nil {
			probs[i] = store.Problem(t.label(rows[i].name), err)
		} else {
			vals[i] = v
		}
	})
	if err != nil {
		return nil, nil, err
	}
	var out []T
	var problems []errs.Problem
	for i := range rows {
		if probs[i] != nil {
			problems = append(problems, probs[i]...)
			continue
		}
		out = append(out, vals[i])
	}
	return out, problems, nil
}

// Put implements store.Docs: it stores v in one transaction holding the name's lock: the check for
// an existing name, the object, the row and the history event commit
// together or not at all.
func (d docs[T]) Put(ctx context.Context, v T, update bool) (store.PutResult[T], error) {
	s, t := d.s, d.t
	var out store.PutResult[T]
	if err := ctx.Err(); err != nil {
		return out, store.Interrupted(err)
	}
	name, data, stored, err := t.c.Prepare(v)
	if err != nil {
		return out, err
	}
	digest := canon.Digest(data)
	fast := t.fast(stored)
	err = s.write(ctx, t.c.Name, []string{name}, "writing "+t.c.Noun+" "+name, func(tx pgx.Tx) error {
		out.Replaced = *new(T)
		cur, err := scanRow(tx.QueryRow(ctx, "SELECT "+rowColumns+" FROM "+t.c.Name+" WHERE name = $1", name))
		exists := err == nil
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if exists && !update {
			return t.c.Conflict(name)
		}
		if exists {
			if old, err := t.decode(cur); err == nil {
				out.Replaced = old
			}
			if cur.digest == digest && t.checkDigest(cur) == nil {
				// The same content: no object, no row, no history.
				out.Unchanged = true
				return nil
			}
		}
		if t.c.History {
			if _, err := tx.Exec(ctx, "INSERT INTO objects (digest, data) VALUES ($1, $2) ON CONFLICT (digest) DO NOTHING", digest, data); err != nil {
				return err
			}
		}
		if err := upsert(ctx, tx, t, name, data, digest, fast); err != nil {
			return err
		}
		if t.c.History {
			return appendEvent(ctx, tx, s, t.c.Name, name, store.EventPut, digest, s.now())
		}
		return nil
	})
	if err != nil {
		return store.PutResult[T]{}, err
	}
	out.Stored, out.Digest = stored, digest
	return out, nil
}

// upsert writes a document's row; version counts the writes of the row.
func upsert[T any](ctx context.Context, tx pgx.Tx, t *table[T], name string, data []byte, digest string, fast []byte) error {
	var tag *string
	var fastFor *string
	if fast != nil {
		tag, fastFor = new(t.tag()), &digest
	}
	_, err := tx.Exec(ctx, "INSERT INTO "+t.c.Name+` AS t (name, namespace, content, digest, decoded, decoded_by, decoded_for)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (name) DO UPDATE SET content = EXCLUDED.content, digest = EXCLUDED.digest,
			version = t.version + 1, updated_at = clock_timestamp(),
			decoded = EXCLUDED.decoded, decoded_by = EXCLUDED.decoded_by, decoded_for = EXCLUDED.decoded_for`,
		name, t.namespaceOf(name), data, digest, fast, tag, fastFor)
	return err
}

// appendEvent logs one event of a name; at nil stamps it with the
// server's clock. seq follows the name's last event: its writers hold the
// name's lock, so they append one after the other.
func appendEvent(ctx context.Context, tx pgx.Tx, s *Store, coll, name, event, digest string, at *time.Time) error {
	var nanos int16
	if at != nil {
		nanos = int16(at.Nanosecond() % 1000)
		tr := at.Truncate(time.Microsecond)
		at = &tr
	}
	_, err := tx.Exec(ctx, `INSERT INTO history (collection, name, seq, event, digest, at, at_nanos)
		VALUES ($1, $2, coalesce((SELECT max(seq) FROM history WHERE collection = $1 AND name = $2), 0) + 1,
			$3, $4, coalesce($5::timestamptz, clock_timestamp()), $6)`,
		coll, name, event, digest, at, nanos)
	return err
}

func (d docs[T]) remove(ctx context.Context, name string) (T, error) {
	s, t := d.s, d.t
	var removed T
	if err := t.c.CheckName(ctx, name); err != nil {
		return removed, err
	}
	err := s.write(ctx, t.c.Name, []string{name}, "removing "+t.c.Noun+" "+name, func(tx pgx.Tx) error {
		cur, err := scanRow(tx.QueryRow(ctx, "SELECT "+rowColumns+" FROM "+t.c.Name+" WHERE name = $1", name))
		if errors.Is(err, pgx.ErrNoRows) {
			return t.c.NotFound(name)
		}
		if err != nil {
			return err
		}
		v, err := t.decode(cur)
		if err != nil {
			e := errs.Wrap(errs.KindInvalid, err, "stored %s %s cannot be read, so it is not removed", t.c.Noun, t.c.Quote(name))
			return e.About(errs.AboutUnreadable, t.c.Noun)
		}
		if _, err := tx.Exec(ctx, "DELETE FROM "+t.c.Name+" WHERE name = $1", name); err != nil {
			return err
		}
		if t.c.History {
			if err := appendEvent(ctx, tx, s, t.c.Name, name, store.EventRemove, cur.digest, s.now()); err != nil {
				return err
			}
		}
		removed = v
		return nil
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return removed, nil
}

// History implements store.Docs.
func (d docs[T]) History(ctx context.Context, name string) ([]store.HistoryEntry, error) {
	return d.events(ctx, name, "ORDER BY seq")
}

// LastEvent implements store.Docs. A decision under a custom profile
// reads it after the profile, so it is read as a lookup is (lookupRow):
// without opening pgx's connection where a lookup left none open. A name
// without events is looked at again by events, which tells a name never
// held (not found) from one held without history.
func (d docs[T]) LastEvent(ctx context.Context, name string) (store.HistoryEntry, bool, error) {
	s, t := d.s, d.t
	if err := t.c.CheckName(ctx, name); err != nil {
		return store.HistoryEntry{}, false, err
	}
	what := "reading the history of " + t.c.Noun + " " + name
	cols, found, err := s.lookupRow(ctx, what, lastEventQuery(t.c.Name), name)
	if err != nil {
		return store.HistoryEntry{}, false, err
	}
	if found {
		e, err := lastEventOf(cols)
		if err != nil {
			return store.HistoryEntry{}, false, s.fail(ctx, err, what)
		}
		return e, true, nil
	}
	h, err := d.events(ctx, name, "ORDER BY seq DESC LIMIT 1")
	if len(h) > 0 {
		return h[0], true, nil
	}
	return store.HistoryEntry{}, false, err
}

// lastEventQuery reads the last event of a name of the collection coll
// (its one parameter), every column as text, so that it reads the same
// through either connection: the event, the digest, the time in
// microseconds since 1970 and the nanoseconds beyond them.
func lastEventQuery(coll string) string {
	return "SELECT event, digest, (extract(epoch FROM at) * 1000000)::int8::text, at_nanos::text FROM history WHERE collection = '" +
		coll + "' AND name = $1 ORDER BY seq DESC LIMIT 1"
}

// lastEventOf reads the answer to lastEventQuery.
func lastEventOf(cols [][]byte) (store.HistoryEntry, error) {
	if len(cols) != 4 || slices.ContainsFunc(cols, func(c []byte) bool { return c == nil }) {
		return store.HistoryEntry{}, fmt.Errorf("the last event came as %d columns", len(cols))
	}
	micros, err := strconv.ParseInt(string(cols[2]), 10, 64)
	if err != nil {
		return store.HistoryEntry{}, fmt.Errorf("the time of the last event: %w", err)
	}
	nanos, err := strconv.ParseInt(string(cols[3]), 10, 16)
	if err != nil {
		return store.HistoryEntry{}, fmt.Errorf("the nanoseconds of the last event: %w", err)
	}
	at := time.UnixMicro(micros).UTC().Add(time.Duration(nanos))
	return store.HistoryEntry{Event: string(cols[0]), Digest: string(cols[1]), Time: at}, nil
}

// events returns the events of the named document in the order, and with
// the limit, that tail gives; a name never held is not found.
func (d docs[T]) events(ctx context.Context, name, tail string) ([]store.HistoryEntry, error) {
	s, t := d.s, d.t
	if err := t.c.CheckName(ctx, name); err != nil {
		return nil, err
	}
	out := []store.HistoryEntry{}
	err := s.with(ctx, "reading the history of "+t.c.Noun+" "+name, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, "SELECT event, digest, at, at_nanos FROM history WHERE collection = $1 AND name = $2 "+tail, t.c.Name, name)
		if err != nil {
			return err
		}
		out, err = collectEvents(rows)
		if err != nil || len(out) > 0 {
			return err
		}
		var held bool
		if err := c.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM "+t.c.Name+" WHERE name = $1)", name).Scan(&held); err != nil {
			return err
		}
		if !held {
			return t.c.NotFound(name)
		}
		return nil
	})
	return out, err
}

// collectEvents reads rows of event, digest, at, at_nanos.
func collectEvents(rows pgx.Rows) ([]store.HistoryEntry, error) {
	out := []store.HistoryEntry{}
	defer rows.Close()
	for rows.Next() {
		var e store.HistoryEntry
		var nanos int16
		if err := rows.Scan(&e.Event, &e.Digest, &e.Time, &nanos); err != nil {
			return nil, err
		}
		e.Time = e.Time.UTC().Add(time.Duration(nanos))
		out = append(out, e)
	}
	return out, rows.Err()
}
