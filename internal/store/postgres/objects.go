package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store"
)

// PutObject implements store.Store. An object already stored is left as
// it is: objects never change.
func (s *Store) PutObject(ctx context.Context, data []byte) (string, error) {
	if data == nil {
		data = []byte{}
	}
	return store.ObjectPut(ctx, data, func(digest string) error {
		return s.with(ctx, "storing object "+digest, func(c *pgx.Conn) error {
			_, err := c.Exec(ctx, "INSERT INTO objects (digest, data) VALUES ($1, $2) ON CONFLICT (digest) DO NOTHING", digest, data)
			return err
		})
	})
}

// HasObject implements store.Store.
func (s *Store) HasObject(ctx context.Context, digest string) (bool, error) {
	if err := store.ObjectLookup(ctx, digest); err != nil {
		return false, err
	}
	// Read as a lookup is (a decision asks it after one): without opening
	// pgx's connection where a lookup left none open.
	_, ok, err := s.lookupRow(ctx, "looking up object "+digest, "SELECT digest FROM objects WHERE digest = $1", digest)
	return ok, err
}

// GetObject implements store.Store. The content is checked against its
// digest, as the table's constraint also does.
func (s *Store) GetObject(ctx context.Context, digest string) ([]byte, error) {
	if err := store.ObjectLookup(ctx, digest); err != nil {
		return nil, err
	}
	var data []byte
	err := s.with(ctx, "reading object "+digest, func(c *pgx.Conn) error {
		err := c.QueryRow(ctx, "SELECT data FROM objects WHERE digest = $1", pgx.QueryExecModeDescribeExec, digest).Scan(&data)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ObjectNotFound(digest)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if got := canon.Digest(data); got != digest {
		return nil, errs.New(errs.KindInternal, "object %s in the PostgreSQL store at %s is damaged: its content hashes to %s", digest, s.where, got)
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}
