// Package storetest is the conformance suite every store.Store must pass:
// the file store, the in-memory store, and any backend that follows. A
// backend's test calls Run with a function that returns a new, empty store.
package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
)

// Run runs the whole suite; newStore returns a new, empty store for each
// test.
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"GetNotFound", testGetNotFound},
		{"PutGet", testPutGet},
		{"PutConflict", testPutConflict},
		{"PutUpdate", testPutUpdate},
		{"PutUpdateNew", testPutUpdateNew},
		{"PutUnchanged", testPutUnchanged},
		{"PutUnencodable", testPutUnencodable},
		{"Remove", testRemove},
		{"List", testList},
		{"ListFilter", testListFilter},
		{"ListNames", testListNames},
		{"History", testHistory},
		{"HistoryNotFound", testHistoryNotFound},
		{"LastEvent", testLastEvent},
		{"Objects", testObjects},
		{"ObjectDigests", testObjectDigests},
		{"Clones", testClones},
		{"InvalidNames", testInvalidNames},
		{"Cancelled", testCancelled},
		{"Check", testCheck},
	}
	tests = append(tests, documentTests...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, newStore(t)) })
	}
}

// profileYAML is a profile in the canonical nested form, with every kind of
// field (pointers, lists, guards) so that copies are tested deeply.
const profileYAML = `name: %s
description: %s
schema_version: "1.0"
auto_strategize: %v
auto_execute: 0.6
auto_apply: 0.9
auto_decisions_strategize: 0.5
auto_decisions_execute: 0.5
auto_validation_fix: 0.4
auto_strategy_revision: 0.7
auto_reversion_from_apply: 1
auto_child_plans: 0.8
auto_retry_transient: 0.2
auto_checkpoint_restore: 0.3
safety:
  require_sandbox: true
  require_checkpoints: true
  allow_unsafe_tools: false
  require_human_approval: false
  allowed_skill_categories:
    - code
    - docs
  max_cost_per_plan: 2.5
  max_total_cost: null
  max_retries_per_step: 3
guards:
  max_tool_calls_per_step: 5
  max_total_cost: 10
  tool_allowlist:
    - read
    - write
  tool_denylist: []
  require_approval_for_writes: true
  require_approval_for_apply: false
`

// Profile returns a valid profile named name; version varies its content,
// so two versions of one name differ.
func Profile(t testing.TB, name string, version int) *profile.AutomationProfile {
	t.Helper()
	p, err := NewProfile(name, version)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// NewProfile is Profile for callers without a testing.TB, such as helper
// processes.
func NewProfile(name string, version int) (*profile.AutomationProfile, error) {
	desc := fmt.Sprintf("version %d of %s", version, name)
	data := fmt.Sprintf(profileYAML, name, desc, float64(version%10)/10)
	p, _, err := profile.DecodeProfile([]byte(data), "fixture")
	if err != nil {
		return nil, fmt.Errorf("fixture %s v%d does not decode: %w", name, version, err)
	}
	return p, nil
}

func ctx() context.Context { return context.Background() }

// wantKind fails unless err is an *errs.Error of kind k.
func wantKind(t *testing.T, err error, k errs.Kind, what string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: got no error, want %s", what, k.Code())
	}
	if got := errs.KindOf(err); got != k {
		t.Fatalf("%s: got a %s error (%v), want %s", what, got.Code(), err, k.Code())
	}
}

