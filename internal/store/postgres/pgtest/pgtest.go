// Package pgtest gives tests a PostgreSQL schema of their own. The server
// is AGENTS_TEST_POSTGRES, by default the local one every development and
// CI machine runs; when it cannot be reached the tests skip, with one line
// saying how to run them, unless AGENTS_REQUIRE_POSTGRES=1 (as .ci/run
// sets), which makes that a failure.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agentsctl/agents/internal/storeurl"
)

// DefaultURL is the server tried when AGENTS_TEST_POSTGRES is not set.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

var (
	probeOnce sync.Once
	probeErr  error
)

// Probe returns the test server's URL, or why it cannot be reached: the
// one line a skipped test shows.
func Probe() (string, error) {
	u := os.Getenv("AGENTS_TEST_POSTGRES")
	if u == "" {
		u = DefaultURL
	}
	probeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, u)
		if err == nil {
			err = c.Ping(ctx)
			c.Close(ctx)
		}
		probeErr = err
	})
	if probeErr != nil {
		why := strings.Join(strings.Fields(storeurl.Scrub(probeErr.Error(), storeurl.Password(u))), " ")
		return "", fmt.Errorf("PostgreSQL tests skipped: no server at %s (%s); set AGENTS_TEST_POSTGRES=postgres://user@host:port/db to run them",
			storeurl.Redact(u), why)
	}
	return u, nil
}

// Required reports whether the PostgreSQL tests must run
// (AGENTS_REQUIRE_POSTGRES=1): an unreachable server is then a failure.
func Required() bool { return os.Getenv("AGENTS_REQUIRE_POSTGRES") == "1" }

// URL returns the test server's URL, skipping t (or failing it, when
// AGENTS_REQUIRE_POSTGRES=1) when the server cannot be reached.
func URL(t testing.TB) string {
	t.Helper()
	u, err := Probe()
	if err != nil {
		if Required() {
			t.Fatalf("%v (AGENTS_REQUIRE_POSTGRES=1 requires them)", err)
		}
		t.Skip(err.Error())
	}
	return u
}

// SchemaPrefix begins the name of every schema NewSchema makes:
// AGENTS_TEST_SCHEMA_PREFIX when set (so checkouts sharing one server can
// tell their schemas apart), agents_test_ otherwise. The random part
// follows it.
func SchemaPrefix() string {
	if p := os.Getenv("AGENTS_TEST_SCHEMA_PREFIX"); p != "" {
		return p
	}
	return "agents_test_"
}

// RoleName returns a name for a new role of a test, such as a reader's:
// SchemaPrefix, what the role is for, and a random part, so that the roles
// of checkouts sharing one server are told apart as their schemas are.
func RoleName(what string) string {
	return SchemaPrefix() + what + "_" + randomHex(4)
}

// NewSchema returns a new schema's name and a URL of base whose
// search_path names it; the schema itself is not created ('store migrate'
// creates it). DropSchema removes it.
func NewSchema(base string) (name, url string, err error) {
	name = SchemaPrefix() + randomHex(6)
	url, err = withParam(base, "search_path", name)
	return name, url, err
}

// DropSchema drops a schema NewSchema named, and all it holds.
func DropSchema(base, name string) error {
	return execOn(base, "DROP SCHEMA IF EXISTS "+name+" CASCADE")
}

func execOn(base string, sql ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := pgx.Connect(ctx, base)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	for _, q := range sql {
		if _, err := c.Exec(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}

func withParam(u, key, value string) (string, error) {
	p, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("AGENTS_TEST_POSTGRES must be a postgres:// URL: %w", err)
	}
	q := p.Query()
	q.Set(key, value)
	p.RawQuery = q.Encode()
	return p.String(), nil
}

// Exec runs statements on the test server as its administrator.
func Exec(t testing.TB, sql ...string) {
	t.Helper()
	if err := execOn(URL(t), sql...); err != nil {
		t.Fatal(err)
	}
}

// Schema returns a store URL on the test server whose search_path names
// a new schema (not created: 'store migrate' creates it), dropped when
// the test ends.
func Schema(t testing.TB) string {
	t.Helper()
	base := URL(t)
	name, u, err := NewSchema(base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := DropSchema(base, name); err != nil {
			t.Error(err)
		}
	})
	return u
}

// WithParam returns the URL u with a query parameter set.
func WithParam(t testing.TB, u, key, value string) string {
	t.Helper()
	out, err := withParam(u, key, value)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// WithUser returns the URL u with another user and no password.
func WithUser(t testing.TB, u, user string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	p.User = url.User(user)
	return p.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// SchemaOf returns the search_path a URL made by Schema names.
func SchemaOf(t testing.TB, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Query().Get("search_path")
}
