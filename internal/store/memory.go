package store

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
)

// Memory is a Store held in memory, for tests and as the reference the
// conformance suite holds every backend to. It stores what the others do:
// each document after one trip through the canonical encoding. Each
// collection is one generic map (memDocs).
type Memory struct {
	Kinds
	mu       sync.Mutex
	now      func() time.Time
	objects  map[string][]byte
	profiles *memDocs[*profile.AutomationProfile]
	actions  *memDocs[*action.Action]
	plans    *memDocs[*plan.Plan]
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
	m := &Memory{now: now, objects: map[string][]byte{}}
	m.profiles = newMemDocs(m, Profiles)
	m.actions = newMemDocs(m, Actions)
	m.plans = newMemDocs(m, Plans)
	m.Kinds = NewKinds(m.profiles, m.actions, m.plans)
	return m
}

// Check implements Store: memory has nothing that others could write to.
func (m *Memory) Check(context.Context) ([]Warning, error) { return nil, nil }

// PutObject implements Store.
func (m *Memory) PutObject(ctx context.Context, data []byte) (string, error) {
	return ObjectPut(ctx, data, func(digest string) error {
		m.mu.Lock()
		defer m.mu.Unlock()
		if _, ok := m.objects[digest]; !ok {
			m.objects[digest] = slices.Clone(data)
		}
		return nil
	})
}

// HasObject implements Store.
func (m *Memory) HasObject(ctx context.Context, digest string) (bool, error) {
	if err := ObjectLookup(ctx, digest); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.objects[digest]
	return ok, nil
}

// GetObject implements Store.
func (m *Memory) GetObject(ctx context.Context, digest string) ([]byte, error) {
	if err := ObjectLookup(ctx, digest); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	data, ok := m.objects[digest]
	if !ok {
		return nil, ObjectNotFound(digest)
	}
	return slices.Clone(data), nil
}

// memDocs is one collection of the memory store.
type memDocs[T any] struct {
	m       *Memory
	c       *Collection[T]
	docs    map[string]memDoc[T]
	history map[string][]HistoryEntry
}

// memDoc is a stored document and the digest of its canonical content.
type memDoc[T any] struct {
	v      T
	digest string
}

func newMemDocs[T any](m *Memory, c *Collection[T]) *memDocs[T] {
	return &memDocs[T]{m: m, c: c, docs: map[string]memDoc[T]{}, history: map[string][]HistoryEntry{}}
}

// begin checks the context and the name, and takes the store's lock.
func (d *memDocs[T]) begin(ctx context.Context, name string) (unlock func(), err error) {
	if err := d.c.CheckName(ctx, name); err != nil {
		return nil, err
	}
	d.m.mu.Lock()
	return d.m.mu.Unlock, nil
}

// Get implements Docs.
func (d *memDocs[T]) Get(ctx context.Context, name string) (T, error) {
	var zero T
	unlock, err := d.begin(ctx, name)
	if err != nil {
		return zero, err
	}
	defer unlock()
	doc, ok := d.docs[name]
	if !ok {
		return zero, d.c.NotFound(name)
	}
	return d.c.Clone(doc.v), nil
}

// List implements Docs.
func (d *memDocs[T]) List(ctx context.Context, q Query) (Listing[T], error) {
	names, err := d.Names(ctx, q)
	if err != nil {
		return Listing[T]{}, err
	}
	d.m.mu.Lock()
	defer d.m.mu.Unlock()
	var out Listing[T]
	for i, name := range names {
		if doc, ok := d.docs[name]; ok {
			out.Items = append(out.Items, d.c.Clone(doc.v))
		}
		if q.Progress != nil {
			q.Progress(i+1, len(names))
		}
	}
	return out, nil
}

// Names implements Docs.
func (d *memDocs[T]) Names(ctx context.Context, q Query) ([]string, error) {
	if err := q.CheckContext(ctx); err != nil {
		return nil, err
	}
	d.m.mu.Lock()
	all := slices.Sorted(maps.Keys(d.docs))
	d.m.mu.Unlock()
	var names []string
	for _, name := range all {
		if q.Keep(name) {
			names = append(names, name)
		}
	}
	return names, nil
}

// Put implements Docs.
func (d *memDocs[T]) Put(ctx context.Context, v T, update bool) (PutResult[T], error) {
	if err := ctx.Err(); err != nil {
		return PutResult[T]{}, Interrupted(err)
	}
	name, data, stored, err := d.c.Prepare(v)
	if err != nil {
		return PutResult[T]{}, err
	}
	digest := canon.Digest(data)
	d.m.mu.Lock()
	defer d.m.mu.Unlock()
	old, exists := d.docs[name]
	if exists && !update {
		return PutResult[T]{}, d.c.Conflict(name)
	}
	res := PutResult[T]{Digest: digest}
	if exists {
		res.Replaced = d.c.Clone(old.v)
		if old.digest == digest {
			res.Stored, res.Unchanged = d.c.Clone(old.v), true
			return res, nil
		}
	}
	if d.c.History {
		d.m.objects[digest] = data
		d.record(name, EventPut, digest)
	}
	d.docs[name] = memDoc[T]{v: stored, digest: digest}
	res.Stored = d.c.Clone(stored)
	return res, nil
}

// Remove implements Docs.
func (d *memDocs[T]) Remove(ctx context.Context, name string) (RemoveResult[T], error) {
	unlock, err := d.begin(ctx, name)
	if err != nil {
		return RemoveResult[T]{}, err
	}
	defer unlock()
	doc, ok := d.docs[name]
	if !ok {
		return RemoveResult[T]{}, d.c.NotFound(name)
	}
	delete(d.docs, name)
	if d.c.History {
		d.record(name, EventRemove, doc.digest)
	}
	return RemoveResult[T]{Removed: d.c.Clone(doc.v)}, nil
}

// record appends an event to a name's history; the store's lock is held.
func (d *memDocs[T]) record(name, event, digest string) {
	d.history[name] = append(d.history[name], HistoryEntry{
		Digest: digest,
		Time:   d.m.now().UTC().Round(0),
		Event:  event,
	})
}

// History implements Docs.
func (d *memDocs[T]) History(ctx context.Context, name string) ([]HistoryEntry, error) {
	unlock, err := d.begin(ctx, name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if h, ok := d.history[name]; ok {
		return slices.Clone(h), nil
	}
	if _, ok := d.docs[name]; ok {
		return []HistoryEntry{}, nil
	}
	return nil, d.c.NotFound(name)
}

// LastEvent implements Docs.
func (d *memDocs[T]) LastEvent(ctx context.Context, name string) (HistoryEntry, bool, error) {
	h, err := d.History(ctx, name)
	if n := len(h); n > 0 {
		return h[n-1], true, nil
	}
	return HistoryEntry{}, false, err
}
