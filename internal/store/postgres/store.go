package postgres

import (
	"context"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
)

// The methods of store.Store: each one a call of the generic operation on
// its table (table.go).

// GetProfile implements store.Store.
func (s *Store) GetProfile(ctx context.Context, name string) (*profile.AutomationProfile, error) {
	return get(ctx, s, profiles, name)
}

// ListProfiles implements store.Store.
func (s *Store) ListProfiles(ctx context.Context, q store.ProfileQuery) (store.ProfileList, error) {
	ps, problems, err := list(ctx, s, profiles, q.Query())
	return store.ProfileList{Profiles: ps, Problems: problems}, err
}

// ListProfileNames implements store.Store.
func (s *Store) ListProfileNames(ctx context.Context, q store.ProfileQuery) ([]string, error) {
	return names(ctx, s, profiles, q.Query())
}

// PutProfile implements store.Store.
func (s *Store) PutProfile(ctx context.Context, p *profile.AutomationProfile, update bool) (store.PutResult, error) {
	if p == nil {
		return store.PutResult{}, errs.Invalid("no profile to store")
	}
	out, err := put(ctx, s, profiles, p, update)
	return store.PutResult{Stored: out.stored, Replaced: out.replaced, Digest: out.digest, Unchanged: out.unchanged}, err
}

// RemoveProfile implements store.Store.
func (s *Store) RemoveProfile(ctx context.Context, name string) (store.RemoveResult, error) {
	// The removal and its history row are one transaction: there is
	// nothing to warn about afterwards.
	p, err := remove(ctx, s, profiles, name)
	if err != nil {
		return store.RemoveResult{}, err
	}
	return store.RemoveResult{Removed: p}, nil
}

// ProfileHistory implements store.Store.
func (s *Store) ProfileHistory(ctx context.Context, name string) ([]store.HistoryEntry, error) {
	return history(ctx, s, profiles, name)
}

// GetAction implements store.Store.
func (s *Store) GetAction(ctx context.Context, name string) (*action.Action, error) {
	return get(ctx, s, actions, name)
}

// ListActions implements store.Store.
func (s *Store) ListActions(ctx context.Context, q store.ActionQuery) (store.ActionList, error) {
	as, problems, err := list(ctx, s, actions, q.Query())
	return store.ActionList{Actions: as, Problems: problems}, err
}

// ListActionNames implements store.Store.
func (s *Store) ListActionNames(ctx context.Context, q store.ActionQuery) ([]string, error) {
	return names(ctx, s, actions, q.Query())
}

// PutAction implements store.Store.
func (s *Store) PutAction(ctx context.Context, a *action.Action, update bool) (store.ActionPutResult, error) {
	if a == nil {
		return store.ActionPutResult{}, errs.Invalid("no action to store")
	}
	out, err := put(ctx, s, actions, a, update)
	return store.ActionPutResult{Stored: out.stored, Replaced: out.replaced, Unchanged: out.unchanged}, err
}

// RemoveAction implements store.Store.
func (s *Store) RemoveAction(ctx context.Context, name string) (*action.Action, error) {
	return remove(ctx, s, actions, name)
}

// GetPlan implements store.Store.
func (s *Store) GetPlan(ctx context.Context, id string) (*plan.Plan, error) {
	return get(ctx, s, plans, id)
}

// ListPlans implements store.Store.
func (s *Store) ListPlans(ctx context.Context) (store.PlanList, error) {
	ps, problems, err := list(ctx, s, plans, store.Query{})
	return store.PlanList{Plans: ps, Problems: problems}, err
}

// ListPlanIDs implements store.Store.
func (s *Store) ListPlanIDs(ctx context.Context) ([]string, error) {
	return names(ctx, s, plans, store.Query{})
}

// PutPlan implements store.Store.
func (s *Store) PutPlan(ctx context.Context, p *plan.Plan, update bool) (*plan.Plan, error) {
	if p == nil {
		return nil, errs.Invalid("no plan to store")
	}
	out, err := put(ctx, s, plans, p, update)
	if err != nil {
		return nil, err
	}
	return out.stored, nil
}