func must(t *testing.T, err error, what string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func put(t *testing.T, s store.Store, p *profile.AutomationProfile, update bool) store.PutResult[*profile.AutomationProfile] {
	t.Helper()
	return putIn(t, s.Profiles(), p, update, "put "+p.Name)
}

func get(t *testing.T, s store.Store, name string) *profile.AutomationProfile {
	t.Helper()
	return getIn(t, s.Profiles(), name, "get "+name)
}

// putIn puts v into the collection c, failing the test on an error.
func putIn[T any](t *testing.T, c store.Docs[T], v T, update bool, what string) store.PutResult[T] {
	t.Helper()
	res, err := c.Put(ctx(), v, update)
	must(t, err, what)
	return res
}

// getIn gets name from the collection c, failing the test on an error.
func getIn[T any](t *testing.T, c store.Docs[T], name, what string) T {
	t.Helper()
	v, err := c.Get(ctx(), name)
	must(t, err, what)
	return v
}

func wantEqual(t *testing.T, got, want *profile.AutomationProfile, what string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

func names(ps []*profile.AutomationProfile) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

func sha(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func testGetNotFound(t *testing.T, s store.Store) {
	_, err := s.Profiles().Get(ctx(), "acme/missing")
	wantKind(t, err, errs.KindNotFound, "get of a missing profile")
	put(t, s, Profile(t, "acme/present", 1), false)
	_, err = s.Profiles().Get(ctx(), "acme/missing")
	wantKind(t, err, errs.KindNotFound, "get of a missing profile beside a present one")
}

func testPutGet(t *testing.T, s store.Store) {
	p := Profile(t, "acme/strict", 1)
	res := put(t, s, p, false)
	if res.Replaced != nil {
		t.Errorf("put of a new name replaced %+v", res.Replaced)
	}
	wantEqual(t, res.Stored, p, "stored profile")
	if len(res.Digest) != 64 {
		t.Errorf("digest %q is not a sha256", res.Digest)
	}
	wantEqual(t, get(t, s, "acme/strict"), p, "get after put")
}

func testPutConflict(t *testing.T, s store.Store) {
	v1 := Profile(t, "acme/strict", 1)
	put(t, s, v1, false)
	_, err := s.Profiles().Put(ctx(), Profile(t, "acme/strict", 2), false)
	wantKind(t, err, errs.KindConflict, "put of an existing name without update")
	wantEqual(t, get(t, s, "acme/strict"), v1, "profile after a refused put")
	h, err := s.Profiles().History(ctx(), "acme/strict")
	must(t, err, "history")
	if len(h) != 1 {
		t.Errorf("a refused put changed the history: %+v", h)
	}
}

func testPutUpdate(t *testing.T, s store.Store) {
	v1, v2 := Profile(t, "acme/strict", 1), Profile(t, "acme/strict", 2)
	put(t, s, v1, false)
	res := put(t, s, v2, true)
	wantEqual(t, res.Replaced, v1, "replaced profile")
	wantEqual(t, res.Stored, v2, "stored profile")
	wantEqual(t, get(t, s, "acme/strict"), v2, "get after update")
}

func testPutUpdateNew(t *testing.T, s store.Store) {
	p := Profile(t, "acme/new", 1)
	res := put(t, s, p, true)
	if res.Replaced != nil {
		t.Errorf("update of a new name replaced %+v", res.Replaced)
	}
	wantEqual(t, get(t, s, "acme/new"), p, "get after update of a new name")
}

// testPutUnchanged: an update with the content already stored writes
// nothing, says so, and adds nothing to the history.
func testPutUnchanged(t *testing.T, s store.Store) {
	v1, v2 := Profile(t, "acme/same", 1), Profile(t, "acme/same", 2)
	first := put(t, s, v1, false)
	if first.Unchanged {
		t.Errorf("a first put reports unchanged")
	}
	res := put(t, s, Profile(t, "acme/same", 1), true)
	if !res.Unchanged {
		t.Errorf("an update with the stored content does not report unchanged")
	}
	if res.Digest != first.Digest {
		t.Errorf("unchanged digest %s, want %s", res.Digest, first.Digest)
	}
	wantEqual(t, res.Stored, v1, "stored profile")
	wantEqual(t, res.Replaced, v1, "replaced profile")
	h, err := s.Profiles().History(ctx(), "acme/same")
	must(t, err, "history")
	if len(h) != 1 {
		t.Errorf("history after an unchanged update has %d entries, want 1: %+v", len(h), h)
	}
	if res := put(t, s, v2, true); res.Unchanged {
		t.Errorf("an update with other content reports unchanged")
	}
	if res := put(t, s, v2, true); !res.Unchanged {
		t.Errorf("the same update twice does not report unchanged the second time")
	}
	h, err = s.Profiles().History(ctx(), "acme/same")
	must(t, err, "history")
	if len(h) != 2 {
		t.Errorf("history has %d entries, want 2: %+v", len(h), h)
	}
}

func testPutUnencodable(t *testing.T, s store.Store) {
	_, err := s.Profiles().Put(ctx(), nil, true)
	wantKind(t, err, errs.KindInvalid, "put of no profile")
	p := Profile(t, "acme/nan", 1)
	p.AutoApply = math.NaN()
	_, err = s.Profiles().Put(ctx(), p, true)
	wantKind(t, err, errs.KindInvalid, "put of a NaN threshold")
	_, err = s.Profiles().Get(ctx(), "acme/nan")
	wantKind(t, err, errs.KindNotFound, "get after a refused put")
}

func testRemove(t *testing.T, s store.Store) {
	v := Profile(t, "acme/gone", 1)
	put(t, s, v, false)
	put(t, s, Profile(t, "acme/kept", 1), false)
	removed, err := s.Profiles().Remove(ctx(), "acme/gone")
	must(t, err, "remove")
	wantEqual(t, removed.Removed, v, "removed profile")
	if len(removed.Warnings) != 0 {
		t.Errorf("remove warned: %v", removed.Warnings)
	}
	_, err = s.Profiles().Get(ctx(), "acme/gone")
	wantKind(t, err, errs.KindNotFound, "get after remove")
	_, err = s.Profiles().Remove(ctx(), "acme/gone")
	wantKind(t, err, errs.KindNotFound, "second remove")
	_, err = s.Profiles().Remove(ctx(), "other/never")
	wantKind(t, err, errs.KindNotFound, "remove of a name never stored")
	l, err := s.Profiles().List(ctx(), store.Query{})
	must(t, err, "list")
	if got := names(l.Items); !reflect.DeepEqual(got, []string{"acme/kept"}) {
		t.Errorf("list after remove = %v, want [acme/kept]", got)
	}
	// A removed name can be added again without update.
	put(t, s, Profile(t, "acme/gone", 2), false)
}

// fill stores profiles under names given out of order, including a
// namespace that sorts before another by name but after it by folder
// ("acme-x/a" < "acme/a" because '-' < '/').
func fill(t *testing.T, s store.Store) []string {
	in := []string{"zeta/one", "acme/b", "acme-x/a", "acme/a", "acme/c-d", "b/acme"}
	for i, n := range in {
		put(t, s, Profile(t, n, i), false)
	}
	return []string{"acme-x/a", "acme/a", "acme/b", "acme/c-d", "b/acme", "zeta/one"}
}

func testList(t *testing.T, s store.Store) {
	l, err := s.Profiles().List(ctx(), store.Query{})
	must(t, err, "list of an empty store")
	if len(l.Items) != 0 || len(l.Problems) != 0 {
		t.Fatalf("empty store lists %v, problems %v", names(l.Items), l.Problems)
	}
	want := fill(t, s)
	l, err = s.Profiles().List(ctx(), store.Query{})
	must(t, err, "list")
	if got := names(l.Items); !reflect.DeepEqual(got, want) {
		t.Fatalf("list = %v, want %v", got, want)
	}
	if len(l.Problems) != 0 {
		t.Errorf("problems in a clean store: %v", l.Problems)
	}
	for _, p := range l.Items {
		wantEqual(t, p, get(t, s, p.Name), "listed profile")
	}
}

func testListFilter(t *testing.T, s store.Store) {
	fill(t, s)
	hasA := func(name string) bool { return strings.Contains(name, "a") }
	tests := []struct {
		q    store.Query
		want []string
	}{
		{store.Query{Namespace: "acme"}, []string{"acme/a", "acme/b", "acme/c-d"}},
		{store.Query{Namespace: "acme-x"}, []string{"acme-x/a"}},
		{store.Query{Namespace: "nobody"}, nil},
		{store.Query{Match: func(n string) bool { return strings.HasSuffix(n, "/a") }}, []string{"acme-x/a", "acme/a"}},
		{store.Query{Namespace: "acme", Match: func(n string) bool { return !hasA(n[len("acme/"):]) }}, []string{"acme/b", "acme/c-d"}},
		{store.Query{Match: func(string) bool { return false }}, nil},
	}
	for i, tt := range tests {
		l, err := s.Profiles().List(ctx(), tt.q)
		must(t, err, "list")
		if got := names(l.Items); !reflect.DeepEqual(got, nonNil(tt.want)) {
			t.Errorf("case %d: list = %v, want %v", i, got, tt.want)
		}
	}
	for _, ns := range []string{"..", "Acme", "a/b", "con", strings.Repeat("a", 64)} {
		_, err := s.Profiles().List(ctx(), store.Query{Namespace: ns})
		wantKind(t, err, errs.KindInvalid, "list of namespace "+ns)
		_, err = s.Profiles().Names(ctx(), store.Query{Namespace: ns})
		wantKind(t, err, errs.KindInvalid, "names of namespace "+ns)
	}
	// Match sees full names, and only the names of stored profiles.
	var seen []string
	_, err := s.Profiles().List(ctx(), store.Query{Namespace: "zeta", Match: func(n string) bool {
		seen = append(seen, n)
		return true
	}})
	must(t, err, "list")
	if !reflect.DeepEqual(seen, []string{"zeta/one"}) {
		t.Errorf("match was asked about %v, want [zeta/one]", seen)
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func testListNames(t *testing.T, s store.Store) {
	got, err := s.Profiles().Names(ctx(), store.Query{})
	must(t, err, "names of an empty store")
	if len(got) != 0 {
		t.Fatalf("empty store has names %v", got)
	}
	want := fill(t, s)
	got, err = s.Profiles().Names(ctx(), store.Query{})
	must(t, err, "names")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("names = %v, want %v", got, want)
	}
	got, err = s.Profiles().Names(ctx(), store.Query{Namespace: "acme", Match: func(n string) bool { return n != "acme/b" }})
	must(t, err, "filtered names")
	if want := []string{"acme/a", "acme/c-d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("filtered names = %v, want %v", got, want)
	}
}

func testHistory(t *testing.T, s store.Store) {
	v1, v2 := Profile(t, "acme/h", 1), Profile(t, "acme/h", 2)
	r1 := put(t, s, v1, false)
	r2 := put(t, s, v2, true)
	if r1.Digest == r2.Digest {
		t.Fatalf("two different versions share digest %s", r1.Digest)
	}
	_, err := s.Profiles().Remove(ctx(), "acme/h")
	must(t, err, "remove")
	h, err := s.Profiles().History(ctx(), "acme/h")
	must(t, err, "history")
	want := []struct{ digest, event string }{
		{r1.Digest, store.EventPut}, {r2.Digest, store.EventPut}, {r2.Digest, store.EventRemove},
	}
	if len(h) != len(want) {
		t.Fatalf("history has %d entries, want %d: %+v", len(h), len(want), h)
	}
	for i, w := range want {
		if h[i].Digest != w.digest || h[i].Event != w.event {
			t.Errorf("entry %d = %s %s, want %s %s", i, h[i].Event, h[i].Digest, w.event, w.digest)
		}
		if h[i].Time.IsZero() {
			t.Errorf("entry %d has no time", i)
		}
		if i > 0 && h[i].Time.Before(h[i-1].Time) {
			t.Errorf("entry %d (%s) is older than entry %d (%s)", i, h[i].Time, i-1, h[i-1].Time)
		}
	}
	// Every version survives the removal, as the object its digest names.
	for i, v := range []*profile.AutomationProfile{v1, v2} {
		d := want[i].digest
		ok, err := s.HasObject(ctx(), d)
		must(t, err, "has object")
		if !ok {
			t.Fatalf("version %d (%s) is not kept after removal", i+1, d)
		}
		data, err := s.GetObject(ctx(), d)
		must(t, err, "get object")
		if sha(data) != d {
			t.Errorf("object %s hashes to %s", d, sha(data))
		}
		got, _, err := profile.DecodeProfile(data, d)
		must(t, err, "decode object")
		wantEqual(t, got, v, fmt.Sprintf("version %d as kept", i+1))
	}
	// The history goes on after the name is added again.
	put(t, s, v1, false)
	h, err = s.Profiles().History(ctx(), "acme/h")
	must(t, err, "history")
	if len(h) != 4 || h[3].Event != store.EventPut || h[3].Digest != r1.Digest {
		t.Errorf("history after re-adding = %+v", h)
	}
	// Another name's history is its own.
	put(t, s, Profile(t, "acme/other", 1), false)
	h, err = s.Profiles().History(ctx(), "acme/other")
	must(t, err, "history")
	if len(h) != 1 {
		t.Errorf("history of acme/other = %+v, want one entry", h)
	}
}

func testHistoryNotFound(t *testing.T, s store.Store) {
	_, err := s.Profiles().History(ctx(), "acme/never")
	wantKind(t, err, errs.KindNotFound, "history of a name never stored")
	put(t, s, Profile(t, "acme/some", 1), false)
	_, err = s.Profiles().History(ctx(), "acme/never")
	wantKind(t, err, errs.KindNotFound, "history of a name never stored, beside one stored")
}

// LastEvent is the event History ends with, at every step of a name's
// history, for profiles and plans alike.
func testLastEvent(t *testing.T, s store.Store) {
	_, ok, err := s.Profiles().LastEvent(ctx(), "acme/l")
	wantKind(t, err, errs.KindNotFound, "last event of a name never stored")
	if ok {
		t.Error("a name never stored has a last event")
	}
	_, _, err = s.Profiles().LastEvent(ctx(), "Acme/L")
	wantKind(t, err, errs.KindInvalid, "last event of an invalid name")
	agrees := func(step string) {
		t.Helper()
		h, err := s.Profiles().History(ctx(), "acme/l")
		must(t, err, "history")
		last, ok, err := s.Profiles().LastEvent(ctx(), "acme/l")
		must(t, err, "last event")
		if !ok || last != h[len(h)-1] {
			t.Errorf("%s: last event = %+v (%v), history ends with %+v", step, last, ok, h[len(h)-1])
		}
	}
	r1 := put(t, s, Profile(t, "acme/l", 1), false)
	agrees("after add")
	r2 := put(t, s, Profile(t, "acme/l", 2), true)
	agrees("after update")
	last, _, err := s.Profiles().LastEvent(ctx(), "acme/l")
	must(t, err, "last event")
	if !last.Puts(r2.Digest) || last.Puts(r1.Digest) {
		t.Errorf("last event after update = %+v, want the put of %s", last, r2.Digest)
	}
	put(t, s, Profile(t, "acme/l", 2), true)
	agrees("after an unchanged update")
	_, err = s.Profiles().Remove(ctx(), "acme/l")
	must(t, err, "remove")
	agrees("after remove")
	if last, _, _ := s.Profiles().LastEvent(ctx(), "acme/l"); last.Puts(r2.Digest) {
		t.Error("a removed version is still the last put")
	}
}

func testObjects(t *testing.T, s store.Store) {
	data := []byte("a snapshot\n")
	want := sha(data)
	ok, err := s.HasObject(ctx(), want)
	must(t, err, "has object")
	if ok {
		t.Fatal("an empty store has an object")
	}
	_, err = s.GetObject(ctx(), want)
	wantKind(t, err, errs.KindNotFound, "get of a missing object")

	d, err := s.PutObject(ctx(), data)
	must(t, err, "put object")
	if d != want {
		t.Fatalf("put object returned digest %s, want %s", d, want)
	}
	data[0] = 'X' // the caller's slice is the caller's
	ok, err = s.HasObject(ctx(), want)
	must(t, err, "has object")
	if !ok {
		t.Fatal("a stored object is not there")
	}
	got, err := s.GetObject(ctx(), want)
	must(t, err, "get object")
	if string(got) != "a snapshot\n" {
		t.Fatalf("object = %q", got)
	}
	got[0] = 'Y'
	again, err := s.GetObject(ctx(), want)
	must(t, err, "get object")
	if string(again) != "a snapshot\n" {
		t.Fatalf("changing a returned object changed the store: %q", again)
	}
	d, err = s.PutObject(ctx(), []byte("a snapshot\n"))
	must(t, err, "second put object")
	if d != want {
		t.Errorf("second put gave digest %s, want %s", d, want)
	}
	empty, err := s.PutObject(ctx(), nil)
	must(t, err, "put empty object")
	if empty != sha(nil) {
		t.Errorf("empty object digest %s, want %s", empty, sha(nil))
	}
	if got, err := s.GetObject(ctx(), empty); err != nil || len(got) != 0 {
		t.Errorf("empty object = %q, %v", got, err)
	}
}

func testObjectDigests(t *testing.T, s store.Store) {
	bad := []string{"", "abc", strings.ToUpper(sha(nil)), sha(nil) + "0", "../" + sha(nil)[3:],
		"/etc/passwd", strings.Repeat("g", 64), sha(nil)[:63] + "/"}
	for _, d := range bad {
		_, err := s.HasObject(ctx(), d)
		wantKind(t, err, errs.KindInvalid, fmt.Sprintf("has object %q", d))
		_, err = s.GetObject(ctx(), d)
		wantKind(t, err, errs.KindInvalid, fmt.Sprintf("get object %q", d))
	}
}

// mutate changes every part of p a shared value could leak through.
func mutate(p *profile.AutomationProfile) {
	p.Name = "evil/changed"
	p.Description = "changed"
	p.AutoApply = 0
	p.Safety.RequireSandbox = false
	if len(p.Safety.AllowedSkillCategories) > 0 {
		p.Safety.AllowedSkillCategories[0] = "changed"
	}
	if p.Safety.MaxCostPerPlan != nil {
		*p.Safety.MaxCostPerPlan = 999
	}
	if p.Guards != nil {
		p.Guards.ToolAllowlist[0] = "changed"
		*p.Guards.MaxToolCallsPerStep = 999
		*p.Guards.MaxTotalCost = 999
	}
}

func testClones(t *testing.T, s store.Store) {
	name := "acme/c"
	v1, v2 := Profile(t, name, 1), Profile(t, name, 2)

	in := Profile(t, name, 1)
	res := put(t, s, in, false)
	mutate(in)
	wantEqual(t, get(t, s, name), v1, "after changing the value given to put")
	mutate(res.Stored)
	wantEqual(t, get(t, s, name), v1, "after changing the stored value put returned")

	mutate(get(t, s, name))
	wantEqual(t, get(t, s, name), v1, "after changing a value get returned")

	l, err := s.Profiles().List(ctx(), store.Query{})
	must(t, err, "list")
	mutate(l.Items[0])
	wantEqual(t, get(t, s, name), v1, "after changing a value list returned")

	res = put(t, s, Profile(t, name, 2), true)
	mutate(res.Replaced)
	wantEqual(t, get(t, s, name), v2, "after changing the replaced value")

	removed, err := s.Profiles().Remove(ctx(), name)
	must(t, err, "remove")
	mutate(removed.Removed)
	data, err := s.GetObject(ctx(), res.Digest)
	must(t, err, "get object")
	kept, _, err := profile.DecodeProfile(data, "object")
	must(t, err, "decode object")
	wantEqual(t, kept, v2, "kept version after changing the removed value")
}

// BadNames are names no store may accept: each would escape the store,
// collide with another name, or is not a custom name at all.
var BadNames = []string{
	"", "acme", "manual", "../x", "/etc/passwd", "a/../../b", "qa/..", "../acme/x", "acme/../x",
	"acme/", "/acme", "acme//x", "a/b/c", "./x", "acme/.", "acme/.x",
	"Acme/x", "acme/X", "ACME/STRICT", "acme/x.yaml", "acme/x_y", "acme/-x", "acme/x-",
	"con/x", "acme/con", "acme/nul", "acme/com1", "lpt9/x",
	strings.Repeat("a", 64) + "/x", "acme/" + strings.Repeat("b", 64),
	"аcme/x", // Cyrillic а
	"acme/x\x00", "acme/x\n", "acme/ x", `acme\x`,
}

func testInvalidNames(t *testing.T, s store.Store) {
	put(t, s, Profile(t, "acme/ok", 1), false)
	// 63 characters is the longest part allowed.
	long := strings.Repeat("a", 63) + "/" + strings.Repeat("b", 63)
	put(t, s, Profile(t, long, 1), false)
	wantEqual(t, get(t, s, long), Profile(t, long, 1), "longest name")

	for _, name := range BadNames {
		_, err := s.Profiles().Get(ctx(), name)
		wantKind(t, err, errs.KindInvalid, fmt.Sprintf("get %q", name))
		p := Profile(t, "acme/ok", 1)
		p.Name = name
		_, err = s.Profiles().Put(ctx(), p, true)
		wantKind(t, err, errs.KindInvalid, fmt.Sprintf("put %q", name))
		_, err = s.Profiles().Remove(ctx(), name)
		wantKind(t, err, errs.KindInvalid, fmt.Sprintf("remove %q", name))
		_, err = s.Profiles().History(ctx(), name)
		wantKind(t, err, errs.KindInvalid, fmt.Sprintf("history %q", name))
	}
	got, err := s.Profiles().Names(ctx(), store.Query{})
	must(t, err, "names")
	if want := []string{long, "acme/ok"}; !reflect.DeepEqual(got, want) {
		t.Errorf("names after refused puts = %v, want %v", got, want)
	}
}

func testCancelled(t *testing.T, s store.Store) {
	put(t, s, Profile(t, "acme/x", 1), false)
	c, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Profiles().Get(c, "acme/x")
	wantKind(t, err, errs.KindInterrupted, "get with a cancelled context")
	_, err = s.Profiles().List(c, store.Query{})
	wantKind(t, err, errs.KindInterrupted, "list with a cancelled context")
	_, err = s.Profiles().Put(c, Profile(t, "acme/x", 2), true)
	wantKind(t, err, errs.KindInterrupted, "put with a cancelled context")
	_, err = s.Profiles().Remove(c, "acme/x")
	wantKind(t, err, errs.KindInterrupted, "remove with a cancelled context")
	// Interrupted says so in its own words, keeping Go's as the cause.
	if msg := err.Error(); strings.Contains(msg, "context") || !errors.Is(err, context.Canceled) {
		t.Errorf("remove with a cancelled context: %q, or context.Canceled lost", msg)
	}
	wantEqual(t, get(t, s, "acme/x"), Profile(t, "acme/x", 1), "profile after cancelled mutations")
}

func testCheck(t *testing.T, s store.Store) {
	put(t, s, Profile(t, "acme/x", 1), false)
	w, err := s.Check(ctx())
	must(t, err, "check")
	if len(w) != 0 {
		t.Errorf("a store just written warns: %v", w)
	}
}
