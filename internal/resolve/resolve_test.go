package resolve

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/profiles"
)

func builtin(t testing.TB, name string) *profile.AutomationProfile {
	t.Helper()
	data, err := fs.ReadFile(profiles.Builtin, "builtin/"+name+".yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := profile.DecodeProfile(data, name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// lookupIn looks up built-ins from the embedded files and custom profiles
// in custom.
func lookupIn(t testing.TB, custom map[string]*profile.AutomationProfile) Lookup {
	return func(name string) (*profile.AutomationProfile, error) {
		if profile.IsBuiltinName(name) {
			return builtin(t, name), nil
		}
		if p, ok := custom[name]; ok {
			return p.Clone(), nil
		}
		return nil, errs.NotFound("profile %q not found", name)
	}
}

func str(s string) *string { return &s }

// safety returns a standalone safety profile told apart by its retry cap.
func safety(retries int) *profile.SafetyProfile {
	s := profile.DefaultSafetyProfile()
	s.MaxRetriesPerStep = retries
	return &s
}

// levels builds the four levels from what each sets: an automation profile
// name ("" for none) and a safety profile (nil for none).
func levels(autos [4]string, safeties [4]*profile.SafetyProfile) []plan.Setting {
	out := make([]plan.Setting, 4)
	for i, l := range plan.Levels {
		out[i] = plan.Setting{Level: l, SafetyProfile: safeties[i]}
		if autos[i] != "" {
			out[i].AutomationProfile = str(autos[i])
		}
	}
	return out
}

func TestResolvePrecedence(t *testing.T) {
	lookup := lookupIn(t, nil)
	none := [4]*profile.SafetyProfile{}
	tests := []struct {
		name       string
		autos      [4]string
		safeties   [4]*profile.SafetyProfile
		wantAuto   string
		wantAutoAt string
		// wantRetries tells the safety profile that won: a standalone one
		// by its retry cap, a composed one by the profile's own.
		wantRetries  int
		wantSafetyAt string
		wantSource   string
		wantFrom     string
	}{
		{"automation: plan wins", [4]string{"manual", "trusted", "auto", "ci"}, none, "manual", "plan", 3, "plan", "composed", "manual"},
		{"automation: action wins", [4]string{"", "trusted", "auto", "ci"}, none, "trusted", "action", 3, "action", "composed", "trusted"},
		{"automation: project wins", [4]string{"", "", "auto", "ci"}, none, "auto", "project", 3, "project", "composed", "auto"},
		{"automation: global wins", [4]string{"", "", "", "ci"}, none, "ci", "global", 3, "global", "composed", "ci"},
		{"automation: system default", [4]string{}, none, "review", "system", 3, "global", "composed", "review"},

		{"safety: plan wins", [4]string{"", "cautious"}, [4]*profile.SafetyProfile{safety(10), safety(11), safety(12), safety(13)}, "cautious", "action", 10, "plan", "standalone", ""},
		{"safety: action wins", [4]string{"", "cautious"}, [4]*profile.SafetyProfile{nil, safety(11), safety(12), safety(13)}, "cautious", "action", 11, "action", "standalone", ""},
		{"safety: project wins", [4]string{"", "cautious"}, [4]*profile.SafetyProfile{nil, nil, safety(12), safety(13)}, "cautious", "action", 12, "project", "standalone", ""},
		{"safety: global wins", [4]string{"", "cautious"}, [4]*profile.SafetyProfile{nil, nil, nil, safety(13)}, "cautious", "action", 13, "global", "standalone", ""},
		{"safety: none, composed at the automation profile's level", [4]string{"", "", "full-auto"}, none, "full-auto", "project", 3, "project", "composed", "full-auto"},

		// Choosing full-auto for a plan does not drop the action's safety.
		{"full-auto plan, action's standalone safety wins", [4]string{"full-auto"}, [4]*profile.SafetyProfile{nil, safety(1)}, "full-auto", "plan", 1, "action", "standalone", ""},
		// A less specific standalone safety profile still beats the
		// safety composed in a more specific automation profile.
		{"global standalone beats plan's composed", [4]string{"full-auto"}, [4]*profile.SafetyProfile{nil, nil, nil, safety(0)}, "full-auto", "plan", 0, "global", "standalone", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Resolve(levels(tt.autos, tt.safeties), lookup)
			if err != nil {
				t.Fatal(err)
			}
			if r.Automation.Name != tt.wantAuto || r.AutomationLevel != tt.wantAutoAt {
				t.Errorf("automation = %s from %s, want %s from %s", r.Automation.Name, r.AutomationLevel, tt.wantAuto, tt.wantAutoAt)
			}
			if r.SafetyLevel != tt.wantSafetyAt || r.SafetySource != tt.wantSource || r.SafetyFrom != tt.wantFrom {
				t.Errorf("safety from %s (%s, %q), want %s (%s, %q)", r.SafetyLevel, r.SafetySource, r.SafetyFrom, tt.wantSafetyAt, tt.wantSource, tt.wantFrom)
			}
			if r.Safety.MaxRetriesPerStep != tt.wantRetries {
				t.Errorf("safety retries = %d, want %d", r.Safety.MaxRetriesPerStep, tt.wantRetries)
			}
			if tt.wantSource == "composed" {
				want := builtin(t, tt.wantAuto).Safety
				if r.Safety.RequireSandbox != want.RequireSandbox || r.Safety.AllowUnsafeTools != want.AllowUnsafeTools {
					t.Errorf("composed safety %+v is not %s's %+v", r.Safety, tt.wantAuto, want)
				}
			}
		})
	}
}

func TestResolveMissingProfile(t *testing.T) {
	lv := levels([4]string{"", "acme/gone", "ci"}, [4]*profile.SafetyProfile{})
	lv[1].Source = str("local/deploy")
	_, err := Resolve(lv, lookupIn(t, nil))
	if !errs.Is(err, errs.KindNotFound) {
		t.Fatalf("err = %v, want not found", err)
	}
	for _, want := range []string{`"acme/gone"`, "action level", "local/deploy"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	// A missing profile at a level that does not win is never looked up.
	lv = levels([4]string{"manual", "acme/gone"}, [4]*profile.SafetyProfile{})
	if _, err := Resolve(lv, lookupIn(t, nil)); err != nil {
		t.Errorf("a shadowed missing profile failed the resolution: %v", err)
	}
	// The project level names its file.
	lv = levels([4]string{"", "", "acme/gone"}, [4]*profile.SafetyProfile{})
	lv[2].Source = str("/p/agents.yaml")
	_, err = Resolve(lv, lookupIn(t, nil))
	if !errs.Is(err, errs.KindNotFound) || !strings.Contains(err.Error(), "project level (/p/agents.yaml)") {
		t.Errorf("err = %v", err)
	}
}

func TestResolveChecksLevels(t *testing.T) {
	lv := levels([4]string{}, [4]*profile.SafetyProfile{})
	lv[0], lv[1] = lv[1], lv[0]
	if _, err := Resolve(lv, lookupIn(t, nil)); err == nil {
		t.Error("levels out of order were accepted")
	}
	if _, err := Resolve(lv[:3], lookupIn(t, nil)); err == nil {
		t.Error("three levels were accepted")
	}
}

// TestLoosened: a standalone safety profile that drops what the resolved
// automation profile's composed safety set is reported, field by field; a
// composed one never is.
func TestLoosened(t *testing.T) {
	strict := &profile.AutomationProfile{Name: "acme/strict", Safety: profile.DefaultSafetyProfile()}
	limit := 50.0
	strict.Safety.MaxTotalCost = &limit
	strict.Safety.AllowedSkillCategories = []string{"deploy"}
	lookup := func(name string) (*profile.AutomationProfile, error) { return strict.Clone(), nil }
	name := "acme/strict"
	standalone := profile.DefaultSafetyProfile()
	levels := []plan.Setting{
		{Level: plan.LevelPlan, AutomationProfile: &name},
		{Level: plan.LevelAction, SafetyProfile: &standalone},
		{Level: plan.LevelProject},
		{Level: plan.LevelGlobal},
	}
	r, err := Resolve(levels, lookup)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range r.Loosened() {
		got = append(got, l.Field+" "+l.Replaced+" "+l.Now)
	}
	if want := `allowed_skill_categories ["deploy"] []|max_total_cost 50 null`; strings.Join(got, "|") != want {
		t.Errorf("Loosened = %q, want %q", strings.Join(got, "|"), want)
	}

	levels[1].SafetyProfile = nil
	r, err = Resolve(levels, lookup)
	if err != nil {
		t.Fatal(err)
	}
	if l := r.Loosened(); l != nil {
		t.Errorf("a composed safety profile is looser than itself: %+v", l)
	}
}

// objectsOf returns the snapshots applying r to p records, as a store
// would keep them, and a lookup of them.
func objectsOf(t *testing.T, r *Result, p *plan.Plan) Objects {
	t.Helper()
	snaps, err := r.Apply(p, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	kept := map[string][]byte{}
	for _, s := range snaps {
		kept[s.Digest] = s.Data
	}
	return func(digest string) ([]byte, error) {
		if data, ok := kept[digest]; ok {
			return data, nil
		}
		return nil, errs.NotFound("object %s not found", digest)
	}
}

// TestVerify checks a record against the snapshots it cites, with nothing
// but a lookup of them: what the record says must be what they say.
// TestOverridden: a standalone safety profile that overrides a stricter
// one of a less specific level says which level and what it drops; one
// with nothing standalone below it, or a composed one, overrides none.
func TestOverridden(t *testing.T) {
	name := "acme/x"
	lookup := func(string) (*profile.AutomationProfile, error) {
		return &profile.AutomationProfile{Name: name, Safety: profile.DefaultSafetyProfile()}, nil
	}
	loose, strict := profile.DefaultSafetyProfile(), profile.DefaultSafetyProfile()
	strict.RequireHumanApproval = true
	strict.AllowedSkillCategories = []string{"code"}
	levels := []plan.Setting{
		{Level: plan.LevelPlan, AutomationProfile: &name},
		{Level: plan.LevelAction},
		{Level: plan.LevelProject, SafetyProfile: &loose},
		{Level: plan.LevelGlobal, SafetyProfile: &strict},
	}
	r, err := Resolve(levels, lookup)
	if err != nil {
		t.Fatal(err)
	}
	level, l := r.Overridden()
	var got []string
	for _, f := range l {
		got = append(got, f.Field+" "+f.Replaced+" "+f.Now)
	}
	if want := `require_human_approval true false|allowed_skill_categories ["code"] []`; level != plan.LevelGlobal || strings.Join(got, "|") != want {
		t.Errorf("Overridden = %s %q, want global %q", level, strings.Join(got, "|"), want)
	}
	levels[3].SafetyProfile = nil
	if r, err = Resolve(levels, lookup); err != nil {
		t.Fatal(err)
	}
	if level, l := r.Overridden(); level != "" || l != nil {
		t.Errorf("nothing below: Overridden = %s %v", level, l)
	}
	levels[2].SafetyProfile, levels[3].SafetyProfile = nil, &strict
	if r, err = Resolve(levels, lookup); err != nil {
		t.Fatal(err)
	}
	if level, l := r.Overridden(); level != "" || l != nil {
		t.Errorf("the lowest standalone: Overridden = %s %v", level, l)
	}
}

func TestVerify(t *testing.T) {
	custom := map[string]*profile.AutomationProfile{"acme/strict": builtin(t, "cautious")}
	custom["acme/strict"].Name = "acme/strict"
	lookup := lookupIn(t, custom)
	r, err := Resolve(levels([4]string{"acme/strict"}, [4]*profile.SafetyProfile{nil, safety(4)}), lookup)
	if err != nil {
		t.Fatal(err)
	}
	p := &plan.Plan{ID: "01jq3v6m4x8b2c7d9e0f1g2h3k"}
	objects := objectsOf(t, r, p)
	ap, sp, err := Recorded(p, objects, lookup)
	if err != nil || ap.Name != "acme/strict" || sp.MaxRetriesPerStep != 4 {
		t.Fatalf("Recorded = %v, %+v, %v", ap, sp, err)
	}
	edited := p.Clone()
	edited.SafetyProfile.AllowUnsafeTools = true
	if err := verifyRecord(edited, objects, lookup); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("edited safety: %v, want invalid", err)
	}
	var e *errs.Error
	if err := verifyRecord(edited, objects, lookup); !errors.As(err, &e) || e.Subject.About != errs.AboutPlanRecord || e.Subject.Detail != "acme/strict" {
		t.Errorf("the refusal is not about the plan's record: %+v", e)
	}
	none := func(string) ([]byte, error) { return nil, errs.NotFound("gone") }
	if err := verifyRecord(p, none, lookup); !errs.Is(err, errs.KindNotFound) {
		t.Errorf("snapshots gone: %v, want not found", err)
	}
	// A built-in's automation snapshot comes from the built-in itself.
	r, err = Resolve(levels([4]string{"cautious"}, [4]*profile.SafetyProfile{}), lookup)
	if err != nil {
		t.Fatal(err)
	}
	bp := &plan.Plan{ID: p.ID}
	objectsOf(t, r, bp)
	if err := verifyRecord(bp, none, lookup); err != nil {
		t.Errorf("a built-in's plan against no objects: %v", err)
	}
	if err := verifyRecord(bp, none, nil); !errs.Is(err, errs.KindNotFound) {
		t.Errorf("without the built-ins, the missing snapshot is not found: %v", err)
	}
}

// verifyRecord checks p's record against the snapshots it cites.
func verifyRecord(p *plan.Plan, objects Objects, builtin Lookup) error {
	_, _, err := Recorded(p, objects, builtin)
	return err
}

// TestVerifyForgedBuiltin: a record that names a built-in but cites a
// snapshot of other content (a looser profile renamed, planted as an
// object, with the record's digests and safety made to match) is refused:
// a built-in has one content, the one compiled in.
func TestVerifyForgedBuiltin(t *testing.T) {
	lookup := lookupIn(t, nil)
	forged := builtin(t, "full-auto")
	forged.Name = "manual"
	plantedLookup := func(name string) (*profile.AutomationProfile, error) {
		if name == "manual" {
			return forged.Clone(), nil
		}
		return lookup(name)
	}
	r, err := Resolve(levels([4]string{"manual"}, [4]*profile.SafetyProfile{}), plantedLookup)
	if err != nil {
		t.Fatal(err)
	}
	p := &plan.Plan{ID: "01jq3v6m4x8b2c7d9e0f1g2h3k"}
	objects := objectsOf(t, r, p)
	err = verifyRecord(p, objects, lookup)
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.KindInvalid || e.Subject.About != errs.AboutPlanRecord ||
		!strings.Contains(e.Msg, `records the built-in profile "manual" as sha256`) {
		t.Errorf("a forged built-in snapshot: %v", err)
	}
	// The real built-in, from the same objects, still verifies.
	r, err = Resolve(levels([4]string{"manual"}, [4]*profile.SafetyProfile{}), lookup)
	if err != nil {
		t.Fatal(err)
	}
	real := &plan.Plan{ID: p.ID}
	if err := verifyRecord(real, objectsOf(t, r, real), lookup); err != nil {
		t.Errorf("the real built-in: %v", err)
	}
}

// TestVerifyRecordAgreesWithTrace: a record edited to a looser standalone
// safety profile, with its snapshot planted among the objects, is refused
// when the plan's own trace of the levels does not set that profile; and
// an automation profile the trace does not resolve to is refused too.
func TestVerifyRecordAgreesWithTrace(t *testing.T) {
	lookup := lookupIn(t, nil)
	r, err := Resolve(levels([4]string{"supervised"}, [4]*profile.SafetyProfile{}), lookup)
	if err != nil {
		t.Fatal(err)
	}
	p := &plan.Plan{ID: "01jq3v6m4x8b2c7d9e0f1g2h3k"}
	objects := objectsOf(t, r, p)
	if err := verifyRecord(p, objects, lookup); err != nil {
		t.Fatalf("the plan as made: %v", err)
	}
	loose := profile.DefaultSafetyProfile()
	loose.RequireSandbox, loose.AllowUnsafeTools = false, true
	looseData, err := SafetyContent(loose)
	if err != nil {
		t.Fatal(err)
	}
	planted := func(d string) ([]byte, error) {
		if d == canon.Digest(looseData) {
			return looseData, nil
		}
		return objects(d)
	}
	edited := p.Clone()
	edited.SafetyProfile = plan.SafetyRef{Provenance: plan.LevelPlan, Source: plan.SourceStandalone, SafetyProfile: loose, SHA256: canon.Digest(looseData)}
	err = verifyRecord(edited, planted, lookup)
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.KindInvalid || e.Subject.About != errs.AboutPlanRecord || !strings.Contains(e.Msg, "no level of its trace sets one") {
		t.Errorf("a planted standalone safety profile: %v", err)
	}
	moved := p.Clone()
	moved.SafetyProfile.Provenance = plan.LevelProject
	if err := verifyRecord(moved, objects, lookup); err == nil || !strings.Contains(err.Error(), "records its composed safety profile from the project level") {
		t.Errorf("a composed safety profile's level edited: %v", err)
	}
	renamed := p.Clone()
	renamed.AutomationProfile.Provenance = plan.LevelGlobal
	if err := verifyRecord(renamed, objects, lookup); err == nil || !strings.Contains(err.Error(), "its trace of the levels resolves to") {
		t.Errorf("a provenance the trace does not give: %v", err)
	}
}
