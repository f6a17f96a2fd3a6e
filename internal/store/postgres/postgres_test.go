package postgres_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agentsctl/agents/internal/errs"

	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/store/file"
	"github.com/agentsctl/agents/internal/store/postgres"
	"github.com/agentsctl/agents/internal/store/postgres/pgtest"
	"github.com/agentsctl/agents/internal/store/storetest"
)

// open returns a store in a schema of its own, migrated.
// openAt opens the store at url, unmigrated, closed when the test ends.
func openAt(t *testing.T, url string, opts postgres.Options) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func open(t *testing.T, opts postgres.Options) *postgres.Store {
	t.Helper()
	url := pgtest.Schema(t)
	migrate(t, url)
	return openAt(t, url, opts)
}

// migrate migrates the schema url names under a lock timeout of its own:
// the DDL of a migration may wait a moment for the catalog while other
// tests create and drop their schemas, which a store opened to try its
// locks once (a lock timeout of 0, sent as 1ms) would report as locked.
func migrate(t *testing.T, url string) {
	t.Helper()
	m, err := postgres.Open(url, postgres.Options{LockTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if _, err := m.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// put puts p into s (update as Put takes it), failing the test on an
// error, and returns p.
func put(t *testing.T, s store.Store, p *profile.AutomationProfile, update bool) *profile.AutomationProfile {
	t.Helper()
	if _, err := s.Profiles().Put(context.Background(), p, update); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConformance(t *testing.T) {
	pgtest.URL(t)
	storetest.Run(t, func(t *testing.T) store.Store {
		return open(t, postgres.Options{LockTimeout: time.Minute})
	})
}

func newHome(t *testing.T) (store.Store, string) {
	home := filepath.Join(t.TempDir(), "home")
	s, err := file.Open(home, file.Options{LockTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return s, home
}

// TestCopy moves a registry from a home into PostgreSQL and out into
// another home: the same files, byte for byte, and the same history.
func TestCopy(t *testing.T) {
	storetest.RunCopy(t, open(t, postgres.Options{LockTimeout: time.Minute}), newHome)
}

func TestSchemaVersion(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Schema(t)
	s := openAt(t, url, postgres.Options{LockTimeout: time.Minute})
	_, err := s.Profiles().Get(ctx, "acme/x")
	if errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), "never migrated") {
		t.Fatalf("get from an unmigrated schema: %v", err)
	}
	res, err := s.Migrate(ctx)
	if err != nil || res.From != 0 || res.To != postgres.LatestVersion() || len(res.Applied) == 0 {
		t.Fatalf("migrate: %+v, %v", res, err)
	}
	res, err = s.Migrate(ctx)
	if err != nil || res.From != res.To || len(res.Applied) != 0 {
		t.Fatalf("second migrate: %+v, %v", res, err)
	}
	put(t, s, storetest.Profile(t, "acme/x", 1), false)
	// A schema newer than this build knows is refused, by commands and
	// by migrate.
	schema := pgtest.SchemaOf(t, url)
	pgtest.Exec(t, fmt.Sprintf("INSERT INTO %s.goose_db_version (version_id, is_applied) VALUES (%d, true)", schema, postgres.LatestVersion()+1))
	s2, _ := postgres.Open(url, postgres.Options{})
	defer s2.Close()
	if _, err := s2.Profiles().Get(ctx, "acme/x"); errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("get from a newer schema: %v", err)
	}
	if _, err := s2.Migrate(ctx); errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("migrate of a newer schema: %v", err)
	}
}

func TestUnreachable(t *testing.T) {
	ctx := context.Background()
	s, err := postgres.Open("postgres://someone:hunter2secret@127.0.0.1:1/db?sslmode=disable", postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Profiles().Names(ctx, store.Query{})
	if errs.KindOf(err) != errs.KindUnavailable || !strings.Contains(err.Error(), "127.0.0.1:1") || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("list on a closed port: %v", err)
	}
	// A lookup of one document connects its own way (without pgx's
	// types), and fails the same way.
	_, err = s.Profiles().Get(ctx, "acme/x")
	if errs.KindOf(err) != errs.KindUnavailable || !strings.Contains(err.Error(), "127.0.0.1:1") || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("get on a closed port: %v", err)
	}
	_, err = postgres.Open("postgres://someone:hunter2secret@127.0.0.1:notaport/db", postgres.Options{})
	if errs.KindOf(err) != errs.KindUsage || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("open of a bad URL: %v", err)
	}
	_, err = postgres.Open("postgres://127.0.0.1/db?sslmode=sometimes&password=hunter2secret", postgres.Options{})
	if errs.KindOf(err) != errs.KindUsage || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("open with a bad sslmode: %v", err)
	}
}

