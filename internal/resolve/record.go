package resolve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/profiles"
)

// Snapshot is the canonical content of a resolved profile, kept by the
// store as an object under its digest.
type Snapshot struct {
	Digest string
	Data   []byte
}

// Snapshots returns the canonical content of the two resolved profiles and
// the references a plan records for them. The automation profile's snapshot
// is its canonical YAML exactly as the store writes it, so a custom
// profile's snapshot digest is one its history holds.
func (r *Result) Snapshots() (plan.AutomationRef, plan.SafetyRef, []Snapshot, error) {
	pdata, _, err := profile.Encode(r.Automation)
	if err != nil {
		return plan.AutomationRef{}, plan.SafetyRef{}, nil, err
	}
	sdata, err := SafetyContent(r.Safety)
	if err != nil {
		return plan.AutomationRef{}, plan.SafetyRef{}, nil, err
	}
	auto := plan.AutomationRef{Name: r.Automation.Name, Provenance: r.AutomationLevel, SHA256: canon.Digest(pdata)}
	safety := plan.SafetyRef{
		Provenance:    r.SafetyLevel,
		Source:        r.SafetySource,
		SafetyProfile: r.Safety.Clone(),
		SHA256:        canon.Digest(sdata),
	}
	if r.SafetyFrom != "" {
		from := r.SafetyFrom
		safety.FromProfile = &from
	}
	return auto, safety, []Snapshot{{auto.SHA256, pdata}, {safety.SHA256, sdata}}, nil
}

// SafetyContent returns the canonical YAML of a safety profile: the content
// a plan's safety sha256 is taken of.
func SafetyContent(s profile.SafetyProfile) ([]byte, error) {
	data, err := canon.YAML(s.Clone())
	if err != nil {
		return nil, errs.Wrap(errs.KindInvalid, err, "the safety profile cannot be encoded")
	}
	return data, nil
}

// Apply writes the resolution into p without storing anything: its two
// references, its trace and the time. It is how a plan that would resolve
// now is built to compare with the record.
func (r *Result) Apply(p *plan.Plan, at time.Time) ([]Snapshot, error) {
	auto, safety, snaps, err := r.Snapshots()
	if err != nil {
		return nil, err
	}
	p.AutomationProfile = auto
	p.SafetyProfile = safety
	p.Levels = cloneSettings(r.Levels)
	p.ResolvedAt = plan.Timestamp(at)
	return snaps, nil
}

// Objects returns the content kept under a digest (the store's objects);
// a digest nothing is kept under is errs.KindNotFound.
type Objects func(digest string) ([]byte, error)

// Recorded returns the profiles a plan recorded, once Verify has checked
// the record against the snapshots it cites: the automation profile from
// its snapshot, and the safety profile the plan holds. Nothing is decided
// under a record that does not verify.
func Recorded(p *plan.Plan, objects Objects, builtin Lookup) (*profile.AutomationProfile, profile.SafetyProfile, error) {
	ap, err := verify(p, objects, builtin)
	if err != nil {
		return nil, profile.SafetyProfile{}, err
	}
	return ap, p.SafetyProfile.SafetyProfile.Clone(), nil
}

