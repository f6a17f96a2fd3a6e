package registry

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/hook"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/profiles"
)

// The use cases, each on the memory store with a clock that moves a
// millisecond a call, a home and a working folder of its own; no command
// line anywhere.

type fixture struct {
	r     *Registry
	st    *store.Memory
	home  string
	wd    string
	clock time.Time
	// unratified is what the environment decides about the override.
	unratified func() (bool, []string)
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{home: filepath.Join(root, "home"), wd: filepath.Join(root, "work"), clock: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	for _, d := range []string{f.home, f.wd} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.st = store.NewMemoryWithClock(func() time.Time { return f.clock })
	f.r = New(Funcs{
		StoreFunc: func() (store.Store, error) { return f.st, nil },
		FS:        profiles.Builtin,
		HomeFunc:  func() string { return f.home },
		NowFunc: func() time.Time {
			f.clock = f.clock.Add(time.Millisecond)
			return f.clock
		},
		GetwdFunc: func() (string, error) { return f.wd, nil },
		UnratifiedFunc: func() (bool, []string) {
			if f.unratified == nil {
				return false, nil
			}
			return f.unratified()
		},
	})
	return f
}

func (f *fixture) profile(t *testing.T, name string, retries int) *profile.AutomationProfile {
	t.Helper()
	p, _, err := profile.DecodeProfile([]byte("name: "+name+"\nauto_apply: 0.5\nsafety:\n  max_retries_per_step: "+string(rune('0'+retries))+"\n"), "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *fixture) action(t *testing.T, name, automationProfile string) {
	t.Helper()
	doc := "name: " + name + "\ndescription: Deploy\ndefinition_of_done: Deployed\nstrategy_actor: local/default\nexecution_actor: local/default\n"
	if automationProfile != "" {
		doc += "automation_profile: " + automationProfile + "\n"
	}
	a, err := action.Decode([]byte(doc), "a.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.Actions().Put(context.Background(), a, true); err != nil {
		t.Fatal(err)
	}
}

// project makes the folder shop in the working folder, with an
// agents.yaml holding content, and returns the folder.
func (f *fixture) project(t *testing.T, content string) string {
	t.Helper()
	proj := filepath.Join(f.wd, "shop")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	f.write(t, filepath.Join(proj, "agents.yaml"), content)
	return proj
}

func (f *fixture) write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// wantErr fails unless err is of kind k (KindInternal for none means no
// error) and its message holds every part.
func wantErr(t *testing.T, err error, k errs.Kind, parts ...string) *errs.Error {
	t.Helper()
	if k == 0 && err == nil {
		return nil
	}
	if err == nil || errs.KindOf(err) != k {
		t.Fatalf("err = %v, want a %s error", err, k.Code())
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not say %q", err, p)
		}
	}
	var e *errs.Error
	errors.As(err, &e)
	return e
}

func TestProfileLookups(t *testing.T) {
	f := newFixture(t)
	if _, err := f.r.AddProfile(f.profile(t, "acme/strict", 2), false); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		kind  errs.Kind // 0: found
		hint  string
		about errs.About
	}{
		{"cautious", 0, "", ""},
		{"acme/strict", 0, "", ""},
		{"Cautious", errs.KindInvalid, "", ""},
		{"acme/Strict", errs.KindInvalid, `did you mean "acme/strict"?`, ""},
		{"strict", errs.KindInvalid, `did you mean "acme/strict"?`, ""},
		{"nosuch", errs.KindInvalid, "the built-in profiles are manual, ", ""},
		{"acme/strct", errs.KindNotFound, `did you mean "acme/strict"?`, errs.AboutProfile},
		{"acme/gone-for-good", errs.KindNotFound, "", errs.AboutProfile},
		{"a/b/c", errs.KindInvalid, "namespace/name", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := f.r.Profile(tt.name)
			if tt.kind == 0 {
				if err != nil || p.Name != tt.name {
					t.Fatalf("Profile(%q) = %v, %v", tt.name, p, err)
				}
				return
			}
			e := wantErr(t, err, tt.kind)
			if !strings.Contains(e.Hint, tt.hint) {
				t.Errorf("hint %q, want %q", e.Hint, tt.hint)
			}
			if e.Subject.About != tt.about {
				t.Errorf("about %q, want %q", e.Subject.About, tt.about)
			}
		})
	}
	// Every lookup is the caller's own copy.
	a, _ := f.r.Profile("cautious")
	a.AutoApply = 0
	if b, _ := f.r.Profile("cautious"); b.AutoApply == 0 {
		t.Error("a change to a built-in handed out reached the next caller")
	}
}

func TestAddProfile(t *testing.T) {
	tests := []struct {
		name    string
		before  []*profile.AutomationProfile
		add     *profile.AutomationProfile
		update  bool
		kind    errs.Kind
		outcome string // added, updated, unchanged
	}{
		{"new", nil, &profile.AutomationProfile{Name: "acme/a"}, false, 0, "added"},
		{"new with update", nil, &profile.AutomationProfile{Name: "acme/a"}, true, 0, "added"},
		{"existing", []*profile.AutomationProfile{{Name: "acme/a"}}, &profile.AutomationProfile{Name: "acme/a", Description: "other"}, false, errs.KindConflict, ""},
		{"replaced", []*profile.AutomationProfile{{Name: "acme/a"}}, &profile.AutomationProfile{Name: "acme/a", Description: "other"}, true, 0, "updated"},
		{"the same again", []*profile.AutomationProfile{{Name: "acme/a"}}, &profile.AutomationProfile{Name: "acme/a"}, true, 0, "unchanged"},
		{"a built-in's name", nil, &profile.AutomationProfile{Name: "cautious"}, true, errs.KindConflict, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			fill := func(p *profile.AutomationProfile) *profile.AutomationProfile {
				c := p.Clone()
				c.SchemaVersion, c.Safety = profile.SchemaVersion, profile.DefaultSafetyProfile()
				c.AutoApply = 1
				return c
			}
			for _, p := range tt.before {
				if _, err := f.r.AddProfile(fill(p), false); err != nil {
					t.Fatal(err)
				}
			}
			res, err := f.r.AddProfile(fill(tt.add), tt.update)
			if tt.kind != 0 {
				wantErr(t, err, tt.kind)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := "added"
			switch {
			case res.Unchanged:
				got = "unchanged"
			case res.Replaced != nil:
				got = "updated"
			}
			if got != tt.outcome {
				t.Errorf("outcome %s, want %s", got, tt.outcome)
			}
		})
	}
}

