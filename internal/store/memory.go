package store

import (
	"context"
	"slices"
	"sync"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

// Memory is a Store held in memory, for tests and as the reference the
// conformance suite holds the file store to.
type Memory struct {
	mu       sync.Mutex
	profiles map[string]*profile.AutomationProfile
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{profiles: map[string]*profile.AutomationProfile{}}
}

// GetProfile implements Store.
func (m *Memory) GetProfile(_ context.Context, name string) (*profile.AutomationProfile, error) {
	if err := profile.ValidateCustomName(name); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.profiles[name]
	if !ok {
		return nil, notFound(name)
	}
	return p.Clone(), nil
}

// ListProfiles implements Store.
func (m *Memory) ListProfiles(_ context.Context, q ProfileQuery) (ProfileList, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out ProfileList
	var names []string
	for name := range m.profiles {
		if q.keep(name) {
			names = append(names, name)
		}
	}
	for i, name := range names {
		out.Profiles = append(out.Profiles, m.profiles[name].Clone())
		if q.Progress != nil {
			q.Progress(i+1, len(names))
		}
	}
	slices.SortFunc(out.Profiles, func(a, b *profile.AutomationProfile) int {
		return compareStrings(a.Name, b.Name)
	})
	return out, nil
}

// PutProfile implements Store.
func (m *Memory) PutProfile(_ context.Context, p *profile.AutomationProfile, update bool) (PutResult, error) {
	if err := profile.ValidateCustomName(p.Name); err != nil {
		return PutResult{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old, exists := m.profiles[p.Name]
	if exists && !update {
		return PutResult{}, conflict(p.Name)
	}
	m.profiles[p.Name] = p.Clone()
	return PutResult{Replaced: old.Clone()}, nil
}

// RemoveProfile implements Store.
func (m *Memory) RemoveProfile(_ context.Context, name string) (*profile.AutomationProfile, error) {
	if err := profile.ValidateCustomName(name); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.profiles[name]
	if !ok {
		return nil, notFound(name)
	}
	delete(m.profiles, name)
	return p, nil
}

func (q ProfileQuery) keep(name string) bool {
	if q.Namespace != "" && profile.NamespaceOf(name) != q.Namespace {
		return false
	}
	return q.Match == nil || q.Match(name)
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func notFound(name string) error {
	return errs.NotFound("profile %q not found", name).
		WithHint("run 'agents automation-profile list' to see the profiles")
}

func conflict(name string) error {
	return errs.Conflict("profile %q already exists", name).
		WithHint("pass --update to replace it")
}