func verify(p *plan.Plan, objects Objects, builtin Lookup) (*profile.AutomationProfile, error) {
	ref, sref := p.AutomationProfile, p.SafetyProfile
	again := func(e *errs.Error) *errs.Error { return e.About(errs.AboutPlanRecord, p.ID, ref.Name) }
	data, err := snapshot(objects, ref.SHA256, builtinContent(builtin, ref.Name))
	if err != nil {
		if errs.Is(err, errs.KindNotFound) {
			return nil, again(errs.NotFound("the snapshot of automation profile %q recorded by plan %s (sha256 %s) is missing from the store", ref.Name, p.ID, ref.SHA256))
		}
		return nil, err
	}
	// A snapshot that is, byte for byte, a built-in's stored form is that
	// built-in, compiled in: nothing to parse.
	ap := profiles.Decoded(ref.Name)
	if ap == nil || !bytes.Equal(data, profiles.StoredForm(ref.Name)) {
		if ap, _, err = profile.DecodeProfile(data, "snapshot "+ref.SHA256); err != nil {
			return nil, errs.Wrap(errs.KindInvalid, err, "plan %s: the recorded automation profile snapshot does not decode", p.ID)
		}
	}
	if ap.Name != ref.Name {
		return nil, errs.Invalid("plan %s cites sha256 %s for automation profile %q, but that snapshot is of %q", p.ID, ref.SHA256, ref.Name, ap.Name)
	}
	// A built-in has one content, the one compiled in: a snapshot of a
	// built-in's name with any other (an object planted in the store
	// beside an edited record, say) would decide under a profile that
	// every view names as the built-in.
	if current := builtinContent(builtin, ref.Name); current != nil {
		b, ok := current()
		if !ok {
			return nil, errs.New(errs.KindInternal, "plan %s: the built-in profile %q cannot be read to check the record against", p.ID, ref.Name)
		}
		if canon.Digest(b) != ref.SHA256 {
			return nil, again(errs.Invalid("plan %s records the built-in profile %q as sha256 %s, but this agents' built-in %q is sha256 %s: the plan was made by another version of agents, or its record has been edited", p.ID, ref.Name, ref.SHA256, ref.Name, canon.Digest(b)))
		}
	}
	sdata, err := SafetyContent(sref.SafetyProfile)
	if err != nil {
		return nil, err
	}
	if got := canon.Digest(sdata); got != sref.SHA256 {
		return nil, again(errs.Invalid("plan %s: its safety profile hashes to %s, not the sha256 %s it records; the plan has been edited", p.ID, got, sref.SHA256))
	}
	// The composed safety of a built-in is a built-in's snapshot too.
	var composed []byte
	if sref.Source == plan.SourceComposed {
		if composed, err = SafetyContent(ap.Safety); err != nil {
			return nil, err
		}
	}
	var builtinSafety func() ([]byte, bool)
	if profile.IsBuiltinName(ref.Name) && composed != nil {
		builtinSafety = func() ([]byte, bool) { return composed, true }
	}
	obj, err := snapshot(objects, sref.SHA256, builtinSafety)
	if errs.Is(err, errs.KindNotFound) {
		return nil, again(errs.Invalid("plan %s cites a safety profile snapshot (sha256 %s) that the store never wrote: its record has been edited, or the snapshot removed", p.ID, sref.SHA256))
	}
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(obj, sdata) {
		return nil, again(errs.Invalid("plan %s: its safety profile is not the content of the snapshot it cites (sha256 %s); the plan has been edited", p.ID, sref.SHA256))
	}
	if err := agreesWithTrace(p, sdata); err != nil {
		return nil, again(err)
	}
	if sref.Source == plan.SourceComposed {
		if sref.FromProfile == nil || *sref.FromProfile != ref.Name {
			return nil, again(errs.Invalid("plan %s records a safety profile composed in another profile than its automation profile %q; the plan has been edited", p.ID, ref.Name))
		}
		if !bytes.Equal(composed, sdata) {
			return nil, again(errs.Invalid("plan %s: its composed safety profile is not the safety of the automation profile snapshot it cites; the plan has been edited", p.ID))
		}
	}
	return ap, nil
}

