package registry

import (
	"context"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/store"
)

// inFlightStore is the memory store with a change to one plan in flight,
// as a reader of the file store can meet it: the record read is not the
// version its history ends with until the writer is done (Settle). With
// finish false the writer never is: an edit by hand.
type inFlightStore struct {
	*store.Memory
	id       string
	finish   bool
	settled  bool
	settles  int
	planGets int
}

func (s *inFlightStore) Settle(context.Context) error {
	s.settles++
	s.settled = s.finish
	return nil
}

func (s *inFlightStore) Plans() store.Docs[*plan.Plan] { return inFlightPlans{s.Memory.Plans(), s} }

type inFlightPlans struct {
	store.Docs[*plan.Plan]
	s *inFlightStore
}

func (d inFlightPlans) Get(ctx context.Context, id string) (*plan.Plan, error) {
	p, err := d.Docs.Get(ctx, id)
	if err != nil || id != d.s.id {
		return p, err
	}
	d.s.planGets++
	if !d.s.settled {
		// The record as the writer has started to put it: its history
		// line is still to come.
		p.SafetyProfile.RequireSandbox = !p.SafetyProfile.RequireSandbox
	}
	return p, nil
}

// A decision under a plan read while a change to it is in flight reads it
// again once the store has settled, and decides under what it then reads;
// a record still out of step with its history once nothing is in flight
// is refused, as an edit is.
func TestDecisionReadsAgainAfterAChangeInFlight(t *testing.T) {
	for _, finish := range []bool{true, false} {
		f := newFixture(t)
		f.action(t, "local/deploy", "")
		made, err := f.r.UsePlan(Choices{Action: "local/deploy", AutomationProfile: "cautious"})
		if err != nil {
			t.Fatal(err)
		}
		st := &inFlightStore{Memory: f.st, id: made.Plan.ID, finish: finish}
		src := f.r.src.(Funcs)
		src.StoreFunc = func() (store.Store, error) { return st, nil }
		r := New(src)
		s, err := r.Subject(Under{Plan: made.Plan.ID})
		switch {
		case finish && err != nil:
			t.Errorf("a change finished while the reader waited: %v", err)
		case finish && s.Profile.Name != "cautious":
			t.Errorf("decided under %q", s.Profile.Name)
		case !finish && !errs.Is(err, errs.KindInvalid):
			t.Errorf("a record out of step with no change in flight: %v, want it refused", err)
		}
		if want := map[bool]int{true: 1, false: settleReads - 1}[finish]; st.settles != want {
			t.Errorf("finish %v: settled %d times, want %d", finish, st.settles, want)
		}
		if want := map[bool]int{true: 2, false: settleReads}[finish]; st.planGets != want {
			t.Errorf("finish %v: read the plan %d times, want %d", finish, st.planGets, want)
		}
	}
}