// TestIdentity: URLs written differently that reach the same server,
// database and schema name one registry; another database or schema is
// another, and so is the database a URL without one leaves to the server
// (the role's name) for each role.
func TestIdentity(t *testing.T) {
	id := func(u string) string {
		t.Helper()
		s, err := postgres.Open(u, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		return s.Identity()
	}
	base := id("postgres://alice@127.0.0.1:5432/reg?sslmode=disable&search_path=team")
	for _, u := range []string{
		"postgresql://alice@127.0.0.1:5432/reg?sslmode=disable&search_path=team",
		"postgres://bob:pw@127.0.0.1/reg?search_path=team&sslmode=disable",
		"postgres://alice@127.0.0.1:5432/reg?search_path=team&application_name=x&sslmode=disable",
	} {
		if got := id(u); got != base {
			t.Errorf("%s: %s, want %s", u, got, base)
		}
	}
	for _, u := range []string{
		"postgres://alice@127.0.0.1:5432/other?sslmode=disable&search_path=team",
		"postgres://alice@127.0.0.1:5432/reg?sslmode=disable&search_path=other",
		"postgres://alice@127.0.0.1:5433/reg?sslmode=disable&search_path=team",
		"postgres://alice@127.0.0.1:5432/reg?sslmode=disable",
	} {
		if got := id(u); got == base {
			t.Errorf("%s names the same registry as the base URL: %s", u, got)
		}
	}
	alice := id("postgres://alice@127.0.0.1:5432/?sslmode=disable")
	if bob := id("postgres://bob@127.0.0.1:5432/?sslmode=disable"); bob == alice {
		t.Errorf("two roles' own databases are one registry: %s", bob)
	}
	if named := id("postgres://bob@127.0.0.1:5432/alice?sslmode=disable"); named != alice {
		t.Errorf("database alice named: %s, left to the server for alice: %s", named, alice)
	}
}

// TestReadOnlyRole: a role with read grants reads, and a write is refused
// with exit 7's kind, the registry unchanged.
func TestReadOnlyRole(t *testing.T) {
	ctx := context.Background()
	w := open(t, postgres.Options{})
	storetest.Fill(t, w)
	role := pgtest.RoleName("reader")
	pgtest.Exec(t, "CREATE ROLE "+role+" LOGIN",
		"GRANT USAGE ON SCHEMA "+w.Schema()+" TO "+role,
		"GRANT SELECT ON ALL TABLES IN SCHEMA "+w.Schema()+" TO "+role)
	t.Cleanup(func() {
		pgtest.Exec(t, "DROP OWNED BY "+role, "DROP ROLE "+role)
	})
	url := pgtest.WithUser(t, pgtest.WithParam(t, pgtest.URL(t), "search_path", w.Schema()), role)
	r, err := postgres.Open(url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Profiles().Get(ctx, "acme/a"); err != nil {
		t.Fatalf("read as the reader: %v", err)
	}
	l, err := r.Profiles().List(ctx, store.Query{})
	if err != nil || len(l.Items) != 2 {
		t.Fatalf("list as the reader: %+v, %v", l, err)
	}
	_, err = r.Profiles().Put(ctx, storetest.Profile(t, "acme/new", 1), false)
	if errs.KindOf(err) != errs.KindPermission || !strings.Contains(err.Error(), role) {
		t.Fatalf("write as the reader: %v", err)
	}
	if _, err := r.Profiles().Remove(ctx, "acme/a"); errs.KindOf(err) != errs.KindPermission {
		t.Fatalf("remove as the reader: %v", err)
	}
	if _, err := w.Profiles().Get(ctx, "acme/new"); errs.KindOf(err) != errs.KindNotFound {
		t.Fatalf("the refused write left %v", err)
	}
}

// TestConcurrentWriters: writers with connections of their own, each
// adding distinct names and replacing a shared one, lose nothing.
func TestConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	first := open(t, postgres.Options{LockTimeout: time.Minute})
	url := pgtest.WithParam(t, pgtest.URL(t), "search_path", first.Schema())
	const writers, each = 8, 10
	var wg sync.WaitGroup
	errc := make(chan error, writers*each*2)
	for w := range writers {
		wg.Go(func() {
			s, err := postgres.Open(url, postgres.Options{LockTimeout: time.Minute})
			if err != nil {
				errc <- err
				return
			}
			defer s.Close()
			for i := range each {
				if _, err := s.Profiles().Put(ctx, storetest.Profile(t, fmt.Sprintf("w%d/p%d", w, i), i), false); err != nil {
					errc <- err
				}
				if _, err := s.Profiles().Put(ctx, storetest.Profile(t, "shared/x", w*100+i), true); err != nil {
					errc <- err
				}
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	names, err := first.Profiles().Names(ctx, store.Query{})
	if err != nil || len(names) != writers*each+1 {
		t.Fatalf("%d names, %v", len(names), err)
	}
	h, err := first.Profiles().History(ctx, "shared/x")
	if err != nil || len(h) != writers*each {
		t.Fatalf("shared/x has %d events, want %d: %v", len(h), writers*each, err)
	}
	for i := 1; i < len(h); i++ {
		if h[i].Time.Before(h[i-1].Time) {
			t.Errorf("event %d is older than event %d", i, i-1)
		}
	}
}

// TestFastFormOfABuildWithoutLinkedVersion: builds that carry no version
// from the linker (go build, go install, a test binary) are not one build;
// a listing does not read a fast form another of them wrote, here one that
// says something else than the row's content.
func TestFastFormOfABuildWithoutLinkedVersion(t *testing.T) {
	ctx := context.Background()
	s := open(t, postgres.Options{})
	want := put(t, s, storetest.Profile(t, "acme/a", 1), false)
	other := store.Profiles.Codec.Append(nil, storetest.Profile(t, "acme/a", 2))
	pgtest.Exec(t, fmt.Sprintf("UPDATE %s.profiles SET decoded = '\\x%x', decoded_by = 'profiles/%d//'",
		s.Schema(), other, store.Profiles.Codec.Version()))
	l, err := s.Profiles().List(ctx, store.Query{})
	if err != nil || len(l.Items) != 1 {
		t.Fatalf("list: %+v, %v", l, err)
	}
	if !reflect.DeepEqual(l.Items[0], want) {
		t.Fatalf("listed another build's form: %+v, want %+v", l.Items[0], want)
	}
}

// TestFastForm: a fast form written by another build, or left behind by a
// hand edit of the content, is never used; migrate makes it again.
func TestFastForm(t *testing.T) {
	ctx := context.Background()
	s := open(t, postgres.Options{})
	put(t, s, storetest.Profile(t, "acme/a", 1), false)
	// Another build's form: garbage that must not be read.
	pgtest.Exec(t, "UPDATE "+s.Schema()+".profiles SET decoded = '\\x00', decoded_by = 'profiles/999/other'")
	got, err := s.Profiles().Get(ctx, "acme/a")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, storetest.Profile(t, "acme/a", 1)) {
		t.Fatalf("read another build's form: %+v", got)
	}
	res, err := s.Migrate(ctx)
	if err != nil || res.Redecoded != 1 {
		t.Fatalf("migrate: %+v, %v", res, err)
	}
	l, err := s.Profiles().List(ctx, store.Query{})
	if err != nil || len(l.Items) != 1 || !reflect.DeepEqual(l.Items[0], storetest.Profile(t, "acme/a", 1)) {
		t.Fatalf("list after migrate: %+v, %v", l, err)
	}
	// A hand edit of the content that keeps the old fast form is refused
	// by the table's constraint.
	err = func() error {
		c, err := pgx.Connect(ctx, pgtest.URL(t))
		if err != nil {
			return err
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "INSERT INTO "+s.Schema()+".objects VALUES (encode(sha256('name: acme/a'::bytea), 'hex'), 'name: acme/a'::bytea)"); err != nil {
			return err
		}
		_, err = c.Exec(ctx, "UPDATE "+s.Schema()+".profiles SET content = 'name: acme/a'::bytea, digest = encode(sha256('name: acme/a'::bytea), 'hex')")
		return err
	}()
	if err == nil || !strings.Contains(err.Error(), "profiles_decoded") {
		t.Fatalf("hand edit keeping a stale fast form: %v", err)
	}
}

// TestWriterRole checks the writer's grants docs/postgres.md gives: every
// change works with them, and objects and history need no more than
// INSERT.
func TestWriterRole(t *testing.T) {
	ctx := context.Background()
	admin := open(t, postgres.Options{})
	sc := admin.Schema()
	role := pgtest.RoleName("writer")
	pgtest.Exec(t, "CREATE ROLE "+role+" LOGIN",
		"GRANT USAGE ON SCHEMA "+sc+" TO "+role,
		"GRANT SELECT ON ALL TABLES IN SCHEMA "+sc+" TO "+role,
		"GRANT INSERT, UPDATE, DELETE ON "+sc+".profiles, "+sc+".actions, "+sc+".plans TO "+role,
		"GRANT INSERT ON "+sc+".objects, "+sc+".history TO "+role)
	t.Cleanup(func() { pgtest.Exec(t, "DROP OWNED BY "+role, "DROP ROLE "+role) })
	w, err := postgres.Open(pgtest.WithUser(t, pgtest.WithParam(t, pgtest.URL(t), "search_path", sc), role), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	storetest.Fill(t, w)
	put(t, w, storetest.Profile(t, "acme/a", 1), true)
	if _, err := w.Actions().Remove(ctx, "team/x"); err != nil {
		t.Fatal(err)
	}
	if _, err := storeCopyInto(t, w); err != nil {
		t.Fatalf("store copy as the writer: %v", err)
	}
}

// storeCopyInto copies a small home into s.
func storeCopyInto(t *testing.T, s *postgres.Store) (*store.CopyReport, error) {
	src, _ := newHome(t)
	if _, err := src.Profiles().Put(context.Background(), storetest.Profile(t, "other/p", 1), false); err != nil {
		t.Fatal(err)
	}
	return store.Copy(context.Background(), src.(store.Transferer), s, store.CopyOptions{})
}

// TestTLS: the URL's TLS settings are honoured: sslmode=require encrypts
// (the test server offers TLS with a certificate no one vouches for), and
// verify-full refuses that certificate, with exit 3's kind and a hint.
func TestTLS(t *testing.T) {
	ctx := context.Background()
	s := open(t, postgres.Options{})
	base := pgtest.WithParam(t, pgtest.URL(t), "search_path", s.Schema())
	var ssl string
	c, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	_ = c.QueryRow(ctx, "SHOW ssl").Scan(&ssl)
	c.Close(ctx)
	if ssl != "on" {
		t.Skip("the test server does not offer TLS")
	}
	req, _ := postgres.Open(pgtest.WithParam(t, base, "sslmode", "require"), postgres.Options{})
	defer req.Close()
	if _, err := req.Profiles().Names(ctx, store.Query{}); err != nil {
		t.Fatalf("sslmode=require: %v", err)
	}
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, []byte(testCA), 0o600); err != nil {
		t.Fatal(err)
	}
	full, err := postgres.Open(pgtest.WithParam(t, pgtest.WithParam(t, base, "sslmode", "verify-full"), "sslrootcert", ca), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	_, err = full.Profiles().Names(ctx, store.Query{})
	if errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), "TLS") {
		t.Fatalf("sslmode=verify-full with an untrusted certificate: %v", err)
	}
}

// TestFastFormDecidesNothing: a fast form rewritten by hand, with the
// tag and digest it needs to be read (a role with UPDATE on the table can
// write it), changes no lookup of one document, from which decisions are
// taken: that reads the canonical content.
func TestFastFormDecidesNothing(t *testing.T) {
	ctx := context.Background()
	s := open(t, postgres.Options{})
	strict := put(t, s, storetest.Profile(t, "acme/a", 1), false)
	loose := put(t, s, storetest.Profile(t, "acme/b", 5), false)
	// acme/b's fast form, renamed acme/a, in acme/a's row.
	loose.Name = "acme/a"
	forged := store.Profiles.Codec.Append(nil, loose)
	c, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "UPDATE "+s.Schema()+".profiles SET decoded = $1 WHERE name = 'acme/a'", forged); err != nil {
		t.Fatal(err)
	}
	got, err := s.Profiles().Get(ctx, "acme/a")
	if err != nil || !reflect.DeepEqual(got, strict) {
		t.Fatalf("Get read the forged fast form: %+v, %v", got, err)
	}
}

// TestMigrateNewSchemaAtOnce: migrations of a new schema started at the
// same moment all succeed; the one that does not create the schema finds
// it made, whether or not its own CREATE lost the race.
func TestMigrateNewSchemaAtOnce(t *testing.T) {
	for round := range 3 {
		url := pgtest.Schema(t)
		const n = 4
		errc := make(chan error, n)
		for range n {
			go func() {
				s, err := postgres.Open(url, postgres.Options{LockTimeout: 30 * time.Second})
				if err != nil {
					errc <- err
					return
				}
				defer s.Close()
				_, err = s.Migrate(context.Background())
				errc <- err
			}()
		}
		for range n {
			if err := <-errc; err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
	}
}

// TestReadWaitsNoLongerThanTheLockTimeout: a read of a table another
// session holds locked gives up after the lock timeout, as locked (exit
// 75), rather than waiting as long as the other session does.
func TestReadWaitsNoLongerThanTheLockTimeout(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Schema(t)
	migrate(t, url)
	s := openAt(t, url, postgres.Options{})
	put(t, s, storetest.Profile(t, "acme/a", 1), false)
	c, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	tx, err := c.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "LOCK TABLE "+s.Schema()+".profiles IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	r := openAt(t, url, postgres.Options{LockTimeout: 300 * time.Millisecond})
	start := time.Now()
	// Bounded here too, so that a read that waits fails this test rather
	// than hanging it.
	bounded, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err = r.Profiles().Get(bounded, "acme/a")
	if !errs.Is(err, errs.KindLocked) || time.Since(start) > 10*time.Second {
		t.Errorf("a read of a locked table: %v after %v, want locked after about 300ms", err, time.Since(start))
	}
}

// TestBadURLParameter: a parameter of the URL the server does not know,
// or a value it refuses, is the URL's fault (usage, exit 2), not an
// internal error.
func TestBadURLParameter(t *testing.T) {
	for _, p := range [][2]string{{"bogus", "1"}, {"lock_timeout", "abc"}, {"options", "garbage"}} {
		url := pgtest.WithParam(t, pgtest.Schema(t), p[0], p[1])
		s, err := postgres.Open(url, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Profiles().Get(context.Background(), "acme/a")
		s.Close()
		if !errs.Is(err, errs.KindUsage) || !strings.Contains(err.Error(), p[0]) && !strings.Contains(err.Error(), p[1]) {
			t.Errorf("%s=%s: %v, want usage naming the parameter", p[0], p[1], err)
		}
	}
}

// TestCopyRefusesUnparsableSourceRow: a source row whose content does
// not parse (with the object it cites, so the table's constraints hold)
// is refused with exit 3 before anything is written, into a home as
// into PostgreSQL: the home gains no file, the schema no row.
func TestCopyRefusesUnparsableSourceRow(t *testing.T) {
	ctx := context.Background()
	src := open(t, postgres.Options{LockTimeout: time.Minute})
	storetest.Fill(t, src)
	const bad = "garbage: [x"
	pgtest.Exec(t,
		"INSERT INTO "+src.Schema()+".objects VALUES (encode(sha256('"+bad+"'::bytea), 'hex'), '"+bad+"'::bytea)",
		"INSERT INTO "+src.Schema()+".profiles (name, namespace, content, digest) VALUES ('zz/bad', 'zz', '"+bad+"'::bytea, encode(sha256('"+bad+"'::bytea), 'hex'))")

	home, dir := newHome(t)
	_, err := store.Copy(ctx, src, home.(store.Transferer), store.CopyOptions{})
	if errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), "zz/bad") {
		t.Fatalf("copy of a bad row into a home: %v, want invalid naming it", err)
	}
	var written []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.Contains(d.Name(), "lock") {
			written = append(written, path)
		}
		return nil
	})
	if len(written) > 0 {
		t.Errorf("the refused copy wrote into the home: %v", written)
	}

	dst := open(t, postgres.Options{LockTimeout: time.Minute})
	_, err = store.Copy(ctx, src, dst, store.CopyOptions{})
	if errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), "zz/bad") {
		t.Fatalf("copy of a bad row into PostgreSQL: %v, want invalid naming it", err)
	}
	snap, err := dst.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for coll, es := range snap.Entries {
		if len(es) > 0 {
			t.Errorf("the refused copy wrote %d %s into PostgreSQL", len(es), coll)
		}
	}
	if len(snap.Objects) > 0 {
		t.Errorf("the refused copy wrote %d objects into PostgreSQL", len(snap.Objects))
	}
}

