//go:build linux

package postgres_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store/postgres"
	"github.com/agentsctl/agents/internal/store/postgres/early"
	"github.com/agentsctl/agents/internal/store/postgres/pgtest"
	"github.com/agentsctl/agents/internal/store/storetest"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestEarlyConnectionTaken: a connection begun at start-up with the very
// start the store would send is the one the store reads through.
func TestEarlyConnectionTaken(t *testing.T) {
	ctx := context.Background()
	s := open(t, postgres.Options{LockTimeout: 10 * time.Second})
	if _, err := s.Profiles().Put(ctx, storetest.Profile(t, "acme/a", 1), false); err != nil {
		t.Fatal(err)
	}
	url := pgtest.WithParam(t, pgtest.URL(t), "search_path", s.Schema())
	before := early.Handed()
	early.Start([]string{"--store", url, "automation-profile", "show", "acme/a"}, func(string) string { return "" })
	t.Cleanup(early.Release)
	got, err := openAt(t, url, postgres.Options{LockTimeout: 10 * time.Second}).Profiles().Get(ctx, "acme/a")
	if err != nil || !reflect.DeepEqual(got, storetest.Profile(t, "acme/a", 1)) {
		t.Fatalf("get through the early connection: %+v, %v", got, err)
	}
	if early.Handed() != before+1 {
		t.Fatalf("the early connection to %s was not taken (is the test server's URL of the plain form package early reads?)", url)
	}
}

// aheadStore returns a migrated store holding acme/a (version 1), its URL,
// and an environment in which package early sends statements ahead (a
// HOME without a password file).
func aheadStore(t *testing.T) (s *postgres.Store, url string, getenv func(string) string) {
	t.Helper()
	home := t.TempDir()
	s = open(t, postgres.Options{LockTimeout: 10 * time.Second})
	if _, err := s.Profiles().Put(context.Background(), storetest.Profile(t, "acme/a", 1), false); err != nil {
		t.Fatal(err)
	}
	url = pgtest.WithParam(t, pgtest.URL(t), "search_path", s.Schema())
	return s, url, func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
}

// TestEarlyConnectionSentAhead: the early connection that sent statements
// behind its start is taken, and the store reads its own answers through
// it: the lookup sent ahead of a show (the one the store sends, so its
// answer is taken), a lookup of another profile, and a warm-up, in a
// migrated schema and in one never migrated alike.
func TestEarlyConnectionSentAhead(t *testing.T) {
	ctx := context.Background()
	_, url, home := aheadStore(t)
	for _, tc := range []struct {
		name    string
		command []string // what the early connection guesses from
		get     string   // what the store looks up
		taken   bool     // the answer sent ahead is the store's
	}{
		{"the lookup sent ahead", []string{"automation-profile", "show", "acme/a"}, "acme/a", true},
		{"a lookup of nothing sent ahead", []string{"automation-profile", "show", "acme/none"}, "acme/none", true},
		{"another lookup sent ahead", []string{"automation-profile", "show", "acme/none"}, "acme/a", false},
		{"a warm-up", []string{"automation-profile", "history", "acme/a"}, "acme/a", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, ahead, taken := early.Handed(), early.SentAhead(), postgres.AnswersTaken()
			early.Start(append([]string{"--store", url}, tc.command...), home)
			t.Cleanup(early.Release)
			got, err := openAt(t, url, postgres.Options{LockTimeout: 10 * time.Second}).Profiles().Get(ctx, tc.get)
			switch {
			case tc.get == "acme/a" && (err != nil || !reflect.DeepEqual(got, storetest.Profile(t, "acme/a", 1))):
				t.Fatalf("get %s: %+v, %v", tc.get, got, err)
			case tc.get == "acme/none" && errs.KindOf(err) != errs.KindNotFound:
				t.Fatalf("get %s: %+v, %v", tc.get, got, err)
			}
			if early.Handed() != before+1 || early.SentAhead() != ahead+1 {
				t.Fatalf("the early connection was not taken with statements ahead (taken %d, ahead %d)", early.Handed()-before, early.SentAhead()-ahead)
			}
			if got := postgres.AnswersTaken() - taken; got != map[bool]int64{true: 1}[tc.taken] {
				t.Fatalf("%d answers sent ahead read as the store's, want %v (does early.Lookup encode what pgconn sends?)", got, tc.taken)
			}
		})
	}

	bare := pgtest.Schema(t)
	for _, command := range [][]string{{"automation-profile", "show", "acme/a"}, {"automation-profile", "history", "acme/a"}} {
		early.Start(append([]string{"--store", bare}, command...), home)
		t.Cleanup(early.Release)
		_, err := openAt(t, bare, postgres.Options{}).Profiles().Get(ctx, "acme/a")
		if errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), "never migrated") {
			t.Fatalf("%s from an unmigrated schema, with statements ahead: %v", command[1], err)
		}
	}
}

