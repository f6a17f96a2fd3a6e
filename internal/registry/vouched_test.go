package registry

import (
	"context"
	"testing"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/store"
)

// digestStore is the memory store with plans that give the digest of
// their stored form, as the file store's give the digest of their files.
type digestStore struct{ *store.Memory }

func (d digestStore) Plans() store.Docs[*plan.Plan] { return digestPlans{d.Memory.Plans()} }

type digestPlans struct{ store.Docs[*plan.Plan] }

func (d digestPlans) GetDigest(ctx context.Context, id string) (*plan.Plan, string, error) {
	p, err := d.Get(ctx, id)
	if err != nil {
		return nil, "", err
	}
	data, _, err := plan.Encode(p)
	if err != nil {
		return nil, "", err
	}
	return p, canon.Digest(data), nil
}

// A plan read with the digest of its stored form is vouched for by that
// digest only while it is, field for field, the plan read: one changed
// after it was read is encoded again, and is not the version the history
// names.
func TestVouchedByStoredDigest(t *testing.T) {
	f := newFixture(t)
	f.action(t, "local/deploy", "")
	src := f.r.src.(Funcs)
	src.StoreFunc = func() (store.Store, error) { return digestStore{f.st}, nil }
	r := New(src)
	made, err := r.UsePlan(Choices{Action: "local/deploy", AutomationProfile: "cautious"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Plan(made.Plan.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r.storedDigest(p) == "" {
		t.Fatal("a plan read with its digest has none remembered")
	}
	if err := r.planWritten(p); err != nil {
		t.Fatalf("the plan as read: %v", err)
	}
	p.SafetyProfile.RequireSandbox = !p.SafetyProfile.RequireSandbox
	if r.storedDigest(p) != "" {
		t.Error("a plan changed after it was read keeps the digest of what was read")
	}
	if err := r.planWritten(p); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("a plan changed after it was read is vouched for: %v", err)
	}
}