// TestCopyCountsNoRemovedNameAsUnchanged: the first copy into an empty
// target of a source that removed a name adds its history, and does not
// report the name as a document left unchanged.
func TestCopyCountsNoRemovedNameAsUnchanged(t *testing.T) {
	ctx := context.Background()
	src, _ := newHome(t)
	for _, n := range []string{"acme/kept", "acme/gone"} {
		put(t, src, storetest.Profile(t, n, 1), false)
	}
	if _, err := src.Profiles().Remove(ctx, "acme/gone"); err != nil {
		t.Fatal(err)
	}
	dst, _ := newHome(t)
	r, err := store.Copy(ctx, src.(store.Transferer), dst.(store.Transferer), store.CopyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c := r.Collections["profiles"]; c.Added != 1 || c.Unchanged != 0 || c.Events != 3 {
		t.Errorf("first copy of one held and one removed profile: %+v, want 1 added, 0 unchanged, 3 events", c)
	}
}

// TestCloseForExit: the connection that only looked documents up is left
// open by CloseForExit (the kernel ends it when the process exits), idle;
// the connection a change made is closed.
func TestCloseForExit(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Schema(t)
	app := "exit_" + pgtest.SchemaOf(t, url)
	url = pgtest.WithParam(t, url, "application_name", app)
	sessions := func() (n int) {
		t.Helper()
		c, err := pgx.Connect(ctx, pgtest.URL(t))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(ctx)
		if err := c.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND state = 'idle'", app).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	t.Cleanup(func() {
		pgtest.Exec(t, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '"+app+"'")
	})
	migrate(t, url)
	s := openAt(t, url, postgres.Options{})
	put(t, s, storetest.Profile(t, "acme/a", 1), false)
	if err := s.CloseForExit(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for sessions() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the connection of a change is still open after CloseForExit")
		}
		time.Sleep(20 * time.Millisecond)
	}

	r := openAt(t, url, postgres.Options{})
	if _, err := r.Profiles().Get(ctx, "acme/a"); err != nil {
		t.Fatal(err)
	}
	if err := r.CloseForExit(); err != nil {
		t.Fatal(err)
	}
	if n := sessions(); n != 1 {
		t.Fatalf("%d idle sessions after CloseForExit of a lookup, want the one left for the process's exit", n)
	}
}