// TestAnswerAheadTooOldIsDropped: a lookup that went ahead tells how the
// profile stood when it went; a store that asks later than the answer may
// be old reads the profile anew, as it is now.
func TestAnswerAheadTooOldIsDropped(t *testing.T) {
	ctx := context.Background()
	s, url, home := aheadStore(t)
	taken := postgres.AnswersTaken()
	early.Start([]string{"--store", url, "automation-profile", "show", "acme/a"}, home)
	t.Cleanup(early.Release)
	time.Sleep(50 * time.Millisecond) // the lookup has run
	if _, err := s.Profiles().Put(ctx, storetest.Profile(t, "acme/a", 2), true); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	got, err := openAt(t, url, postgres.Options{LockTimeout: 10 * time.Second}).Profiles().Get(ctx, "acme/a")
	if err != nil || !reflect.DeepEqual(got, storetest.Profile(t, "acme/a", 2)) {
		t.Fatalf("get, after the answer ahead grew old: %+v, %v; want the profile as it is now", got, err)
	}
	if postgres.AnswersTaken() != taken {
		t.Fatal("an answer older than its limit was read as the store's")
	}
}

// TestWarmupQueryRuns: the warm-up query names tables and columns the
// migrated schema has (a wrong name would only fail quietly).
func TestWarmupQueryRuns(t *testing.T) {
	ctx := context.Background()
	s := open(t, postgres.Options{})
	url := pgtest.WithParam(t, pgtest.URL(t), "search_path", s.Schema())
	c, err := pgconn.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, early.Warmup(s.Schema(), []string{"profiles", "actions", "plans"})).ReadAll(); err != nil {
		t.Fatalf("the warm-up query in a migrated schema: %v", err)
	}
}

// TestEarlyConnectionOfAnotherStartRefused: an early connection made for
// another schema, or another lock timeout, is never read through, though
// it goes to the same server.
func TestEarlyConnectionOfAnotherStartRefused(t *testing.T) {
	ctx := context.Background()
	a := open(t, postgres.Options{})
	b := open(t, postgres.Options{})
	if _, err := b.Profiles().Put(ctx, storetest.Profile(t, "acme/b", 1), false); err != nil {
		t.Fatal(err)
	}
	base := pgtest.URL(t)
	urlA := pgtest.WithParam(t, base, "search_path", a.Schema())
	urlB := pgtest.WithParam(t, base, "search_path", b.Schema())
	none := func(string) string { return "" }
	for _, tc := range []struct {
		name       string
		args       []string
		url        string
		opts       postgres.Options
		wantFound  bool
		schemaRead string
	}{
		{"another schema", []string{"--store", urlA, "automation-profile", "show", "acme/b"}, urlB, postgres.Options{LockTimeout: 10 * time.Second}, true, b.Schema()},
		{"another lock timeout", []string{"--lock-timeout", "3s", "--store", urlB, "automation-profile", "show", "acme/b"}, urlB, postgres.Options{LockTimeout: 10 * time.Second}, true, b.Schema()},
		{"the other way", []string{"--store", urlB, "automation-profile", "show", "acme/b"}, urlA, postgres.Options{LockTimeout: 10 * time.Second}, false, a.Schema()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := early.Handed()
			early.Start(tc.args, none)
			t.Cleanup(early.Release)
			got, err := openAt(t, tc.url, tc.opts).Profiles().Get(ctx, "acme/b")
			switch {
			case tc.wantFound && (err != nil || !reflect.DeepEqual(got, storetest.Profile(t, "acme/b", 1))):
				t.Fatalf("get from %s: %+v, %v", tc.schemaRead, got, err)
			case !tc.wantFound && errs.KindOf(err) != errs.KindNotFound:
				t.Fatalf("get from %s, which lacks acme/b: %+v, %v (read through the early connection to the other schema?)", tc.schemaRead, got, err)
			}
			if early.Handed() != before {
				t.Fatal("an early connection with another start was taken")
			}
		})
	}
}
