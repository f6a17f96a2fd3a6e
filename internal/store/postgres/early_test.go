//go:build linux

package postgres_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store/postgres"
	"github.com/agentsctl/agents/internal/store/postgres/early"
	"github.com/agentsctl/agents/internal/store/postgres/pgtest"
	"github.com/agentsctl/agents/internal/store/storetest"
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
