package store

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
)

// Memory is a Store held in memory, for tests and as the reference the
// conformance suite holds the file store to. It stores what the file store
// would: each profile after one trip through the canonical encoding.
type Memory struct {
	mu       sync.Mutex
	now      func() time.Time
	profiles map[string]*profile.AutomationProfile
	history  map[string][]HistoryEntry
	objects  map[string][]byte
	actions  map[string]*action.Action
	plans    map[string]*plan.Plan
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty in-memory store that stamps history with
// time.Now.
func NewMemory() *Memory { return NewMemoryWithClock(nil) }

// NewMemoryWithClock returns an empty in-memory store that stamps history
// with now (time.Now when nil).
func NewMemoryWithClock(now func() time.Time) *Memory {
	if now == nil {
		now = time.Now
	}
	return &Memory{
		now:      now,
		profiles: map[string]*profile.AutomationProfile{},
		history:  map[string][]HistoryEntry{},
		objects:  map[string][]byte{},
		actions:  map[string]*action.Action{},
		plans:    map[string]*plan.Plan{},
	}
}

// GetProfile implements Store.
func (m *Memory) GetProfile(ctx context.Context, name string) (*profile.AutomationProfile, error) {
	if err := ctx.Err(); err != nil {
		return nil, interrupted(err)
	}
	if err := profile.ValidateCustomName(name); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.profiles[name]
	if !ok {
		return nil, profileNotFound(name)
	}
	return p.Clone(), nil
}

// ListProfiles implements Store.
func (m *Memory) ListProfiles(ctx context.Context, q ProfileQuery) (ProfileList, error) {
	names, err := m.ListProfileNames(ctx, q)
	if err != nil {
		return ProfileList{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out ProfileList
	for i, name := range names {
		if p, ok := m.profiles[name]; ok {
			out.Profiles = append(out.Profiles, p.Clone())
		}
		if q.Progress != nil {
			q.Progress(i+1, len(names))
		}
	}
	return out, nil
}

// ListProfileNames implements Store.
func (m *Memory) ListProfileNames(ctx context.Context, q ProfileQuery) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, interrupted(err)
	}
	if err := q.check(); err != nil {
		return nil, err
	}
	return memNames(m, m.profiles, q.filter()), nil
}

// PutProfile implements Store.
func (m *Memory) PutProfile(ctx context.Context, p *profile.AutomationProfile, update bool) (PutResult, error) {
	if err := ctx.Err(); err != nil {
		return PutResult{}, interrupted(err)
	}
	if p == nil {
		return PutResult{}, errs.Invalid("no profile to store")
	}
	if err := profile.ValidateCustomName(p.Name); err != nil {
		return PutResult{}, err
	}
	data, stored, err := profile.Encode(p)
	if err != nil {
		return PutResult{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old, exists := m.profiles[p.Name]
	if exists && !update {
		return PutResult{}, profileConflict(p.Name)
	}
	digest := canon.Digest(data)
	if exists {
		if cur, _, err := profile.Encode(old); err == nil && canon.Digest(cur) == digest {
			return PutResult{Stored: old.Clone(), Replaced: old.Clone(), Digest: digest, Unchanged: true}, nil
		}
	}
	m.objects[digest] = data
	m.profiles[p.Name] = stored
	m.record(p.Name, EventPut, digest)
	return PutResult{Stored: stored.Clone(), Replaced: old.Clone(), Digest: digest}, nil
}

// RemoveProfile implements Store.
func (m *Memory) RemoveProfile(ctx context.Context, name string) (RemoveResult, error) {
	if err := ctx.Err(); err != nil {
		return RemoveResult{}, interrupted(err)
	}
	if err := profile.ValidateCustomName(name); err != nil {
		return RemoveResult{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.profiles[name]
	if !ok {
		return RemoveResult{}, profileNotFound(name)
	}
	data, _, err := profile.Encode(p)
	if err != nil {
		return RemoveResult{}, err
	}
	delete(m.profiles, name)
	m.record(name, EventRemove, canon.Digest(data))
	return RemoveResult{Removed: p.Clone()}, nil
}

// record appends an event to a profile's history; m.mu is held.
func (m *Memory) record(name, event, digest string) {
	m.history[name] = append(m.history[name], HistoryEntry{
		Digest: digest,
		Time:   m.now().UTC().Round(0),
		Event:  event,
	})
}

// ProfileHistory implements Store.
func (m *Memory) ProfileHistory(ctx context.Context, name string) ([]HistoryEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, interrupted(err)
	}
	if err := profile.ValidateCustomName(name); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	h, ok := m.history[name]
	if !ok {
		return nil, profileNotFound(name)
	}
	return slices.Clone(h), nil
}

// PutObject implements Store.
func (m *Memory) PutObject(ctx context.Context, data []byte) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", interrupted(err)
	}
	if len(data) > MaxObjectSize {
		return "", objectTooLarge(len(data))
	}
	digest := canon.Digest(data)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.objects[digest]; !ok {
		m.objects[digest] = slices.Clone(data)
	}
	return digest, nil
}

// HasObject implements Store.
func (m *Memory) HasObject(ctx context.Context, digest string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, interrupted(err)
	}
	if err := CheckDigest(digest); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.objects[digest]
	return ok, nil
}

// GetObject implements Store.
func (m *Memory) GetObject(ctx context.Context, digest string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, interrupted(err)
	}
	if err := CheckDigest(digest); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	data, ok := m.objects[digest]
	if !ok {
		return nil, objectNotFound(digest)
	}
	return slices.Clone(data), nil
}

