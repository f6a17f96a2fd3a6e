package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/store/postgres"
	"github.com/agentsctl/agents/internal/store/postgres/pgtest"
	"github.com/agentsctl/agents/internal/store/storetest"
)

// open returns a store in a schema of its own, migrated.
func open(t *testing.T, opts postgres.Options) *postgres.Store {
	t.Helper()
	url := pgtest.Schema(t)
	s, err := postgres.Open(url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	pgtest.URL(t)
	storetest.Run(t, func(t *testing.T) store.Store {
		return open(t, postgres.Options{LockTimeout: time.Minute})
	})
}