// TestSessionInAnotherSchema: the store names its tables without a schema,
// so a session whose search_path puts another schema first (the one named
// does not exist, or a pooler set the path instead) would read another
// registry. It is refused, by a lookup (the raw connection) and by a
// listing (pgx's), before anything is read.
func TestSessionInAnotherSchema(t *testing.T) {
	real := open(t, postgres.Options{})
	put(t, real, storetest.Profile(t, "acme/x", 1), false)
	missing := pgtest.SchemaPrefix() + "missing"
	url := pgtest.WithParam(t, pgtest.URL(t), "search_path", missing+","+real.Schema())
	for _, read := range lookupAndListing {
		s := openAt(t, url, postgres.Options{})
		if s.Schema() != missing {
			t.Fatalf("schema %q, want %q", s.Schema(), missing)
		}
		err := read.fn(s)
		want := fmt.Sprintf("puts this session in schema %q, not in schema %q", real.Schema(), missing)
		if errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), want) {
			t.Fatalf("%s through a search_path that falls through to another registry: %v, want %q", read.name, err, want)
		}
	}
}

// lookupAndListing are the store's two ways of reading acme/x: a lookup
// (on the raw connection) and a listing (on pgx's).
var lookupAndListing = []struct {
	name string
	fn   func(s *postgres.Store) error
}{
	{"get", func(s *postgres.Store) error { _, err := s.Profiles().Get(context.Background(), "acme/x"); return err }},
	{"list", func(s *postgres.Store) error {
		_, err := s.Profiles().Names(context.Background(), store.Query{})
		return err
	}},
}

