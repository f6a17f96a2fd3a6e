package registry

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/resolve"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/profiles"
)

// The tests here read and write the levels of a resolution: the store's
// actions and profiles, a project's agents.yaml and the home's
// config.yaml, on the memory store with a fixed clock.

func str(s string) *string { return &s }

// safety returns a standalone safety profile told apart by its retry cap.
func safety(retries int) *profile.SafetyProfile {
	s := profile.DefaultSafetyProfile()
	s.MaxRetriesPerStep = retries
	return &s
}

// world is a home, a project tree and a store to resolve in.
type world struct {
	t     *testing.T
	home  string
	proj  string
	st    *store.Memory
	r     *Registry
	clock time.Time
}

func newWorld(t *testing.T) *world {
	root := t.TempDir()
	w := &world{t: t, home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj"), st: store.NewMemory(),
		clock: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	for _, d := range []string{w.home, filepath.Join(w.proj, "sub", "dir")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// config.yaml is read again at every use: the tests change it.
	w.r = New(Funcs{
		StoreFunc: func() (store.Store, error) { return w.st, nil },
		FS:        profiles.Builtin,
		HomeFunc:  func() string { return w.home },
		NowFunc:   func() time.Time { return w.clock },
	})
	return w
}

func (w *world) write(path, content string) {
	w.t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) addAction(yaml string) {
	w.t.Helper()
	a, err := action.Decode([]byte(yaml), "action.yaml")
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.st.Actions().Put(context.Background(), a, true); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) addProfile(yaml string) {
	w.t.Helper()
	p, _, err := profile.DecodeProfile([]byte(yaml), "profile.yaml")
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.st.Profiles().Put(context.Background(), p, true); err != nil {
		w.t.Fatal(err)
	}
}

// use makes a plan as 'plan use' does.
func (w *world) use(own plan.Setting, actionName, dir string) *plan.Plan {
	w.t.Helper()
	res, err := w.r.resolve(request{own: own, action: actionName, projectDir: dir})
	if err != nil {
		w.t.Fatal(err)
	}
	id, err := plan.NewID(w.clock, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	p := &plan.Plan{ID: id, Action: actionName, CreatedAt: w.clock, ProjectDir: dir}
	if err := w.r.keep(w.st, res, p, w.clock); err != nil {
		w.t.Fatal(err)
	}
	if actionName != "" { // a plan without an action is only resolved, never stored
		if _, err := w.st.Plans().Put(context.Background(), p, false); err != nil {
			w.t.Fatal(err)
		}
	}
	return p
}

// objects looks snapshots up in the world's store.
func (w *world) objects() resolve.Objects {
	return func(d string) ([]byte, error) { return w.st.GetObject(context.Background(), d) }
}

// drift resolves p again and compares.
func (w *world) drift(p *plan.Plan) *plan.Drift {
	w.t.Helper()
	d, err := w.r.drift(p)
	if err != nil {
		w.t.Fatal(err)
	}
	return d
}

const deployAction = `name: local/deploy
description: Deploy
definition_of_done: Deployed
strategy_actor: local/default
execution_actor: local/default
automation_profile: %s
`

func TestProjectFoundFromSubfolder(t *testing.T) {
	w := newWorld(t)
	w.write(filepath.Join(w.proj, "agents.yaml"), "automation_profile: cautious\nsafety_profile:\n  max_retries_per_step: 7\n")
	w.write(filepath.Join(w.home, "config.yaml"), "automation_profile: ci\nformat: json\n")
	r, err := w.r.resolve(request{projectDir: filepath.Join(w.proj, "sub", "dir")})
	if err != nil {
		t.Fatal(err)
	}
	if r.Automation.Name != "cautious" || r.AutomationLevel != plan.LevelProject {
		t.Errorf("automation = %s from %s, want cautious from project", r.Automation.Name, r.AutomationLevel)
	}
	if r.SafetyLevel != plan.LevelProject || r.Safety.MaxRetriesPerStep != 7 {
		t.Errorf("safety = %+v from %s", r.Safety, r.SafetyLevel)
	}
	if src := r.Levels[2].Source; src == nil || *src != filepath.Join(w.proj, "agents.yaml") {
		t.Errorf("project source = %v", src)
	}
	if src := r.Levels[3].Source; src == nil || *src != filepath.Join(w.home, "config.yaml") {
		t.Errorf("global source = %v", src)
	}
	// Outside the project only the global level speaks.
	r, err = w.r.resolve(request{projectDir: w.home})
	if err != nil {
		t.Fatal(err)
	}
	if r.Automation.Name != "ci" || r.AutomationLevel != plan.LevelGlobal || r.Levels[2].Source != nil {
		t.Errorf("outside the project: %s from %s, project source %v", r.Automation.Name, r.AutomationLevel, r.Levels[2].Source)
	}
}

func TestMalformedConfiguration(t *testing.T) {
	w := newWorld(t)
	file := filepath.Join(w.proj, "agents.yaml")
	for _, content := range []string{
		"automation_profil: cautious\n",
		"automation_profile: [cautious]\n",
		"safety_profile:\n  require_sandbox: yes\n",
		"- a list\n",
		"automation_profile: Cautious\n",
	} {
		w.write(file, content)
		_, err := w.r.resolve(request{projectDir: filepath.Join(w.proj, "sub")})
		if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), file) {
			t.Errorf("%q: err = %v, want invalid input naming %s", content, err, file)
		}
	}
	w.write(file, "")
	w.write(filepath.Join(w.home, "config.yaml"), "automation_profile: 7\n")
	_, err := w.r.resolve(request{projectDir: w.proj})
	if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "config.yaml") {
		t.Errorf("global: err = %v", err)
	}
}

