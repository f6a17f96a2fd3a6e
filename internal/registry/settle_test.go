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

// planInFlight makes a plan, and a registry over a store in which a change
// to it is in flight (see inFlightStore).
func planInFlight(t *testing.T, finish bool) (*Registry, *inFlightStore, *plan.Plan) {
	t.Helper()
	f := newFixture(t)
	f.action(t, "local/deploy", "")
	made, err := f.r.UsePlan(Choices{Action: "local/deploy", AutomationProfile: "cautious"})
	if err != nil {
		t.Fatal(err)
	}
	st := &inFlightStore{Memory: f.st, id: made.Plan.ID, finish: finish}
	src := f.r.src.(Funcs)
	src.StoreFunc = func() (store.Store, error) { return st, nil }
	return New(src), st, made.Plan
}

// A decision under a plan read while a change to it is in flight reads it
// again once the store has settled, and decides under what it then reads;
// a record still out of step with its history once nothing is in flight
// is refused, as an edit is.
func TestDecisionReadsAgainAfterAChangeInFlight(t *testing.T) {
	for _, finish := range []bool{true, false} {
		r, st, made := planInFlight(t, finish)
		s, err := r.Subject(Under{Plan: made.ID})
		switch {
		case finish && err != nil:
			t.Errorf("a change finished while the reader waited: %v", err)
		case finish && s.Profile.Name != "cautious":
			t.Errorf("decided under %q", s.Profile.Name)
		case !finish && !errs.Is(err, errs.KindInvalid):
			t.Errorf("a record out of step with no change in flight: %v, want it refused", err)
		}
		// The store is waited on once a process, whatever follows.
		if st.settles != 1 {
			t.Errorf("finish %v: settled %d times, want once", finish, st.settles)
		}
		if want := map[bool]int{true: 2, false: settleReads}[finish]; st.planGets != want {
			t.Errorf("finish %v: read the plan %d times, want %d", finish, st.planGets, want)
		}
	}
}

// A plan shown is given the verdict of its own record: read while a change
// to it is in flight, the version read is out of step, and the version
// read once the change is written, which verifies, does not stand for it.
func TestShownPlanKeepsItsOwnVerdict(t *testing.T) {
	r, _, made := planInFlight(t, true)
	shown, err := r.ShowPlan(made.ID)
	if err != nil {
		t.Fatal(err)
	}
	if shown.Plan.SafetyProfile.RequireSandbox == made.SafetyProfile.RequireSandbox {
		t.Fatal("the fixture did not show the version read mid-change")
	}
	if shown.Record.Problem == nil {
		t.Error("the version read mid-change is shown as verified: it was given the verdict of the version read after")
	}
}

// Only a document out of step with its history is read again: any other
// invalid input is refused at once, without waiting for a writer.
func TestOnlyOutOfStepIsReadAgain(t *testing.T) {
	for err, want := range map[error]bool{
		errs.Invalid("profile.yaml is invalid"):                                     false,
		errs.NotFound("no such plan"):                                               false,
		unrecorded("acme/a", "0123456789abcdef0123456789abcdef"):                    true,
		errs.Invalid("plan x edited").About(errs.AboutPlanRecord, "x", "cautious"):  true,
		errs.Invalid("plan x has no history").About(errs.AboutPlanRemake, "x", "a"): true,
	} {
		if got := outOfStep(err); got != want {
			t.Errorf("outOfStep(%v) = %v, want %v", err, got, want)
		}
	}
}
