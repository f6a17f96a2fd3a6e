package postgres

import (
	"context"

	"github.com/agentsctl/agents/internal/store"
)

// docs is one collection of the store: the generic operations of table.go
// on one table.
type docs[T any] struct {
	s *Store
	t *table[T]
}

// List implements store.Docs.
func (d docs[T]) List(ctx context.Context, q store.Query) (store.Listing[T], error) {
	items, problems, err := d.list(ctx, q)
	return store.Listing[T]{Items: items, Problems: problems}, err
}

// Remove implements store.Docs. The removal and its history row are one
// transaction: there is nothing to warn about afterwards.
func (d docs[T]) Remove(ctx context.Context, name string) (store.RemoveResult[T], error) {
	v, err := d.remove(ctx, name)
	if err != nil {
		return store.RemoveResult[T]{}, err
	}
	return store.RemoveResult[T]{Removed: v}, nil
}