func TestRemoveProfile(t *testing.T) {
	yes := func() (bool, error) { return true, nil }
	no := func() (bool, error) { return false, nil }
	refuse := func() (bool, error) { return false, errs.Usage("refusing") }
	tests := []struct {
		name    string
		confirm Confirm
		kind    errs.Kind
		removed bool
		asked   bool
		hint    string
	}{
		{"acme/a", yes, 0, true, true, ""},
		{"acme/a", no, 0, false, true, ""},
		{"acme/a", refuse, errs.KindUsage, false, true, ""},
		{"cautious", yes, errs.KindConflict, false, false, "register a custom profile instead"},
		{"acme/b", yes, errs.KindNotFound, false, false, `did you mean "acme/a"?`}, // not there: nothing to ask
		{"Acme/a", yes, errs.KindInvalid, false, false, `did you mean "acme/a"?`},
		{"a", yes, errs.KindInvalid, false, false, `did you mean "acme/a"?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if _, err := f.r.AddProfile(f.profile(t, "acme/a", 1), false); err != nil {
				t.Fatal(err)
			}
			asked := false
			removed, err := f.r.RemoveProfile(tt.name, func() (bool, error) { asked = true; return tt.confirm() })
			if asked != tt.asked {
				t.Errorf("asked = %v, want %v", asked, tt.asked)
			}
			if tt.kind != 0 {
				if e := wantErr(t, err, tt.kind); !strings.Contains(e.Hint, tt.hint) {
					t.Errorf("hint %q, want %q", e.Hint, tt.hint)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if (removed != nil) != tt.removed {
				t.Errorf("removed = %v, want %v", removed, tt.removed)
			}
			_, err = f.st.Profiles().Get(context.Background(), "acme/a")
			if gone := errs.Is(err, errs.KindNotFound); gone != tt.removed {
				t.Errorf("stored profile gone = %v, want %v", gone, tt.removed)
			}
		})
	}
}

// TestRemoveWhatWasAsked: a version written while the removal waited for
// its answer is not removed in its place; the same version, asked about
// and still there, is.
func TestRemoveWhatWasAsked(t *testing.T) {
	f := newFixture(t)
	if _, err := f.r.AddProfile(f.profile(t, "acme/a", 1), false); err != nil {
		t.Fatal(err)
	}
	_, err := f.r.RemoveProfile("acme/a", func() (bool, error) {
		if _, err := f.r.AddProfile(f.profile(t, "acme/a", 2), true); err != nil {
			t.Fatal(err)
		}
		return true, nil
	})
	if wantErr(t, err, errs.KindConflict); !strings.Contains(err.Error(), "changed while its removal was waiting for an answer") {
		t.Errorf("message %q", err)
	}
	p, err := f.st.Profiles().Get(context.Background(), "acme/a")
	if err != nil || p.Safety.MaxRetriesPerStep != 2 {
		t.Fatalf("the version written meanwhile: %+v, %v", p, err)
	}
	// Agreed to up front (--yes): nothing is asked, and what is stored
	// when the removal runs goes.
	if removed, err := f.r.RemoveProfile("acme/a", nil); err != nil || removed == nil || removed.Safety.MaxRetriesPerStep != 2 {
		t.Fatalf("removed without a question: %+v, %v", removed, err)
	}
	if _, err := f.r.AddProfile(f.profile(t, "acme/a", 1), false); err != nil {
		t.Fatal(err)
	}
	// Removed by another meanwhile: not found, as if asked too late.
	_, err = f.r.RemoveProfile("acme/a", func() (bool, error) {
		if _, err := f.st.Profiles().Remove(context.Background(), "acme/a"); err != nil {
			t.Fatal(err)
		}
		return true, nil
	})
	wantErr(t, err, errs.KindNotFound)
}

func TestListProfiles(t *testing.T) {
	f := newFixture(t)
	for _, n := range []string{"acme/b", "team/c", "acme/a"} {
		if _, err := f.r.AddProfile(f.profile(t, n, 1), false); err != nil {
			t.Fatal(err)
		}
	}
	names := func(ps []*profile.AutomationProfile) string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return strings.Join(out, " ")
	}
	tests := []struct {
		q    store.Query
		want string
	}{
		{store.Query{}, strings.Join(profile.BuiltinNames, " ") + " acme/a acme/b team/c"},
		{store.Query{Namespace: "acme"}, "acme/a acme/b"},
		{store.Query{Match: func(n string) bool { return strings.HasPrefix(n, "c") || strings.HasSuffix(n, "/c") }}, "cautious ci team/c"},
	}
	for _, tt := range tests {
		got, err := f.r.ListProfiles(tt.q)
		if err != nil || names(got) != tt.want {
			t.Errorf("ListProfiles(%+v) = %s, %v; want %s", tt.q, names(got), err, tt.want)
		}
	}
	_, err := f.r.ListProfiles(store.Query{Namespace: "../x"})
	wantErr(t, err, errs.KindInvalid)
}

// TestListNoneInNamespace: a listing that is empty warns that the
// namespace holds nothing only when it does hold nothing, naming the
// nearest namespace; one the pattern emptied does not.
func TestListNoneInNamespace(t *testing.T) {
	f := newFixture(t)
	if _, err := f.r.AddProfile(f.profile(t, "acme/a", 1), false); err != nil {
		t.Fatal(err)
	}
	f.action(t, "local/deploy", "")
	f.r.Warnings()
	none := func(string) bool { return false }
	profiles := func(q store.Query) (int, error) { ps, err := f.r.ListProfiles(q); return len(ps), err }
	actions := func(q store.Query) (int, error) { as, err := f.r.ListActions(q); return len(as), err }
	for _, tc := range []struct {
		name string
		list func(store.Query) (int, error)
		q    store.Query
		want []string
	}{
		{"profiles filtered out", profiles, store.Query{Namespace: "acme", Match: none}, nil},
		{"profiles in a mistyped namespace", profiles, store.Query{Namespace: "acm"},
			[]string{`no profile is in namespace "acm"; did you mean "acme"?`}},
		{"actions filtered out", actions, store.Query{Namespace: "local", Match: none}, nil},
		{"actions in a mistyped namespace", actions, store.Query{Namespace: "locl"},
			[]string{`no action is in namespace "locl"; did you mean "local"?`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := tc.list(tc.q)
			if err != nil || n != 0 {
				t.Fatalf("listed %d, %v; want none", n, err)
			}
			if ws := f.r.Warnings(); !slices.Equal(ws, tc.want) {
				t.Errorf("warnings = %q, want %q", ws, tc.want)
			}
		})
	}
}

func TestProfileHistory(t *testing.T) {
	f := newFixture(t)
	vs, builtin, err := f.r.ProfileHistory("review")
	if err != nil || !builtin || len(vs) != 1 || vs[0].Event != "built-in" || !vs[0].Current || vs[0].Time != nil {
		t.Fatalf("history of a built-in = %+v, %v, %v", vs, builtin, err)
	}
	v1, v2 := f.profile(t, "acme/h", 1), f.profile(t, "acme/h", 2)
	for _, step := range []func() error{
		func() error { _, err := f.r.AddProfile(v1, false); return err },
		func() error { _, err := f.r.AddProfile(v2, true); return err },
		func() error {
			_, err := f.r.RemoveProfile("acme/h", func() (bool, error) { return true, nil })
			return err
		},
		func() error { _, err := f.r.AddProfile(v1, false); return err },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	vs, builtin, err = f.r.ProfileHistory("acme/h")
	if err != nil || builtin {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		s := v.Event
		if v.Current {
			s += "*"
		}
		got = append(got, s)
	}
	if strings.Join(got, " ") != "put put remove put*" || vs[0].Digest != vs[3].Digest {
		t.Errorf("history = %v", got)
	}
	_, _, err = f.r.ProfileHistory("acme/never")
	wantErr(t, err, errs.KindNotFound)
	_, _, err = f.r.ProfileHistory("acme/hh")
	if e := wantErr(t, err, errs.KindNotFound); e.Hint != `did you mean "acme/h"?` {
		t.Errorf("history of a misspelt name: hint %q", e.Hint)
	}
}

func TestAddAction(t *testing.T) {
	f := newFixture(t)
	a := &action.Action{Name: "local/deploy", DefinitionOfDone: "done", StrategyActor: "a", ExecutionActor: "b"}
	missing := "acme/none"
	a.AutomationProfile = &missing
	_, err := f.r.AddAction(a, "deploy.yaml", false)
	if e := wantErr(t, err, errs.KindInvalid, `names profile "acme/none", which does not exist`); e.Subject.About != errs.AboutActionProfile {
		t.Errorf("subject %+v", e.Subject)
	}
	cautious := "cautious"
	a.AutomationProfile = &cautious
	if _, err := f.r.AddAction(a, "deploy.yaml", false); err != nil {
		t.Fatal(err)
	}
	if _, err := f.r.Action("local/deplyo"); !strings.Contains(errHint(err), `did you mean "local/deploy"?`) {
		t.Errorf("a misspelt action: %v (%s)", err, errHint(err))
	}
	if removed, err := f.r.RemoveAction("local/deploy", func() (bool, error) { return true, nil }); err != nil || removed.Name != "local/deploy" {
		t.Errorf("RemoveAction = %v, %v", removed, err)
	}
}

func errHint(err error) string {
	var e *errs.Error
	if errors.As(err, &e) {
		return e.Hint
	}
	return ""
}

func TestPlanLookup(t *testing.T) {
	f := newFixture(t)
	f.action(t, "local/deploy", "")
	var ids []string
	for range 3 {
		res, err := f.r.UsePlan(Choices{Action: "local/deploy"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.Plan.ID)
	}
	// The ids share a long prefix: made a millisecond apart.
	common := 0
	for common < len(ids[0]) && ids[0][common] == ids[2][common] {
		common++
	}
	tests := []struct {
		id   string
		kind errs.Kind
		want string
	}{
		{ids[1], 0, ids[1]},
		{strings.ToUpper(ids[2]), 0, ids[2]},
		{ids[0][:common+1], 0, ids[0]},
		{ids[0][:common], errs.KindUsage, "ambiguous"},
		{"", errs.KindUsage, "empty"},
		{"01zzzzzz", errs.KindNotFound, "not found"},
		// Not made of the id alphabet, or too long: not a plan id at all.
		{"u", errs.KindInvalid, "invalid plan id"},
		{strings.Repeat("0", 27), errs.KindInvalid, "invalid plan id"},
		{"8" + strings.Repeat("0", 25), errs.KindInvalid, "out of range"},
		{"z", errs.KindInvalid, "out of range"},
		{"8abc", errs.KindInvalid, "out of range"},
	}
	for _, tt := range tests {
		p, err := f.r.Plan(tt.id)
		if tt.kind == 0 {
			if err != nil || p.ID != tt.want {
				t.Errorf("Plan(%q) = %v, %v; want %s", tt.id, p, err, tt.want)
			}
			continue
		}
		wantErr(t, err, tt.kind, tt.want)
	}
	list, err := f.r.ListPlans("local/deploy")
	if err != nil || len(list) != 3 || list[0].ID != ids[0] {
		t.Errorf("ListPlans = %v, %v", list, err)
	}
	if list, err := f.r.ListPlans("local/other"); err != nil || len(list) != 0 {
		t.Errorf("plans of another action = %v, %v", list, err)
	}
	_, err = f.r.ListPlans("Local")
	wantErr(t, err, errs.KindInvalid) // a name that is not valid, as everywhere

}

// TestPlanUseShowSet makes a plan, shows it, lets a level change under it
// and re-resolves it: each use case once, as the plan commands run them.
func TestPlanUseShowSet(t *testing.T) {
	f := newFixture(t)
	f.action(t, "local/deploy", "cautious")
	// What a plan made here would get, without making one.
	res, err := f.r.Resolve(Choices{Action: "local/deploy"})
	if err != nil || res.Plan.AutomationProfile.Name != "cautious" || res.Plan.ID != "" {
		t.Fatalf("Resolve = %+v, %v", res.Plan, err)
	}
	if ids, _ := f.st.Plans().Names(context.Background(), store.Query{}); len(ids) != 0 {
		t.Fatal("Resolve stored a plan")
	}
	made, err := f.r.UsePlan(Choices{Action: "local/deploy"})
	if err != nil {
		t.Fatal(err)
	}
	p := made.Plan
	if p.AutomationProfile.Name != "cautious" || p.AutomationProfile.Provenance != plan.LevelAction || p.ProjectDir != f.wd {
		t.Errorf("plan use = %+v", p.AutomationProfile)
	}
	shown, err := f.r.ShowPlan(p.ID[:10])
	if err != nil || shown.Drift != nil || !shown.Record.Verified {
		t.Fatalf("plan show = %+v, %v", shown, err)
	}
	// The project now names another profile: drift, and the record stands.
	f.write(t, filepath.Join(f.wd, "agents.yaml"), "automation_profile: manual\n")
	f.action(t, "local/deploy", "")
	shown, err = f.r.ShowPlan(p.ID)
	if err != nil || shown.Drift == nil || shown.Drift.AutomationProfile == nil || shown.Plan.AutomationProfile.Name != "cautious" {
		t.Fatalf("plan show after the levels changed = %+v, %v", shown, err)
	}
	set, err := f.r.SetPlanProfile(p.ID, "supervised", "")
	if err != nil || set.Unchanged || set.Plan.AutomationProfile.Name != "supervised" || set.Plan.AutomationProfile.Provenance != plan.LevelPlan {
		t.Fatalf("set-automation-profile = %+v, %v", set.Plan, err)
	}
	// The same again resolves to the record the plan holds: unchanged,
	// and the plan as it was, its time of resolution included.
	again, err := f.r.SetPlanProfile(p.ID, "supervised", "")
	if err != nil || !again.Unchanged || !again.Plan.ResolvedAt.Equal(set.Plan.ResolvedAt) {
		t.Fatalf("set-automation-profile again = %+v, %v", again, err)
	}
	shown, err = f.r.ShowPlan(p.ID)
	if err != nil || shown.Drift != nil {
		t.Errorf("drift after re-resolving = %+v, %v", shown.Drift, err)
	}
	_, err = f.r.UsePlan(Choices{Action: "local/none"})
	wantErr(t, err, errs.KindNotFound, `action "local/none" not found`)
	// A profile chosen now that does not exist is not found, named with
	// its level as resolving names it, and about the profile, so that the
	// hint lists the profiles.
	_, err = f.r.UsePlan(Choices{Action: "local/deploy", AutomationProfile: "acme/none"})
	if e := wantErr(t, err, errs.KindNotFound, `automation profile "acme/none" named at the plan level not found`); e.Subject.About != errs.AboutProfile {
		t.Errorf("a missing profile chosen for a plan is about %q", e.Subject.About)
	}
	_, err = f.r.UsePlan(Choices{Action: "local/deploy", AutomationProfile: "cautios"})
	if e := wantErr(t, err, errs.KindInvalid, `invalid name "cautios"`); e.Hint != `did you mean "cautious"?` {
		t.Errorf("plan use with a misspelt profile: hint %q", e.Hint)
	}
	_, err = f.r.SetPlanProfile(p.ID, "cautios", "")
	if e := wantErr(t, err, errs.KindInvalid, `invalid name "cautios"`); e.Hint != `did you mean "cautious"?` {
		t.Errorf("set-automation-profile with a misspelt profile: hint %q", e.Hint)
	}
}

// TestLoosenedWarns: a standalone safety profile looser than the safety
// composed in the automation profile it replaces is a warning, once.
func TestLoosenedWarns(t *testing.T) {
	f := newFixture(t)
	f.action(t, "local/deploy", "manual")
	file := filepath.Join(f.wd, "loose.yaml")
	f.write(t, file, "require_sandbox: false\n")
	res, err := f.r.UsePlan(Choices{Action: "local/deploy", SafetyProfileFile: file})
	if err != nil || len(res.Loosened) == 0 {
		t.Fatalf("UsePlan = %+v, %v", res, err)
	}
	ws := f.r.Warnings()
	if len(ws) != 1 || !strings.Contains(ws[0], "looser than the safety composed in \"manual\"") {
		t.Errorf("warnings = %q", ws)
	}
	if ws := f.r.Warnings(); ws != nil {
		t.Errorf("warnings given twice: %q", ws)
	}
}

func TestSubjects(t *testing.T) {
	f := newFixture(t)
	f.action(t, "local/deploy", "")
	made, err := f.r.UsePlan(Choices{Action: "local/deploy", AutomationProfile: "supervised"})
	if err != nil {
		t.Fatal(err)
	}
	f.write(t, filepath.Join(f.wd, "agents.yaml"), "automation_profile: manual\n")
	tests := []struct {
		name      string
		under     Under
		profile   string
		level     string
		kind      errs.Kind
		about     errs.About
		planLevel bool
	}{
		{"a profile", Under{Profile: "ci"}, "ci", "", 0, "", false},
		{"a plan", Under{Plan: made.Plan.ID}, "supervised", plan.LevelPlan, 0, "", true},
		{"no project here", Under{Cwd: f.home}, "review", plan.LevelSystem, 0, "", false},
		{"an untrusted project", Under{Cwd: f.wd}, "", "", errs.KindInvalid, errs.AboutUntrustedProject, false},
		{"a missing profile", Under{Profile: "acme/none"}, "", "", errs.KindNotFound, errs.AboutProfile, false},
		{"a missing plan", Under{Plan: "01jq3v6m4x8b2c7d9e0f1g2h3k"}, "", "", errs.KindNotFound, errs.AboutPlan, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := f.r.Subject(tt.under)
			if tt.kind != 0 {
				if e := wantErr(t, err, tt.kind); e.Subject.About != tt.about {
					t.Errorf("about %q, want %q", e.Subject.About, tt.about)
				}
				return
			}
			if err != nil || s.Profile.Name != tt.profile || s.Level != tt.level || (s.Plan != "") != tt.planLevel {
				t.Fatalf("Subject = %+v, %v", s, err)
			}
		})
	}
}

func TestDecisions(t *testing.T) {
	f := newFixture(t)
	s, err := f.r.Subject(Under{Profile: "cautious"})
	if err != nil {
		t.Fatal(err)
	}
	gate, _ := profile.LookupGate("auto_apply")
	if d := s.Gate(gate, 0.99); d.Verdict() != profile.VerdictNeedsApproval {
		t.Errorf("cautious auto_apply at 0.99 = %v", d.Verdict())
	}
	if r := s.Guard(profile.GuardInput{Tool: "read", Attempt: 1, NoSandbox: true}); r.Verdict != profile.VerdictBlocked {
		t.Errorf("a call outside a sandbox under cautious = %v (%s)", r.Verdict, r.Rule)
	}
	d, err := f.r.DecideHook(HookCall{
		Agent: hook.ClaudeCode, Call: hook.Call{Tool: "Read", Cwd: f.home},
		Under: Under{Profile: "ci"}, Sandboxed: true, Checkpointed: true,
	})
	if err != nil || d.Sandbox != DeclaredByFlag || d.Checkpoint != DeclaredByFlag || d.Tool != "Read" || d.Subject.Profile.Name != "ci" {
		t.Fatalf("DecideHook = %+v, %v", d, err)
	}
}

// TestPackWarnings: the pack in force is loaded once, and what the
// environment's decision owes the user comes back as warnings, before
// those the load gives.
func TestPackWarnings(t *testing.T) {
	f := newFixture(t)
	f.unratified = func() (bool, []string) { return true, []string{"override on"} }
	l, err := f.r.Pack()
	if err != nil || l.Pack.PackID != sp.ShippedPackID {
		t.Fatalf("Pack = %v, %v", l, err)
	}
	if ws := f.r.Warnings(); !slices.Equal(ws, []string{"override on"}) {
		t.Errorf("warnings = %q", ws)
	}
	if _, err := f.r.Pack(); err != nil || f.r.Warnings() != nil {
		t.Errorf("the pack was loaded twice: %v", err)
	}
	f.write(t, filepath.Join(f.home, "config.yaml"), "safety_pack: not a pack id\n")
	f.r.Reset()
	_, err = f.r.Pack()
	wantErr(t, err, errs.KindSafetyPack, "cannot tell which safety pack is in force")
}

// TestIdentityDetectsAnAlteredBuiltin: a built-in served other than its
// embedded file says is a violated no_identity_override.
func TestIdentityDetectsAnAlteredBuiltin(t *testing.T) {
	fsys := fstest.MapFS{}
	entries, _ := profiles.Builtin.ReadDir("builtin")
	for _, e := range entries {
		data, _ := profiles.Builtin.ReadFile("builtin/" + e.Name())
		fsys["builtin/"+e.Name()] = &fstest.MapFile{Data: data}
	}
	manual := fsys["builtin/manual.yaml"].Data
	fsys["builtin/manual.yaml"] = &fstest.MapFile{Data: bytes.Replace(manual, []byte("auto_apply: 1.0"), []byte("auto_apply: 0.0"), 1)}

	r := New(Funcs{FS: profiles.Builtin})
	before, err := embeddedBuiltinsHash(fsys)
	if err != nil {
		t.Fatal(err)
	}
	after, err := r.servedBuiltinsHash()
	if err != nil {
		t.Fatal(err)
	}
	if before == after {
		t.Fatal("an altered built-in file does not change the identity hash")
	}
	if clean, _ := embeddedBuiltinsHash(profiles.Builtin); clean != after {
		t.Error("the shipped built-ins hash differently from what is served")
	}
	// The built-ins served so far stay what they were; the files now say
	// otherwise.
	r.src = Funcs{FS: fsys}
	v, err := r.CheckPack(Check{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Upheld || !slices.Equal(v.ViolatedBoundaries, []string{sp.NoIdentityOverride}) {
		t.Errorf("verdict = %+v", v)
	}
}

func TestCheckPackEvidence(t *testing.T) {
	f := newFixture(t)
	f.action(t, "local/deploy", "")
	made, err := f.r.UsePlan(Choices{Action: "local/deploy"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.r.CheckPack(Check{Plan: made.Plan.ID})
	if err != nil || !v.Upheld {
		t.Fatalf("check of a plan as made = %+v, %v", v, err)
	}
	ctx := filepath.Join(f.wd, "ctx.json")
	f.write(t, ctx, `{"last_refusal_was_typed": false}`)
	v, err = f.r.CheckPack(Check{ContextFile: ctx})
	if err != nil || v.Upheld || !slices.Equal(v.ViolatedBoundaries, []string{sp.NoSilentCorrection}) {
		t.Errorf("check of a context file = %+v, %v", v, err)
	}
	_, err = f.r.CheckPack(Check{ContextFile: filepath.Join(f.wd, "none.json")})
	wantErr(t, err, errs.KindNotFound)
	typed := true
	v, err = f.r.CheckPack(Check{Evidence: []Evidence{{Name: "given", Build: func(*Registry) (*sp.Context, error) {
		return &sp.Context{LastRefusalWasTyped: &typed}, nil
	}}}})
	if err != nil || !v.Upheld || v.RuntimeCheckableCount != 1 {
		t.Errorf("check of given evidence = %+v, %v", v, err)
	}
}

// TestPlanEvidencePairsNameAndDigest: a plan's cited automation profile
// must be a version of the profile it names. A custom profile's name citing
// a built-in's digest (full-auto's, say) is a fabricated source, as a
// built-in's name citing another built-in's is.
func TestPlanEvidencePairsNameAndDigest(t *testing.T) {
	f := newFixture(t)
	if _, err := f.st.Profiles().Put(context.Background(), f.profile(t, "acme/strict", 2), false); err != nil {
		t.Fatal(err)
	}
	f.action(t, "local/deploy", "acme/strict")
	made, err := f.r.UsePlan(Choices{Action: "local/deploy"})
	if err != nil {
		t.Fatal(err)
	}
	fullAuto, err := f.r.builtinDigest("full-auto")
	if err != nil {
		t.Fatal(err)
	}
	check := func(name, digest string, upheld bool) {
		t.Helper()
		p := made.Plan.Clone()
		p.AutomationProfile.Name, p.AutomationProfile.SHA256 = name, digest
		if _, err := f.st.Plans().Put(context.Background(), p, true); err != nil {
			t.Fatal(err)
		}
		v, err := f.r.CheckPack(Check{Plan: p.ID})
		if err != nil || v.Upheld != upheld {
			t.Errorf("%s citing %.12s: upheld %v (%v), want %v", name, digest, v.Upheld, err, upheld)
		}
	}
	check("acme/strict", made.Plan.AutomationProfile.SHA256, true)
	check("acme/strict", fullAuto, false)
	check("manual", fullAuto, false)
	// full-auto's own digest is a version of full-auto, but the rest of
	// this record (its trace, its composed safety) speaks of acme/strict:
	// a record that does not hold together vouches for nothing.
	check("full-auto", fullAuto, false)
	// A plan really made under full-auto cites it and is upheld.
	real, err := f.r.UsePlan(Choices{Action: "local/deploy", AutomationProfile: "full-auto"})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := f.r.CheckPack(Check{Plan: real.Plan.ID}); err != nil || !v.Upheld {
		t.Errorf("a plan made under full-auto: %+v, %v", v, err)
	}
	// A version the store never wrote under the name, planted as an
	// object beside the record: the digest hashes right, the history
	// does not vouch for it, and no decision is taken under the plan.
	planted := f.profile(t, "acme/strict", 2)
	planted.AutoApply = 0 // same safety, a gate opened
	data, _, err := profile.Encode(planted)
	if err != nil {
		t.Fatal(err)
	}
	digest, err := f.st.PutObject(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	p := made.Plan.Clone()
	p.AutomationProfile.SHA256 = digest
	if _, err := f.st.Plans().Put(context.Background(), p, true); err != nil {
		t.Fatal(err)
	}
	if v, err := f.r.CheckPack(Check{Plan: p.ID}); err != nil || v.Upheld {
		t.Errorf("a plan citing a planted version: %+v, %v, want it violated", v, err)
	}
	_, err = f.r.Subject(Under{Plan: p.ID})
	wantErr(t, err, errs.KindInvalid, "a version the registry never held under that name")
}

func TestTrustProject(t *testing.T) {
	f := newFixture(t)
	proj := filepath.Join(f.wd, "shop")
	if err := os.MkdirAll(filepath.Join(proj, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.write(t, filepath.Join(proj, "agents.yaml"), "automation_profile: ci\n")
	locked := 0
	f.r.src = Funcs{HomeFunc: func() string { return f.home }, LockHomeFunc: func(context.Context) (func(), error) {
		locked++
		return func() {}, nil
	}}
	tr, err := f.r.TrustProject(filepath.Join(proj, "sub"), true)
	if err != nil || tr.Folder != proj || !tr.Changed || tr.File != filepath.Join(proj, "agents.yaml") || locked != 1 {
		t.Fatalf("TrustProject = %+v, %v (locked %d)", tr, err, locked)
	}
	if tr, err := f.r.TrustProject(proj, true); err != nil || tr.Changed {
		t.Errorf("trusting again = %+v, %v", tr, err)
	}
	list, err := f.r.TrustedProjects()
	if err != nil || len(list) != 1 || list[0].Folder != proj || !list[0].Pinned || list[0].SHA256 != tr.SHA256 || tr.SHA256 == "" {
		t.Errorf("TrustedProjects = %v, %v", list, err)
	}
	if tr, err := f.r.TrustProject(proj, false); err != nil || !tr.Changed {
		t.Errorf("untrusting = %+v, %v", tr, err)
	}
	_, err = f.r.TrustProject(filepath.Join(f.wd, "none"), true)
	wantErr(t, err, errs.KindNotFound)
}

// A folder whose path is not UTF-8 cannot be written into config.yaml,
// which is YAML: trusting it is the caller's mistake (usage), said before
// anything is locked or written, not a failure to encode the file.
func TestTrustProjectNotUTF8(t *testing.T) {
	f := newFixture(t)
	proj := filepath.Join(f.wd, "shop-\xff")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Skip("this file system refuses a name that is not UTF-8: ", err)
	}
	f.write(t, filepath.Join(proj, "agents.yaml"), "automation_profile: ci\n")
	locked := 0
	f.r.src = Funcs{HomeFunc: func() string { return f.home }, LockHomeFunc: func(context.Context) (func(), error) {
		locked++
		return func() {}, nil
	}}
	_, err := f.r.TrustProject(proj, true)
	wantErr(t, err, errs.KindUsage, "not valid UTF-8")
	if locked != 0 {
		t.Errorf("the home was locked %d times for a folder that cannot be recorded", locked)
	}
	if _, err := os.Stat(config.GlobalPath(f.home)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("config.yaml: %v, want none written", err)
	}
}

// checkedStore is a store whose safety check warns.
type checkedStore struct{ *store.Memory }

func (checkedStore) Check(context.Context) ([]store.Warning, error) {
	return []store.Warning{{Message: "the store is open to all"}}, nil
}

// TestStoreWarnsOnce: the store's safety check is the registry's to give,
// once, when the store is first opened, in order with the others.
func TestStoreWarnsOnce(t *testing.T) {
	opened := 0
	r := New(Funcs{FS: profiles.Builtin, StoreFunc: func() (store.Store, error) {
		opened++
		return checkedStore{store.NewMemory()}, nil
	}, UnratifiedFunc: func() (bool, []string) { return false, []string{"pack first"} }})
	if _, err := r.Subject(Under{Profile: "acme/x"}); !errs.Is(err, errs.KindNotFound) {
		t.Fatal(err)
	}
	if _, err := r.ListProfiles(store.Query{}); err != nil {
		t.Fatal(err)
	}
	if ws := r.Warnings(); !slices.Equal(ws, []string{"pack first", "the store is open to all"}) || opened != 1 {
		t.Errorf("warnings %q, store opened %d times", ws, opened)
	}
}

// uncheckableStore is a store whose safety check fails.
type uncheckableStore struct{ *store.Memory }

func (uncheckableStore) Check(context.Context) ([]store.Warning, error) {
	return nil, errors.New("permission denied")
}

// TestStoreCheckFailureWarns: a safety check that fails is said, not
// dropped.
func TestStoreCheckFailureWarns(t *testing.T) {
	r := New(Funcs{FS: profiles.Builtin, StoreFunc: func() (store.Store, error) {
		return uncheckableStore{store.NewMemory()}, nil
	}})
	if _, err := r.ListProfiles(store.Query{}); err != nil {
		t.Fatal(err)
	}
	if ws := r.Warnings(); len(ws) != 1 || !strings.Contains(ws[0], "cannot check who may write the store: permission denied") {
		t.Errorf("warnings %q", ws)
	}
}

// TestHookUnprovableLimits: a hook cannot see what has been spent or how
// many calls a step made, so under a profile that limits them it never
// answers more than its rule allows: a safety cost limit denies, a
// guard's limit asks; without limits the answer is the guard's.
func TestHookUnprovableLimits(t *testing.T) {
	f := newFixture(t)
	limit, calls := 10.0, 3
	for _, tt := range []struct {
		name string
		edit func(p *profile.AutomationProfile)
		want hook.Kind
		rule profile.Rule
	}{
		{"acme/none", func(*profile.AutomationProfile) {}, hook.Allow, profile.RuleDefault},
		{"acme/plancost", func(p *profile.AutomationProfile) { p.Safety.MaxCostPerPlan = &limit }, hook.Deny, profile.RuleMaxCostPerPlan},
		{"acme/totalcost", func(p *profile.AutomationProfile) { p.Safety.MaxTotalCost = &limit }, hook.Deny, profile.RuleSafetyMaxTotalCost},
		{"acme/calls", func(p *profile.AutomationProfile) { p.Guards = &profile.AutomationGuard{MaxToolCallsPerStep: &calls} }, hook.Ask, profile.RuleMaxToolCallsPerStep},
		{"acme/guardcost", func(p *profile.AutomationProfile) { p.Guards = &profile.AutomationGuard{MaxTotalCost: &limit} }, hook.Ask, profile.RuleGuardMaxTotalCost},
		// Where another rule answers as strictly, the one check-guard
		// evaluates first is named: a calls limit before the write
		// approval, the human approval and the threshold.
		{"acme/callswrites", func(p *profile.AutomationProfile) {
			p.Guards = &profile.AutomationGuard{MaxToolCallsPerStep: &calls, RequireApprovalForWrites: true}
		}, hook.Ask, profile.RuleMaxToolCallsPerStep},
		{"acme/callshuman", func(p *profile.AutomationProfile) {
			p.Safety.RequireHumanApproval = true
			p.Guards = &profile.AutomationGuard{MaxToolCallsPerStep: &calls}
		}, hook.Ask, profile.RuleMaxToolCallsPerStep},
		{"acme/costthreshold", func(p *profile.AutomationProfile) {
			p.AutoDecisionsExecute = 0.5
			p.Guards = &profile.AutomationGuard{MaxTotalCost: &limit}
		}, hook.Ask, profile.RuleGuardMaxTotalCost},
		// A rule evaluated before the limit keeps its place.
		{"acme/denycalls", func(p *profile.AutomationProfile) {
			p.Guards = &profile.AutomationGuard{MaxToolCallsPerStep: &calls, ToolDenylist: []string{"Bash"}}
		}, hook.Ask, profile.RuleToolDenylist},
		{"acme/checkpointcost", func(p *profile.AutomationProfile) {
			p.Safety.RequireCheckpoints = true
			p.Safety.MaxCostPerPlan = &limit
		}, hook.Deny, profile.RuleRequireCheckpoints},
	} {
		p := profiles.Decoded("full-auto")
		p.Name = tt.name
		tt.edit(p)
		if _, err := f.st.Profiles().Put(context.Background(), p, false); err != nil {
			t.Fatal(err)
		}
		d, err := f.r.DecideHook(HookCall{Agent: hook.ClaudeCode, Call: hook.Call{Tool: "Bash", Cwd: f.home}, Under: Under{Profile: tt.name}})
		if err != nil || d.Answer.Kind != tt.want || d.Answer.Rule != string(tt.rule) {
			t.Errorf("%s: %+v, %v; want %v by %s", tt.name, d.Answer, err, tt.want, tt.rule)
		}
	}
}

// lazyCheckedStore is a store that checks who may write it, and finds
// that others may.
type lazyCheckedStore struct{ checkedStore }

func (s lazyCheckedStore) CheckLazily(ctx context.Context, _ func(store.Warning)) ([]store.Warning, error) {
	return s.Check(ctx)
}

// TestUntrustedStoreRefusesDecisions: a store another user could have
// changed is a warning where a command shows or lists, and a refusal
// (invalid input) where it decides or records a plan; a decision that
// reads no store (a built-in profile) is not refused.
func TestUntrustedStoreRefusesDecisions(t *testing.T) {
	f := newFixture(t)
	f.action(t, "local/deploy", "cautious")
	if _, err := f.r.AddProfile(f.profile(t, "acme/p", 2), false); err != nil {
		t.Fatal(err)
	}
	made, err := f.r.UsePlan(Choices{Action: "local/deploy"})
	if err != nil {
		t.Fatal(err)
	}
	newRegistry := func() *Registry {
		return New(Funcs{
			StoreFunc: func() (store.Store, error) { return lazyCheckedStore{checkedStore{f.st}}, nil },
			FS:        profiles.Builtin,
			HomeFunc:  func() string { return f.home },
			NowFunc:   time.Now,
			GetwdFunc: func() (string, error) { return f.wd, nil },
		})
	}
	refused := func(name string, err error) {
		t.Helper()
		e := wantErr(t, err, errs.KindInvalid, "refusing to decide from a store that another user could have changed: the store is open to all")
		if len(e.Problems) != 1 || e.Problems[0].Message != "the store is open to all" {
			t.Errorf("%s: problems %+v", name, e.Problems)
		}
	}
	for _, tc := range []struct {
		name string
		call func(r *Registry) error
	}{
		{"a stored profile", func(r *Registry) error { _, err := r.Subject(Under{Profile: "acme/p"}); return err }},
		{"a plan", func(r *Registry) error { _, err := r.Subject(Under{Plan: made.Plan.ID}); return err }},
		{"a hook", func(r *Registry) error {
			_, err := r.DecideHook(HookCall{Under: Under{Profile: "acme/p"}, Agent: hook.ClaudeCode, Call: hook.Call{Tool: "Read", Cwd: f.home}})
			return err
		}},
		{"plan use", func(r *Registry) error { _, err := r.UsePlan(Choices{Action: "local/deploy"}); return err }},
		{"resolve", func(r *Registry) error { _, err := r.Resolve(Choices{Action: "local/deploy"}); return err }},
		{"set-automation-profile", func(r *Registry) error { _, err := r.SetPlanProfile(made.Plan.ID, "manual", ""); return err }},
		{"safety-pack check of a plan", func(r *Registry) error { _, err := r.CheckPack(Check{Plan: made.Plan.ID}); return err }},
	} {
		r := newRegistry()
		refused(tc.name, tc.call(r))
		// The refusal says it all: the warning is not given a second time.
		if ws := r.Warnings(); slices.Contains(ws, "the store is open to all") {
			t.Errorf("%s: warned as well as refused: %q", tc.name, ws)
		}
	}
	// Showing and listing warn, and go on.
	r := newRegistry()
	if _, err := r.Profile("acme/p"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.ListProfiles(store.Query{}); err != nil {
		t.Fatal(err)
	}
	if ws := r.Warnings(); !slices.Equal(ws, []string{"the store is open to all"}) {
		t.Errorf("show and list warned %q", ws)
	}
	// A built-in decision reads no store.
	r = newRegistry()
	if _, err := r.Subject(Under{Profile: "manual"}); err != nil {
		t.Errorf("a built-in decision: %v", err)
	}
	// A store that does not check who may write it (the PostgreSQL
	// store's warning about an unencrypted connection) only warns.
	r = New(Funcs{StoreFunc: func() (store.Store, error) { return checkedStore{f.st}, nil }, FS: profiles.Builtin, HomeFunc: func() string { return f.home }, NowFunc: time.Now})
	if _, err := r.Subject(Under{Profile: "acme/p"}); err != nil {
		t.Errorf("a warning that is not about who may write the store: %v", err)
	}
	if ws := r.Warnings(); !slices.Equal(ws, []string{"the store is open to all"}) {
		t.Errorf("warnings %q", ws)
	}
}

// TestUnsealedPackInTheAnswer: a decision taken under a pack that loaded
// only under the development override carries that in its own warnings,
// one for each problem of the seal; under a sealed pack it carries none.
func TestUnsealedPackInTheAnswer(t *testing.T) {
	f := newFixture(t)
	s, err := f.r.Subject(Under{Profile: "cautious"})
	if err != nil || len(s.Warnings()) != 0 {
		t.Fatalf("under the shipped pack: %q, %v", s.Warnings(), err)
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "bench", "testdata", "bench_safety_v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	packs := filepath.Join(f.home, "packs", "safety")
	if err := os.MkdirAll(packs, 0o755); err != nil {
		t.Fatal(err)
	}
	f.write(t, filepath.Join(packs, "bench_safety_v1.json"), string(data))
	f.write(t, filepath.Join(f.home, "config.yaml"), "safety_pack: bench_safety_v1\n")
	f.unratified = func() (bool, []string) { return true, nil }
	f.r.Reset()
	s, err = f.r.Subject(Under{Profile: "cautious"})
	if err != nil {
		t.Fatal(err)
	}
	ws := s.Warnings()
	if len(ws) != 2 {
		t.Fatalf("warnings %q, want one for each of the 2 problems of the seal", ws)
	}
	for _, w := range ws {
		if !strings.HasPrefix(w, "decided under a safety pack that is not ratified (the development override): safety pack bench_safety_v1: ") {
			t.Errorf("warning %q", w)
		}
	}
}

// TestTrustProjectPins: trust is pinned to the agents.yaml the person
// trusted: a hook resolving there refuses once the file has changed (an
// agent that rewrites it cannot choose its own profile), until the
// project is trusted again.
func TestTrustProjectPins(t *testing.T) {
	f := newFixture(t)
	proj := filepath.Join(f.wd, "shop")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(proj, "agents.yaml")
	f.write(t, file, "automation_profile: ci\n")
	tr, err := f.r.TrustProject(proj, true)
	if err != nil || tr.SHA256 != config.Digest([]byte("automation_profile: ci\n")) {
		t.Fatalf("TrustProject = %+v, %v", tr, err)
	}
	subject := func() (Subject, error) {
		r := New(f.r.src)
		return r.Subject(Under{Cwd: proj})
	}
	if s, err := subject(); err != nil || s.Profile.Name != "ci" {
		t.Fatalf("the trusted content: %+v, %v", s.Profile, err)
	}
	f.write(t, file, "automation_profile: full-auto\n")
	_, err = subject()
	if e := wantErr(t, err, errs.KindInvalid, "has changed its agents.yaml since it was trusted"); e.Subject.About != errs.AboutUntrustedProject {
		t.Errorf("about %q", e.Subject.About)
	}
	if tr, err := f.r.TrustProject(proj, true); err != nil || !tr.Changed {
		t.Fatalf("trusting again = %+v, %v", tr, err)
	}
	if s, err := subject(); err != nil || s.Profile.Name != "full-auto" {
		t.Errorf("trusted again: %+v, %v", s.Profile, err)
	}
}

// TestUnpinnedTrustWarns: a project trusted by a plain folder entry (by
// hand, or by an earlier agents) still counts, with a warning that any
// agents.yaml there does, where it is listed and where a hook uses it.
func TestUnpinnedTrustWarns(t *testing.T) {
	f := newFixture(t)
	proj := f.project(t, "automation_profile: ci\n")
	f.write(t, filepath.Join(f.home, "config.yaml"), "trusted_projects:\n  - \""+proj+"\"\n")
	want := "the project " + proj + " is trusted by its folder alone"
	r := New(f.r.src)
	if list, err := r.TrustedProjects(); err != nil || len(list) != 1 || list[0] != (TrustedProject{Folder: proj}) {
		t.Fatalf("TrustedProjects = %+v, %v", list, err)
	}
	if ws := r.Warnings(); len(ws) != 1 || !strings.HasPrefix(ws[0], want) {
		t.Errorf("listing warned %q", ws)
	}
	r = New(f.r.src)
	if s, err := r.Subject(Under{Cwd: proj}); err != nil || s.Profile.Name != "ci" {
		t.Fatalf("a hook in the project: %+v, %v", s.Profile, err)
	}
	if ws := r.Warnings(); len(ws) != 1 || !strings.HasPrefix(ws[0], want) {
		t.Errorf("the hook warned %q", ws)
	}
	// Once trusted again, it is pinned, and nothing is said.
	if _, err := f.r.TrustProject(proj, true); err != nil {
		t.Fatal(err)
	}
	r = New(f.r.src)
	if _, err := r.TrustedProjects(); err != nil || r.Warnings() != nil {
		t.Errorf("after trusting again: %q, %v", r.Warnings(), err)
	}
}

// TestCheckPackProfileMustExist: a profile named to a check is looked up
// even when the pack in force has no predicates to judge it by, so that a
// name mistyped in a CI gate is an error, not an upheld verdict.
func TestCheckPackProfileMustExist(t *testing.T) {
	f := newFixture(t)
	_, err := f.r.CheckPack(Check{Profile: "acme/nosuch"})
	wantErr(t, err, errs.KindNotFound, `profile "acme/nosuch" not found`)
	_, err = f.r.CheckPack(Check{Profile: "BAD NAME"})
	wantErr(t, err, errs.KindInvalid)
	if v, err := f.r.CheckPack(Check{Profile: "manual"}); err != nil || !v.Upheld {
		t.Errorf("a built-in: %+v, %v", v, err)
	}
}

// TestTrustRefusesAnInvalidProject: a project whose agents.yaml a hook
// could not use is not trusted, and config.yaml is left as it was.
func TestTrustRefusesAnInvalidProject(t *testing.T) {
	f := newFixture(t)
	proj := f.project(t, "automation_profile: ci\nhooks:\n  sandboxed: true\n")
	_, err := f.r.TrustProject(proj, true)
	if e := wantErr(t, err, errs.KindInvalid, "hooks"); !strings.Contains(e.Hint, "then trust the project") {
		t.Errorf("hint %q", e.Hint)
	}
	if _, err := os.Stat(filepath.Join(f.home, "config.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("config.yaml was written: %v", err)
	}
}

// TestEach: each keeps the order of its input and stops at the first
// error, returning nothing of what it made before.
func TestEach(t *testing.T) {
	double := func(n int) (int, error) { return 2 * n, nil }
	if got, err := each([]int{3, 1, 2}, double); err != nil || !slices.Equal(got, []int{6, 2, 4}) {
		t.Errorf("each = %v, %v, want [6 2 4]", got, err)
	}
	if got, err := each(nil, double); err != nil || got == nil || len(got) != 0 {
		t.Errorf("each of nothing = %#v, %v, want an empty list", got, err)
	}
	bad := errors.New("bad")
	var seen []int
	failAt2 := func(n int) (int, error) {
		seen = append(seen, n)
		if n == 2 {
			return 0, bad
		}
		return n, nil
	}
	if got, err := each([]int{1, 2, 3}, failAt2); !errors.Is(err, bad) || got != nil {
		t.Errorf("each with an error = %v, %v, want nil, bad", got, err)
	}
	if !slices.Equal(seen, []int{1, 2}) {
		t.Errorf("each went on after an error: saw %v", seen)
	}
}