func TestMissingAction(t *testing.T) {
	w := newWorld(t)
	_, err := w.r.resolve(request{action: "local/none", projectDir: w.proj})
	if !errs.Is(err, errs.KindNotFound) {
		t.Errorf("err = %v, want not found", err)
	}
}

const strictProfile = `name: acme/strict
auto_apply: 1.0
safety:
  max_retries_per_step: %d
`

func TestDrift(t *testing.T) {
	w := newWorld(t)
	w.addProfile(strings.Replace(strictProfile, "%d", "2", 1))
	w.addAction(strings.Replace(deployAction, "%s", "acme/strict", 1))
	p := w.use(plan.Setting{Level: plan.LevelPlan}, "local/deploy", w.proj)
	if p.AutomationProfile.Name != "acme/strict" || p.SafetyProfile.Source != plan.SourceComposed {
		t.Fatalf("recorded %+v / %+v", p.AutomationProfile, p.SafetyProfile)
	}
	if d := w.drift(p); d != nil {
		t.Fatalf("drift right after use: %+v", d)
	}
	// Only the automation snapshot can be checked against the store.
	if _, _, err := w.r.recorded(p); err != nil {
		t.Fatalf("recorded profiles: %v", err)
	}

	// A record whose safety fields were edited by hand, its digests left
	// as they were, shows values resolving now does not give: drift, and
	// the reason says the record was edited.
	edited := p.Clone()
	edited.SafetyProfile.MaxRetriesPerStep += 6
	d := w.drift(edited)
	if d == nil || d.SafetyProfile == nil || d.AutomationProfile != nil {
		t.Fatalf("drift of a record with an edited safety field = %+v", d)
	}
	if strings.Join(d.SafetyProfile.Fields, ",") != "max_retries_per_step" || !strings.Contains(d.SafetyProfile.Reason, "it has been edited") {
		t.Errorf("edited record: safety change %+v", d.SafetyProfile)
	}

	// A level change that does not change the answer is not drift.
	w.write(filepath.Join(w.home, "config.yaml"), "automation_profile: manual\n")
	if d := w.drift(p); d != nil {
		t.Errorf("drift from a shadowed global setting: %+v", d)
	}

	// The profile changes: drift in both the automation and the composed
	// safety profile.
	w.addProfile(strings.Replace(strictProfile, "%d", "5", 1))
	d = w.drift(p)
	if d == nil || d.AutomationProfile == nil || d.SafetyProfile == nil {
		t.Fatalf("drift after the profile changed = %+v", d)
	}
	if d.AutomationProfile.Recorded.SHA256 == d.AutomationProfile.Now.SHA256 || !strings.Contains(d.AutomationProfile.Reason, "has changed") {
		t.Errorf("automation change = %+v", d.AutomationProfile)
	}
	if strings.Join(d.SafetyProfile.Fields, ",") != "max_retries_per_step" {
		t.Errorf("safety fields = %v", d.SafetyProfile.Fields)
	}
	// The global level changed earlier (without effect); no other did.
	if strings.Join(d.Levels, ",") != "global" {
		t.Errorf("levels = %v, want [global]", d.Levels)
	}
	// The record still decides: its snapshot is the old version.
	ap, sp, err := w.r.recorded(p)
	if err != nil {
		t.Fatal(err)
	}
	if ap.Safety.MaxRetriesPerStep != 2 || sp.MaxRetriesPerStep != 2 {
		t.Errorf("recorded profiles changed under the plan: %d, %d", ap.Safety.MaxRetriesPerStep, sp.MaxRetriesPerStep)
	}

	// A level change: the project now carries a standalone safety profile.
	w.addProfile(strings.Replace(strictProfile, "%d", "2", 1))
	if d := w.drift(p); d != nil {
		t.Fatalf("drift after restoring the profile: %+v", d)
	}
	w.write(filepath.Join(w.proj, "agents.yaml"), "safety_profile:\n  require_human_approval: true\n")
	d = w.drift(p)
	if d == nil || d.AutomationProfile != nil || d.SafetyProfile == nil {
		t.Fatalf("drift after the project changed = %+v", d)
	}
	if d.SafetyProfile.Now.Provenance != plan.LevelProject || d.SafetyProfile.Now.Source != plan.SourceStandalone ||
		d.SafetyProfile.Recorded.Provenance != plan.LevelAction {
		t.Errorf("safety change = %+v", d.SafetyProfile)
	}
	if strings.Join(d.Levels, ",") != "project,global" {
		t.Errorf("levels = %v, want [project global]", d.Levels)
	}

	// The action's profile removed: resolving now fails, and says why.
	if err := os.Remove(filepath.Join(w.proj, "agents.yaml")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.Profiles().Remove(context.Background(), "acme/strict"); err != nil {
		t.Fatal(err)
	}
	d = w.drift(p)
	if d == nil || d.Error == nil || !strings.Contains(*d.Error, "acme/strict") || !strings.Contains(*d.Error, "action level") {
		t.Errorf("drift after the profile was removed = %+v", d)
	}
	// The record still decides, from the snapshot the store kept.
	if _, _, err := w.r.recorded(p); err != nil {
		t.Errorf("recorded profiles after removal: %v", err)
	}
}

func TestRecordedRefusesEditedPlan(t *testing.T) {
	w := newWorld(t)
	// The snapshots a record cites, checked against the record.
	p := w.use(plan.Setting{Level: plan.LevelPlan, SafetyProfile: safety(4)}, "", w.proj)
	edited := p.Clone()
	edited.SafetyProfile.AllowUnsafeTools = true
	if _, _, err := w.r.recordedContent(edited); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("edited safety: err = %v, want invalid", err)
	}
	edited = p.Clone()
	edited.AutomationProfile.Name = "full-auto"
	if _, _, err := w.r.recordedContent(edited); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("renamed automation profile: err = %v, want invalid", err)
	}
	edited = p.Clone()
	edited.AutomationProfile.SHA256 = strings.Repeat("0", 64)
	if _, _, err := w.r.recordedContent(edited); !errs.Is(err, errs.KindNotFound) {
		t.Errorf("unknown snapshot: err = %v, want not found", err)
	}
	// Looser safety fields with the digest recomputed to match: the record
	// agrees with itself, but cites a snapshot the store never wrote.
	edited = p.Clone()
	edited.SafetyProfile.AllowUnsafeTools = true
	edited.SafetyProfile.RequireSandbox = false
	rehash(t, edited)
	if _, _, err := w.r.recordedContent(edited); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "never wrote") {
		t.Errorf("rehashed safety: err = %v, want invalid", err)
	}
	if err := verifyRecord(edited, w.objects(), w.r.Profile); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("Verify of the rehashed record: %v", err)
	}
	if err := verifyRecord(p, w.objects(), w.r.Profile); err != nil {
		t.Errorf("Verify of the record as made: %v", err)
	}

	// A stored plan edited is first held to its history: it is reported
	// as edited, and the hint names the profile of the version the store
	// wrote, not the one the edit put in.
	w.addAction(strings.Replace(deployAction, "%s", "cautious", 1))
	stored := w.use(plan.Setting{Level: plan.LevelPlan}, "local/deploy", w.proj)
	if _, _, err := w.r.recorded(stored); err != nil {
		t.Fatalf("recorded profiles of the stored plan: %v", err)
	}
	edited = stored.Clone()
	edited.AutomationProfile.Name = "full-auto"
	_, _, err := w.r.recorded(edited)
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.KindInvalid || !strings.Contains(e.Msg, "has been edited") {
		t.Fatalf("stored plan renamed to full-auto: err = %v, want invalid, edited", err)
	}
	if e.Subject.About != errs.AboutPlanRecord || e.Subject.Detail != "cautious" {
		t.Errorf("stored plan renamed to full-auto: subject %+v, want the plan record and cautious", e.Subject)
	}
}

