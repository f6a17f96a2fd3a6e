package registry

import (
	"strings"

	"github.com/agentsctl/agents/internal/store"
)

// The names below are for shell completion, which offers what the store
// holds: a store that cannot be read offers nothing, and no error.

// ProfileNames returns the names of the stored custom profiles that begin
// with prefix, sorted.
func (r *Registry) ProfileNames(prefix string) []string {
	return names(r, prefix, store.Store.Profiles)
}

// ActionNames returns the names of the stored actions that begin with
// prefix, sorted.
func (r *Registry) ActionNames(prefix string) []string {
	return names(r, prefix, store.Store.Actions)
}

// PlanIDs returns the ids of the stored plans, oldest first.
func (r *Registry) PlanIDs() []string {
	return names(r, "", store.Store.Plans)
}

func names[T any](r *Registry, prefix string, docs func(store.Store) store.Docs[T]) []string {
	st, err := r.Store()
	if err != nil || st == nil {
		return nil
	}
	var q store.Query
	if prefix != "" {
		q.Match = func(name string) bool { return strings.HasPrefix(name, prefix) }
	}
	out, _ := docs(st).Names(r.ctx(), q)
	return out
}
