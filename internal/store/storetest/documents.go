package storetest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
)

// documentTests are the cases for actions and plans.
var documentTests = []struct {
	name string
	fn   func(t *testing.T, s store.Store)
}{
	{"ActionPutGet", testActionPutGet},
	{"ActionConflictUpdate", testActionConflictUpdate},
	{"ActionRemove", testActionRemove},
	{"ActionList", testActionList},
	{"ActionInvalidNames", testActionInvalidNames},
	{"ActionClones", testActionClones},
	{"PlanPutGet", testPlanPutGet},
	{"PlanConflictUpdate", testPlanConflictUpdate},
	{"PlanList", testPlanList},
	{"PlanInvalidIDs", testPlanInvalidIDs},
	{"PlanClones", testPlanClones},
	{"KindsApart", testKindsApart},
	{"HistoryOfActionsAndPlans", testHistoryOfActionsAndPlans},
	{"UnchangedEveryKind", testUnchangedEveryKind},
}

// actionYAML is an action with every field set, its safety profile written
// partly, so that defaults are filled in on the way.
const actionYAML = `name: %s
description: %s
definition_of_done: Deployment verified
strategy_actor: local/default
execution_actor: local/default
automation_profile: %s
safety_profile:
  require_sandbox: true
  require_checkpoints: true
  require_human_approval: true
  allow_unsafe_tools: false
  max_cost_per_plan: 100.0
  allowed_skill_categories:
    - deploy
    - test
`

// Action returns a valid action named name; version varies its content.
func Action(t testing.TB, name string, version int) *action.Action {
	t.Helper()
	a, err := action.Decode([]byte(fmt.Sprintf(actionYAML, name, fmt.Sprintf("version %d", version), "cautious")), "fixture")
	if err != nil {
		t.Fatalf("fixture action %s does not decode: %v", name, err)
	}
	return a
}