// rehash sets the safety digest of p to that of its (edited) fields.
func rehash(t *testing.T, p *plan.Plan) {
	t.Helper()
	data, err := resolve.SafetyContent(p.SafetyProfile.SafetyProfile)
	if err != nil {
		t.Fatal(err)
	}
	p.SafetyProfile.SHA256 = canon.Digest(data)
}

// TestRecordedComposedSafety checks a composed safety profile against the
// automation snapshot it came from, and accepts a built-in's snapshots
// when the store lacks them.
func TestRecordedComposedSafety(t *testing.T) {
	w := newWorld(t)
	w.addProfile(strings.Replace(strictProfile, "%d", "2", 1))
	p := w.use(plan.Setting{Level: plan.LevelPlan, AutomationProfile: str("acme/strict")}, "", w.proj)
	if p.SafetyProfile.Source != plan.SourceComposed {
		t.Fatalf("source %s", p.SafetyProfile.Source)
	}
	// The composed safety edited, and a snapshot of it planted in the
	// store: the record cites an object, but not the automation profile's
	// safety.
	edited := p.Clone()
	edited.SafetyProfile.MaxRetriesPerStep = 9
	rehash(t, edited)
	data, _ := resolve.SafetyContent(edited.SafetyProfile.SafetyProfile)
	if _, err := w.st.PutObject(context.Background(), data); err != nil {
		t.Fatal(err)
	}
	if err := verifyRecord(edited, w.objects(), w.r.Profile); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "composed") {
		t.Errorf("edited composed safety: %v", err)
	}

	// A plan under a built-in verifies from the built-in alone.
	bare := newWorld(t)
	bp := bare.use(plan.Setting{Level: plan.LevelPlan, AutomationProfile: str("cautious")}, "", bare.proj)
	empty := func(d string) ([]byte, error) { return store.NewMemory().GetObject(context.Background(), d) }
	if err := verifyRecord(bp, empty, bare.r.Profile); err != nil {
		t.Errorf("a built-in's plan against an empty store: %v", err)
	}
	if err := verifyRecord(bp, empty, nil); !errs.Is(err, errs.KindNotFound) {
		t.Errorf("without the built-ins, the missing snapshot is not found: %v", err)
	}
}

func TestSnapshotDigestIsHistoryDigest(t *testing.T) {
	w := newWorld(t)
	p, _, err := profile.DecodeProfile([]byte(strings.Replace(strictProfile, "%d", "2", 1)), "x")
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.st.Profiles().Put(context.Background(), p, false)
	if err != nil {
		t.Fatal(err)
	}
	pl := w.use(plan.Setting{Level: plan.LevelPlan, AutomationProfile: str("acme/strict")}, "", w.proj)
	if pl.AutomationProfile.SHA256 != res.Digest {
		t.Errorf("snapshot digest %s, history digest %s", pl.AutomationProfile.SHA256, res.Digest)
	}
}

// verifyRecord checks p's record against the snapshots it cites.
func verifyRecord(p *plan.Plan, objects resolve.Objects, builtin resolve.Lookup) error {
	_, _, err := resolve.Recorded(p, objects, builtin)
	return err
}