// TestVersionTableAloneIsNotMigrated: a schema holding goose's version
// table at version 0 and none of the registry's tables (a first
// migration under way, or one that failed after goose made its table) is
// a registry never migrated, as an empty schema is, with the hint to
// migrate it: not a damaged one to restore from a backup. The version is
// judged before the tables a version may lack.
func TestVersionTableAloneIsNotMigrated(t *testing.T) {
	url := pgtest.Schema(t)
	sc := pgtest.SchemaOf(t, url)
	pgtest.Exec(t,
		"CREATE SCHEMA "+sc,
		"CREATE TABLE "+sc+".goose_db_version (id serial PRIMARY KEY, version_id bigint NOT NULL, is_applied boolean NOT NULL, tstamp timestamp DEFAULT now())",
		"INSERT INTO "+sc+".goose_db_version (version_id, is_applied) VALUES (0, true)")
	for _, read := range lookupAndListing {
		err := read.fn(openAt(t, url, postgres.Options{}))
		if errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), "never migrated") {
			t.Errorf("%s: %v, want the registry reported as never migrated", read.name, err)
		}
	}
}

// TestTableInAnotherSchema: the store names its tables without a schema,
// so with a search_path of several schemas, a table dropped from the
// registry's schema would be found in the next one, another registry's,
// and a view put in a table's place would answer for it. Either is
// refused before anything is read, by a lookup (the raw connection) and
// by a listing (pgx's): the other registry's profile is never served.
func TestTableInAnotherSchema(t *testing.T) {
	for _, damage := range []struct {
		name string
		sql  func(reg, other string) []string
	}{
		{"dropped", func(reg, _ string) []string { return []string{"DROP TABLE " + reg + ".profiles"} }},
		{"view", func(reg, other string) []string {
			return []string{
				"ALTER TABLE " + reg + ".profiles RENAME TO profiles_kept",
				"CREATE VIEW " + reg + ".profiles AS SELECT * FROM " + other + ".profiles",
			}
		}},
	} {
		reg := open(t, postgres.Options{})
		put(t, reg, storetest.Profile(t, "acme/x", 1), false)
		other := open(t, postgres.Options{})
		put(t, other, storetest.Profile(t, "acme/x", 5), false)
		pgtest.Exec(t, damage.sql(reg.Schema(), other.Schema())...)
		url := pgtest.WithParam(t, pgtest.URL(t), "search_path", reg.Schema()+","+other.Schema())
		for _, read := range lookupAndListing {
			err := read.fn(openAt(t, url, postgres.Options{}))
			if errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), "profiles is not a table of that schema") {
				t.Errorf("%s, %s: %v, want the registry refused as damaged", damage.name, read.name, err)
			}
		}
	}
}