// agreesWithTrace checks that a plan's record is what its own trace of
// the levels resolves to: the automation profile the most specific level
// that names one names (or the system default), and the standalone safety
// profile of the most specific level that sets one, with the same content
// (sdata, the recorded safety profile's), or a composed one when none
// does. An edited record that cites a snapshot planted beside it must
// then be matched by an edited trace as well.
func agreesWithTrace(p *plan.Plan, sdata []byte) *errs.Error {
	ref, sref := p.AutomationProfile, p.SafetyProfile
	auto, autoLevel := profile.SystemDefault, plan.LevelSystem
	var safety *profile.SafetyProfile
	safetyLevel := ""
	for _, l := range p.Levels {
		if l.AutomationProfile != nil && autoLevel == plan.LevelSystem {
			auto, autoLevel = *l.AutomationProfile, l.Level
		}
		if l.SafetyProfile != nil && safety == nil {
			safety, safetyLevel = l.SafetyProfile, l.Level
		}
	}
	if auto != ref.Name || autoLevel != ref.Provenance {
		return errs.Invalid("plan %s records automation profile %q from the %s level, but its trace of the levels resolves to %q from the %s level; the plan has been edited", p.ID, ref.Name, ref.Provenance, auto, autoLevel)
	}
	composedAt := autoLevel
	if composedAt == plan.LevelSystem {
		composedAt = plan.LevelGlobal // as a composed safety profile is reported
	}
	switch {
	case safety == nil && sref.Source != plan.SourceComposed:
		return errs.Invalid("plan %s records a standalone safety profile, but no level of its trace sets one; the plan has been edited", p.ID)
	case safety == nil && sref.Provenance != composedAt:
		return errs.Invalid("plan %s records its composed safety profile from the %s level, but its automation profile came from the %s level; the plan has been edited", p.ID, sref.Provenance, composedAt)
	case safety != nil && (sref.Source != plan.SourceStandalone || sref.Provenance != safetyLevel):
		return errs.Invalid("plan %s records its safety profile as %s from the %s level, but its trace sets a standalone one at the %s level; the plan has been edited", p.ID, sref.Source, sref.Provenance, safetyLevel)
	case safety != nil:
		content, err := SafetyContent(*safety)
		if err != nil || !bytes.Equal(content, sdata) {
			return errs.Invalid("plan %s records a safety profile that is not the one its trace sets at the %s level; the plan has been edited", p.ID, safetyLevel)
		}
	}
	return nil
}

// snapshot returns the object with the digest from objects (whose content
// has that digest) or, when it is not kept there, from fallback when that
// gives content of that very digest.
func snapshot(objects Objects, digest string, fallback func() ([]byte, bool)) ([]byte, error) {
	data, err := objects(digest)
	if err == nil || !errs.Is(err, errs.KindNotFound) || fallback == nil {
		return data, err
	}
	if b, ok := fallback(); ok && canon.Digest(b) == digest {
		return b, nil
	}
	return nil, err
}

// builtinContent returns the snapshot content of the built-in profile name
// as embedded, or nil when name is not a built-in's.
func builtinContent(builtin Lookup, name string) func() ([]byte, bool) {
	if builtin == nil || !profile.IsBuiltinName(name) {
		return nil
	}
	return func() ([]byte, bool) {
		b, err := builtin(name)
		if err != nil {
			return nil, false
		}
		// The built-in compiled in has its stored form compiled in too.
		if reflect.DeepEqual(b, profiles.Decoded(name)) {
			return profiles.StoredForm(name), true
		}
		data, _, err := profile.Encode(b)
		return data, err == nil
	}
}

// DriftError is the drift of a plan that cannot be resolved now.
func DriftError(err error) *plan.Drift {
	msg := err.Error()
	return &plan.Drift{Levels: []string{}, Error: &msg}
}

// Diff compares a plan's record with now, the same plan resolved again
// (see Apply). It returns nil when resolving now gives the same answer: the
// same profiles, from the same levels, with the same content. Levels whose
// settings changed without changing the answer are not drift.
func Diff(recorded, now *plan.Plan) *plan.Drift {
	d := &plan.Drift{Levels: changedLevels(recorded.Levels, now.Levels)}
	if a, b := recorded.AutomationProfile, now.AutomationProfile; a != b {
		d.AutomationProfile = &plan.AutomationChange{Recorded: a, Now: b, Reason: automationReason(a, b)}
	}
	// The fields are compared as well as the digests: a record whose
	// fields were edited by hand, its digest left as it was, shows values
	// that resolving now does not give.
	a, b := origin(recorded.SafetyProfile), origin(now.SafetyProfile)
	fields := changedFields(recorded.SafetyProfile.SafetyProfile, now.SafetyProfile.SafetyProfile)
	if !reflect.DeepEqual(a, b) || len(fields) > 0 {
		d.SafetyProfile = &plan.SafetyChange{Recorded: a, Now: b, Fields: fields, Reason: safetyReason(a, b, fields)}
	}
	if d.AutomationProfile == nil && d.SafetyProfile == nil {
		return nil
	}
	return d
}

