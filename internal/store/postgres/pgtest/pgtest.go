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

// URL returns the test server's URL, skipping t (or failing it, when
// AGENTS_REQUIRE_POSTGRES=1) when the server cannot be reached.
func URL(t testing.TB) string {
	t.Helper()
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
		msg := fmt.Sprintf("PostgreSQL tests skipped: no server at %s (%s); set AGENTS_TEST_POSTGRES=postgres://user@host:port/db to run them",
			storeurl.Redact(u), why)
		if os.Getenv("AGENTS_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("%s (AGENTS_REQUIRE_POSTGRES=1 requires them)", msg)
		}
		t.Skip(msg)
	}
	return u
}

// Exec runs statements on the test server as its administrator.
func Exec(t testing.TB, sql ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := pgx.Connect(ctx, URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for _, q := range sql {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// Schema returns a store URL on the test server whose search_path names
// a new schema (not created: 'store migrate' creates it), dropped when
// the test ends.
func Schema(t testing.TB) string {
	t.Helper()
	base := URL(t)
	name := "agents_test_" + randomHex(6)
	t.Cleanup(func() { Exec(t, "DROP SCHEMA IF EXISTS "+name+" CASCADE") })
	return WithParam(t, base, "search_path", name)
}

// WithParam returns the URL u with a query parameter set.
func WithParam(t testing.TB, u, key, value string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatalf("AGENTS_TEST_POSTGRES must be a postgres:// URL: %v", err)
	}
	q := p.Query()
	q.Set(key, value)
	p.RawQuery = q.Encode()
	return p.String()
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