// TestRowContentNotItsDigest: a row whose content is not what its digest
// says (changed by SQL with the table's constraint dropped) is refused by
// a lookup, on the raw connection and on pgx's, instead of being served
// as the profile; putting the version the row records writes it again
// rather than finding it unchanged.
func TestRowContentNotItsDigest(t *testing.T) {
	ctx := context.Background()
	s := open(t, postgres.Options{})
	strict := put(t, s, storetest.Profile(t, "acme/x", 1), false)
	put(t, s, storetest.Profile(t, "acme/x", 5), true)
	// The row holds the loose version's content and the strict one's digest.
	sc := s.Schema()
	pgtest.Exec(t,
		"ALTER TABLE "+sc+".profiles DROP CONSTRAINT profiles_digest",
		"UPDATE "+sc+".profiles SET digest = (SELECT digest FROM "+sc+".history WHERE name = 'acme/x' AND seq = 1), decoded = NULL, decoded_by = NULL, decoded_for = NULL")
	url := pgtest.WithParam(t, pgtest.URL(t), "search_path", sc)
	for _, via := range []struct {
		name  string
		first func(s *postgres.Store) error
	}{
		{"raw", func(*postgres.Store) error { return nil }},
		{"pgx", func(s *postgres.Store) error { _, err := s.Profiles().Names(ctx, store.Query{}); return err }},
	} {
		r := openAt(t, url, postgres.Options{})
		if err := via.first(r); err != nil {
			t.Fatal(err)
		}
		got, err := r.Profiles().Get(ctx, "acme/x")
		if errs.KindOf(err) != errs.KindInvalid {
			t.Fatalf("%s: Get of a row whose content is not its digest: %+v, %v; want it refused as invalid", via.name, got, err)
		}
	}
	// A copy out of the registry would carry the content on as a version
	// of its own: it is refused too.
	if _, err := openAt(t, url, postgres.Options{}).Snapshot(ctx); errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), "acme/x") {
		t.Fatalf("Snapshot of a registry with a row whose content is not its digest: %v; want it refused as invalid, naming the row", err)
	}
	res, err := s.Profiles().Put(ctx, strict, true)
	if err != nil || res.Unchanged {
		t.Fatalf("put of the version the row records: %+v, %v; want it written", res, err)
	}
	got, err := openAt(t, url, postgres.Options{}).Profiles().Get(ctx, "acme/x")
	if err != nil || !reflect.DeepEqual(got, strict) {
		t.Fatalf("after the put: %+v, %v; want the strict version", got, err)
	}
}