func origin(r plan.SafetyRef) plan.SafetyOrigin {
	return plan.SafetyOrigin{Provenance: r.Provenance, Source: r.Source, FromProfile: r.FromProfile, SHA256: r.SHA256}
}

func changedLevels(a, b []plan.Setting) []string {
	out := []string{}
	for i := range min(len(a), len(b)) {
		if !reflect.DeepEqual(a[i].AutomationProfile, b[i].AutomationProfile) || !reflect.DeepEqual(a[i].SafetyProfile, b[i].SafetyProfile) {
			out = append(out, a[i].Level)
		}
	}
	return out
}

// changedFields lists the safety fields whose values differ, in canonical
// order, comparing the canonical documents so that a nil list and an empty
// one (which mean the same) do not count.
func changedFields(a, b profile.SafetyProfile) []string {
	out := []string{}
	ja, errA := canon.CompactJSON(a.Clone())
	jb, errB := canon.CompactJSON(b.Clone())
	if errA != nil || errB != nil {
		return out
	}
	fa, fb := fieldsOf(ja), fieldsOf(jb)
	for _, k := range profile.SafetyKeys {
		if fa[k] != fb[k] {
			out = append(out, k)
		}
	}
	return out
}

func fieldsOf(js []byte) map[string]string {
	var m map[string]any
	out := map[string]string{}
	if err := json.Unmarshal(js, &m); err != nil {
		return out
	}
	for k, v := range m {
		out[k] = fmt.Sprint(v)
	}
	return out
}

func automationReason(a, b plan.AutomationRef) string {
	switch {
	case a.Name != b.Name:
		return fmt.Sprintf("now %q from the %s level, recorded %q from the %s level", b.Name, b.Provenance, a.Name, a.Provenance)
	case a.SHA256 != b.SHA256 && a.Provenance != b.Provenance:
		return fmt.Sprintf("%q has changed since it was recorded, and now comes from the %s level, not the %s level", a.Name, b.Provenance, a.Provenance)
	case a.SHA256 != b.SHA256:
		return fmt.Sprintf("%q has changed since it was recorded", a.Name)
	default:
		return fmt.Sprintf("%q now comes from the %s level, not the %s level", a.Name, b.Provenance, a.Provenance)
	}
}

func safetyReason(a, b plan.SafetyOrigin, fields []string) string {
	describe := func(o plan.SafetyOrigin) string {
		if o.Source == plan.SourceComposed && o.FromProfile != nil {
			return fmt.Sprintf("the safety composed in %q (%s level)", *o.FromProfile, o.Provenance)
		}
		return fmt.Sprintf("the standalone safety profile of the %s level", o.Provenance)
	}
	if reflect.DeepEqual(a, b) {
		// The same content by its digest, but other fields: the record
		// was edited.
		return fmt.Sprintf("the record's safety fields are not those of its sha256 %s: it has been edited (%s)", a.SHA256, strings.Join(fields, ", "))
	}
	var b2 strings.Builder
	if da, db := describe(a), describe(b); da != db {
		fmt.Fprintf(&b2, "now %s, recorded %s", db, da)
	} else {
		fmt.Fprintf(&b2, "%s has changed", da)
	}
	if len(fields) > 0 {
		fmt.Fprintf(&b2, " (%s)", strings.Join(fields, ", "))
	}
	return b2.String()
}