// Check implements Store: memory has nothing that others could write to.
func (m *Memory) Check(context.Context) ([]string, error) { return nil, nil }

// GetAction implements Store.
func (m *Memory) GetAction(ctx context.Context, name string) (*action.Action, error) {
	if err := ctx.Err(); err != nil {
		return nil, interrupted(err)
	}
	if err := action.ValidateName(name); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.actions[name]
	if !ok {
		return nil, actionNotFound(name)
	}
	return a.Clone(), nil
}

// ListActions implements Store.
func (m *Memory) ListActions(ctx context.Context, q ActionQuery) (ActionList, error) {
	names, err := m.ListActionNames(ctx, q)
	if err != nil {
		return ActionList{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out ActionList
	for _, name := range names {
		if a, ok := m.actions[name]; ok {
			out.Actions = append(out.Actions, a.Clone())
		}
	}
	return out, nil
}

// ListActionNames implements Store.
func (m *Memory) ListActionNames(ctx context.Context, q ActionQuery) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, interrupted(err)
	}
	if err := q.check(); err != nil {
		return nil, err
	}
	return memNames(m, m.actions, q.filter()), nil
}

// PutAction implements Store.
func (m *Memory) PutAction(ctx context.Context, a *action.Action, update bool) (ActionPutResult, error) {
	if err := ctx.Err(); err != nil {
		return ActionPutResult{}, interrupted(err)
	}
	if a == nil {
		return ActionPutResult{}, errs.Invalid("no action to store")
	}
	if err := action.ValidateName(a.Name); err != nil {
		return ActionPutResult{}, err
	}
	data, stored, err := action.Encode(a)
	if err != nil {
		return ActionPutResult{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old, exists := m.actions[a.Name]
	if exists && !update {
		return ActionPutResult{}, actionConflict(a.Name)
	}
	if exists {
		if cur, _, err := action.Encode(old); err == nil && canon.Digest(cur) == canon.Digest(data) {
			return ActionPutResult{Stored: old.Clone(), Replaced: old.Clone(), Unchanged: true}, nil
		}
	}
	m.actions[a.Name] = stored
	return ActionPutResult{Stored: stored.Clone(), Replaced: old.Clone()}, nil
}

// RemoveAction implements Store.
func (m *Memory) RemoveAction(ctx context.Context, name string) (*action.Action, error) {
	if err := ctx.Err(); err != nil {
		return nil, interrupted(err)
	}
	if err := action.ValidateName(name); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.actions[name]
	if !ok {
		return nil, actionNotFound(name)
	}
	delete(m.actions, name)
	return a.Clone(), nil
}

// GetPlan implements Store.
func (m *Memory) GetPlan(ctx context.Context, id string) (*plan.Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, interrupted(err)
	}
	if err := plan.ValidateID(id); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.plans[id]
	if !ok {
		return nil, planNotFound(id)
	}
	return p.Clone(), nil
}

// ListPlans implements Store.
func (m *Memory) ListPlans(ctx context.Context) (PlanList, error) {
	ids, err := m.ListPlanIDs(ctx)
	if err != nil {
		return PlanList{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out PlanList
	for _, id := range ids {
		out.Plans = append(out.Plans, m.plans[id].Clone())
	}
	return out, nil
}

// ListPlanIDs implements Store.
func (m *Memory) ListPlanIDs(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, interrupted(err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.plans)), nil
}

// PutPlan implements Store.
func (m *Memory) PutPlan(ctx context.Context, p *plan.Plan, update bool) (*plan.Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, interrupted(err)
	}
	if p == nil {
		return nil, errs.Invalid("no plan to store")
	}
	if err := plan.ValidateID(p.ID); err != nil {
		return nil, err
	}
	_, stored, err := plan.Encode(p)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, exists := m.plans[p.ID]; exists && !update {
		return nil, planConflict(p.ID)
	}
	m.plans[p.ID] = stored
	return stored.Clone(), nil
}

// memNames returns the names in docs that f keeps, sorted.
func memNames[T any](m *Memory, docs map[string]T, f nameFilter) []string {
	m.mu.Lock()
	all := slices.Sorted(maps.Keys(docs))
	m.mu.Unlock()
	var names []string
	for _, name := range all {
		if f.keep(name) {
			names = append(names, name)
		}
	}
	return names
}