// TestRowUnderABuiltinName: a row put by SQL under a built-in profile's
// name (the table's namespace constraint dropped first), holding a
// profile of that name, is not a custom profile agents could have
// written: a listing reports it as a problem and lists the others, as it
// does a row that does not parse, instead of listing it as that profile.
func TestRowUnderABuiltinName(t *testing.T) {
	ctx := context.Background()
	s := open(t, postgres.Options{})
	put(t, s, storetest.Profile(t, "acme/x", 1), false)
	sc := s.Schema()
	content := "convert_to(replace(convert_from(content, 'UTF8'), 'name: acme/x', 'name: cautious'), 'UTF8')"
	pgtest.Exec(t,
		"ALTER TABLE "+sc+".profiles DROP CONSTRAINT profiles_namespace",
		"INSERT INTO "+sc+".objects (digest, data) SELECT encode(sha256("+content+"), 'hex'), "+content+" FROM "+sc+".profiles",
		"INSERT INTO "+sc+".profiles (name, namespace, content, digest) SELECT 'cautious', 'cautious', "+content+", encode(sha256("+content+"), 'hex') FROM "+sc+".profiles")
	l, err := s.Profiles().List(ctx, store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range l.Items {
		names = append(names, p.Name)
	}
	if !reflect.DeepEqual(names, []string{"acme/x"}) || len(l.Problems) != 1 || l.Problems[0].File != "profiles/cautious" {
		t.Fatalf("listed %q with problems %+v; want acme/x alone and profiles/cautious reported", names, l.Problems)
	}
}

// TestLastEventAsHistory: the last event of a name, read as a lookup is
// (on the raw connection, as a decision reads it) and on pgx's, is the
// last entry of its history, to the nanosecond; a name never held is not
// found, and one held without history has no last event.
func TestLastEventAsHistory(t *testing.T) {
	ctx := context.Background()
	s := open(t, postgres.Options{})
	for v := 1; v <= 3; v++ {
		put(t, s, storetest.Profile(t, "acme/x", v), true)
	}
	h, err := s.Profiles().History(ctx, "acme/x")
	if err != nil || len(h) != 3 {
		t.Fatalf("history: %+v, %v", h, err)
	}
	url := pgtest.WithParam(t, pgtest.URL(t), "search_path", s.Schema())
	for _, via := range []struct {
		name  string
		first func(s *postgres.Store) error
	}{
		{"raw", func(s *postgres.Store) error { _, err := s.Profiles().Get(ctx, "acme/x"); return err }},
		{"pgx", func(s *postgres.Store) error { _, err := s.Profiles().Names(ctx, store.Query{}); return err }},
	} {
		r := openAt(t, url, postgres.Options{})
		if err := via.first(r); err != nil {
			t.Fatal(err)
		}
		last, ok, err := r.Profiles().LastEvent(ctx, "acme/x")
		if err != nil || !ok || last.Digest != h[2].Digest || last.Event != h[2].Event || !last.Time.Equal(h[2].Time) {
			t.Errorf("%s: last event %+v, %v, %v; want %+v", via.name, last, ok, err, h[2])
		}
		if _, ok, err := r.Profiles().LastEvent(ctx, "acme/never"); ok || errs.KindOf(err) != errs.KindNotFound {
			t.Errorf("%s: last event of a name never held: %v, %v; want not found", via.name, ok, err)
		}
	}
	pgtest.Exec(t, "DELETE FROM "+s.Schema()+".history")
	if _, ok, err := openAt(t, url, postgres.Options{}).Profiles().LastEvent(ctx, "acme/x"); ok || err != nil {
		t.Errorf("last event of a name held without history: %v, %v; want none", ok, err)
	}
}