// epoch is when the plans of the suite are made: PlanID(t, n) n
// milliseconds after it.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// PlanID returns the id of a plan created n milliseconds into 2026, with a
// fixed random part, so ids sort as n does.
func PlanID(t testing.TB, n int) string {
	t.Helper()
	at := epoch.Add(time.Duration(n) * time.Millisecond)
	id, err := plan.NewID(at, strings.NewReader(strings.Repeat("\x5a", 10)))
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Plan returns a valid plan with the given id, made from the action
// local/deploy, its automation profile named at the action level and its
// safety profile standalone at the plan level.
func Plan(t testing.TB, id string) *plan.Plan {
	t.Helper()
	created := createdAt(id)
	cautious := "cautious"
	source := "local/deploy"
	own := profile.DefaultSafetyProfile()
	own.AllowedSkillCategories = []string{"deploy"}
	cost := 12.5
	own.MaxCostPerPlan = &cost
	p := &plan.Plan{
		ID:        id,
		Action:    "local/deploy",
		CreatedAt: created,
		AutomationProfile: plan.AutomationRef{
			Name: "cautious", Provenance: plan.LevelAction, SHA256: strings.Repeat("a", 64),
		},
		SafetyProfile: plan.SafetyRef{
			Provenance: plan.LevelPlan, Source: plan.SourceStandalone,
			SafetyProfile: own.Clone(), SHA256: strings.Repeat("b", 64),
		},
		Levels: []plan.Setting{
			{Level: plan.LevelPlan, SafetyProfile: &own},
			{Level: plan.LevelAction, AutomationProfile: &cautious, Source: &source},
			{Level: plan.LevelProject},
			{Level: plan.LevelGlobal},
		},
		ResolvedAt: created,
		ProjectDir: "/work/project",
	}
	return p
}

func putAction(t *testing.T, s store.Store, a *action.Action, update bool) store.PutResult[*action.Action] {
	t.Helper()
	return putIn(t, s.Actions(), a, update, "put action "+a.Name)
}

func getAction(t *testing.T, s store.Store, name string) *action.Action {
	t.Helper()
	return getIn(t, s.Actions(), name, "get action "+name)
}

func wantSame(t *testing.T, got, want any, what string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func testActionPutGet(t *testing.T, s store.Store) {
	_, err := s.Actions().Get(ctx(), "local/deploy")
	wantKind(t, err, errs.KindNotFound, "get of a missing action")
	a := Action(t, "local/deploy", 1)
	res := putAction(t, s, a, false)
	if res.Replaced != nil {
		t.Errorf("put of a new name replaced %+v", res.Replaced)
	}
	wantSame(t, res.Stored, a, "stored action")
	got := getAction(t, s, "local/deploy")
	wantSame(t, got, a, "get after put")
	// The safety profile round-trips exactly, defaults filled in.
	if got.SafetyProfile == nil || !got.SafetyProfile.RequireHumanApproval || got.SafetyProfile.MaxRetriesPerStep != 3 ||
		got.SafetyProfile.MaxCostPerPlan == nil || *got.SafetyProfile.MaxCostPerPlan != 100 {
		t.Errorf("safety profile after a round trip = %+v", got.SafetyProfile)
	}
	// An action without the optional fields keeps them absent.
	bare := &action.Action{Name: "local/bare", DefinitionOfDone: "done", StrategyActor: "a", ExecutionActor: "b"}
	putAction(t, s, bare, false)
	wantSame(t, getAction(t, s, "local/bare"), bare, "bare action")
}

func testActionConflictUpdate(t *testing.T, s store.Store) {
	v1, v2 := Action(t, "local/deploy", 1), Action(t, "local/deploy", 2)
	putAction(t, s, v1, false)
	_, err := s.Actions().Put(ctx(), v2, false)
	wantKind(t, err, errs.KindConflict, "put of an existing action without update")
	wantSame(t, getAction(t, s, "local/deploy"), v1, "action after a refused put")
	res := putAction(t, s, v2, true)
	wantSame(t, res.Replaced, v1, "replaced action")
	wantSame(t, getAction(t, s, "local/deploy"), v2, "action after update")
	_, err = s.Actions().Put(ctx(), nil, true)
	wantKind(t, err, errs.KindInvalid, "put of no action")
}

func testActionRemove(t *testing.T, s store.Store) {
	a := Action(t, "local/gone", 1)
	putAction(t, s, a, false)
	putAction(t, s, Action(t, "local/kept", 1), false)
	removed, err := s.Actions().Remove(ctx(), "local/gone")
	must(t, err, "remove action")
	wantSame(t, removed.Removed, a, "removed action")
	_, err = s.Actions().Get(ctx(), "local/gone")
	wantKind(t, err, errs.KindNotFound, "get after remove")
	_, err = s.Actions().Remove(ctx(), "local/gone")
	wantKind(t, err, errs.KindNotFound, "second remove")
	names, err := s.Actions().Names(ctx(), store.Query{})
	must(t, err, "names")
	wantSame(t, names, []string{"local/kept"}, "names after remove")
}

func testActionList(t *testing.T, s store.Store) {
	l, err := s.Actions().List(ctx(), store.Query{})
	must(t, err, "list of an empty store")
	if len(l.Items) != 0 || len(l.Problems) != 0 {
		t.Fatalf("empty store lists %+v", l)
	}
	for i, n := range []string{"zeta/one", "acme/b", "acme-x/a", "acme/a"} {
		putAction(t, s, Action(t, n, i), false)
	}
	l, err = s.Actions().List(ctx(), store.Query{})
	must(t, err, "list")
	var got []string
	for _, a := range l.Items {
		got = append(got, a.Name)
		wantSame(t, a, getAction(t, s, a.Name), "listed action")
	}
	wantSame(t, got, []string{"acme-x/a", "acme/a", "acme/b", "zeta/one"}, "list")
	names, err := s.Actions().Names(ctx(), store.Query{Namespace: "acme", Match: func(n string) bool { return n != "acme/a" }})
	must(t, err, "filtered names")
	wantSame(t, names, []string{"acme/b"}, "filtered names")
	_, err = s.Actions().List(ctx(), store.Query{Namespace: "../x"})
	wantKind(t, err, errs.KindInvalid, "list of a bad namespace")
	// Profiles and actions do not share a namespace folder.
	pl, err := s.Profiles().Names(ctx(), store.Query{})
	must(t, err, "profile names")
	if len(pl) != 0 {
		t.Errorf("actions listed as profiles: %v", pl)
	}
}

func testActionInvalidNames(t *testing.T, s store.Store) {
	for _, name := range BadNames {
		_, err := s.Actions().Get(ctx(), name)
		wantKind(t, err, errs.KindInvalid, fmt.Sprintf("get action %q", name))
		a := Action(t, "local/ok", 1)
		a.Name = name
		_, err = s.Actions().Put(ctx(), a, true)
		wantKind(t, err, errs.KindInvalid, fmt.Sprintf("put action %q", name))
		_, err = s.Actions().Remove(ctx(), name)
		wantKind(t, err, errs.KindInvalid, fmt.Sprintf("remove action %q", name))
	}
	names, err := s.Actions().Names(ctx(), store.Query{})
	must(t, err, "names")
	if len(names) != 0 {
		t.Errorf("names after refused puts = %v", names)
	}
}

func testActionClones(t *testing.T, s store.Store) {
	in := Action(t, "local/c", 1)
	res := putAction(t, s, in, false)
	change := func(a *action.Action) {
		a.Description = "changed"
		*a.AutomationProfile = "full-auto"
		a.SafetyProfile.AllowedSkillCategories[0] = "changed"
		*a.SafetyProfile.MaxCostPerPlan = 999
	}
	change(in)
	change(res.Stored)
	change(getAction(t, s, "local/c"))
	wantSame(t, getAction(t, s, "local/c"), Action(t, "local/c", 1), "action after changing returned values")
}

func testPlanPutGet(t *testing.T, s store.Store) {
	id := PlanID(t, 1)
	_, err := s.Plans().Get(ctx(), id)
	wantKind(t, err, errs.KindNotFound, "get of a missing plan")
	p := Plan(t, id)
	stored, err := s.Plans().Put(ctx(), p, false)
	must(t, err, "put plan")
	wantSame(t, stored.Stored, p, "stored plan")
	got, err := s.Plans().Get(ctx(), id)
	must(t, err, "get plan")
	wantSame(t, got, p, "get after put")
	if got.CreatedAt.Location() != time.UTC {
		t.Errorf("created_at comes back in %v, want UTC", got.CreatedAt.Location())
	}
}

func testPlanConflictUpdate(t *testing.T, s store.Store) {
	id := PlanID(t, 1)
	p := Plan(t, id)
	_, err := s.Plans().Put(ctx(), p, false)
	must(t, err, "put plan")
	changed := Plan(t, id)
	changed.AutomationProfile.Name = "manual"
	_, err = s.Plans().Put(ctx(), changed, false)
	wantKind(t, err, errs.KindConflict, "put of an existing plan without update")
	_, err = s.Plans().Put(ctx(), changed, true)
	must(t, err, "update plan")
	got, err := s.Plans().Get(ctx(), id)
	must(t, err, "get plan")
	wantSame(t, got, changed, "plan after update")
	bad := Plan(t, PlanID(t, 2))
	bad.SafetyProfile.MaxRetriesPerStep = 101
	_, err = s.Plans().Put(ctx(), bad, false)
	wantKind(t, err, errs.KindInvalid, "put of an invalid plan")
	_, err = s.Plans().Put(ctx(), nil, false)
	wantKind(t, err, errs.KindInvalid, "put of no plan")
}

func testPlanList(t *testing.T, s store.Store) {
	l, err := s.Plans().List(ctx(), store.Query{})
	must(t, err, "list of an empty store")
	if len(l.Items) != 0 {
		t.Fatalf("empty store lists %d plans", len(l.Items))
	}
	// Stored out of order; listed in creation order.
	var want []string
	for _, n := range []int{1, 2, 40000, 1 << 30} {
		want = append(want, PlanID(t, n))
	}
	for _, i := range []int{2, 0, 3, 1} {
		_, err := s.Plans().Put(ctx(), Plan(t, want[i]), false)
		must(t, err, "put plan")
	}
	l, err = s.Plans().List(ctx(), store.Query{})
	must(t, err, "list")
	var got []string
	for _, p := range l.Items {
		got = append(got, p.ID)
	}
	wantSame(t, got, want, "plans in creation order")
	ids, err := s.Plans().Names(ctx(), store.Query{})
	must(t, err, "ids")
	wantSame(t, ids, want, "plan ids in creation order")
}

func testPlanInvalidIDs(t *testing.T, s store.Store) {
	good := PlanID(t, 1)
	bad := []string{"", "x", "../" + good[3:], strings.ToUpper(good), good + "0", good[:25], good[:25] + "u",
		"8" + good[1:], good[:10] + "/" + good[11:], "acme/x"}
	for _, id := range bad {
		_, err := s.Plans().Get(ctx(), id)
		wantKind(t, err, errs.KindInvalid, fmt.Sprintf("get plan %q", id))
		p := Plan(t, good)
		p.ID = id
		_, err = s.Plans().Put(ctx(), p, true)
		wantKind(t, err, errs.KindInvalid, fmt.Sprintf("put plan %q", id))
	}
}

func testPlanClones(t *testing.T, s store.Store) {
	id := PlanID(t, 7)
	in := Plan(t, id)
	put, err := s.Plans().Put(ctx(), in, false)
	stored := put.Stored
	must(t, err, "put plan")
	change := func(p *plan.Plan) {
		p.Action = "evil/x"
		p.SafetyProfile.AllowedSkillCategories[0] = "changed"
		*p.Levels[1].AutomationProfile = "full-auto"
		p.Levels[0].SafetyProfile.RequireSandbox = false
	}
	change(in)
	change(stored)
	got, err := s.Plans().Get(ctx(), id)
	must(t, err, "get plan")
	change(got)
	l, err := s.Plans().List(ctx(), store.Query{})
	must(t, err, "list")
	change(l.Items[0])
	got, err = s.Plans().Get(ctx(), id)
	must(t, err, "get plan")
	wantSame(t, got, Plan(t, id), "plan after changing returned values")
}

// testKindsApart checks that the kinds do not see each other: a profile,
// an action and a plan stored side by side each list alone.
func testKindsApart(t *testing.T, s store.Store) {
	put(t, s, Profile(t, "local/deploy", 1), false)
	putAction(t, s, Action(t, "local/deploy", 1), false)
	_, err := s.Plans().Put(ctx(), Plan(t, PlanID(t, 3)), false)
	must(t, err, "put plan")
	if _, err := s.Actions().Remove(ctx(), "local/deploy"); err != nil {
		t.Fatal(err)
	}
	get(t, s, "local/deploy")
	_, err = s.Actions().Get(ctx(), "local/deploy")
	wantKind(t, err, errs.KindNotFound, "action after removing it beside a profile of the same name")
	ids, err := s.Plans().Names(ctx(), store.Query{})
	must(t, err, "plan ids")
	if len(ids) != 1 {
		t.Errorf("plan ids = %v", ids)
	}
}

// testHistoryOfActionsAndPlans: actions keep no history (none for a held name),
// and a name it never held is not found, as for profiles.
func testHistoryOfActionsAndPlans(t *testing.T, s store.Store) {
	putAction(t, s, Action(t, "local/deploy", 1), false)
	h, err := s.Actions().History(ctx(), "local/deploy")
	must(t, err, "history of an action")
	if len(h) != 0 {
		t.Errorf("history of an action = %+v, want none", h)
	}
	_, err = s.Actions().History(ctx(), "local/never")
	wantKind(t, err, errs.KindNotFound, "history of an action never stored")
	id := PlanID(t, 5)
	_, err = s.Plans().Put(ctx(), Plan(t, id), false)
	must(t, err, "put plan")
	// Plans keep theirs: a decision under a plan holds its record to the
	// version the store last wrote.
	h, err = s.Plans().History(ctx(), id)
	must(t, err, "history of a plan")
	data, _, err := plan.Encode(Plan(t, id))
	must(t, err, "encoding the plan")
	if len(h) != 1 || h[0].Event != store.EventPut || h[0].Digest != canon.Digest(data) {
		t.Errorf("history of a plan = %+v, want one put of sha256 %s", h, canon.Digest(data))
	}
}

// testUnchangedEveryKind: an update with the content already stored
// writes nothing and says so, for every kind of document.
func testUnchangedEveryKind(t *testing.T, s store.Store) {
	a := Action(t, "local/same", 1)
	first := putAction(t, s, a, false)
	res := putAction(t, s, Action(t, "local/same", 1), true)
	if first.Unchanged || !res.Unchanged || res.Digest != first.Digest {
		t.Errorf("action: first %+v, again %+v", first, res)
	}
	wantSame(t, res.Replaced, a, "replaced action")
	id := PlanID(t, 9)
	p1, err := s.Plans().Put(ctx(), Plan(t, id), false)
	must(t, err, "put plan")
	p2, err := s.Plans().Put(ctx(), Plan(t, id), true)
	must(t, err, "update plan")
	if p1.Unchanged || !p2.Unchanged || p2.Digest != p1.Digest {
		t.Errorf("plan: first %+v, again %+v", p1, p2)
	}
}

// createdAt is when the plan with an id PlanID gave was made: the time
// its first ten characters encode, in plan.NewID's alphabet.
func createdAt(id string) time.Time {
	const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
	var ms int64
	for i := 0; i < 10; i++ {
		ms = ms<<5 | int64(strings.IndexByte(alphabet, id[i]))
	}
	return time.UnixMilli(ms).UTC()
}
