package postgres

import (
	"context"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
)

// Profiles implements store.Store.
func (s *Store) Profiles() store.Docs[*profile.AutomationProfile] {
	return docs[*profile.AutomationProfile]{s, profiles}
}

// Actions implements store.Store.
func (s *Store) Actions() store.Docs[*action.Action] { return docs[*action.Action]{s, actions} }

// Plans implements store.Store.
func (s *Store) Plans() store.Docs[*plan.Plan] { return docs[*plan.Plan]{s, plans} }

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
