// Package plan holds plans: an action put to use, with the record of how its
// profiles were resolved. A plan records the names chosen, the level each
// came from, and the sha256 of a snapshot of each profile it resolved, so a
// running plan's constraints never change under it; the snapshots
// themselves are kept by the store as content-addressed objects. The
// package decodes stored plans strictly; it never prints, reads flags or
// environment, or exits.
package plan

import (
	"time"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

// The levels of resolution, most specific first, and the system default
// that applies when no level names an automation profile.
const (
	LevelPlan    = "plan"
	LevelAction  = "action"
	LevelProject = "project"
	LevelGlobal  = "global"
	LevelSystem  = "system"
)

// Levels are the levels a setting can come from, in precedence order.
var Levels = []string{LevelPlan, LevelAction, LevelProject, LevelGlobal}

// Where a resolved safety profile came from: a level's own safety_profile,
// or the safety composed inside the resolved automation profile.
const (
	SourceStandalone = "standalone"
	SourceComposed   = "composed"
)

// AutomationRef records the automation profile a plan resolved to.
type AutomationRef struct {
	// Name is the profile's name.
	Name string `json:"name"`
	// Provenance is the level that named it: plan, action, project, global,
	// or system when none did.
	Provenance string `json:"provenance"`
	// SHA256 is the digest of the profile's canonical YAML as it was when
	// the plan resolved it; the store keeps that snapshot under it.
	SHA256 string `json:"sha256"`
}

// SafetyRef records the safety profile a plan resolved to, with its eight
// fields as they were.
type SafetyRef struct {
	// Provenance is the level it came from: plan, action, project or
	// global. A composed safety profile is reported at the level of the
	// automation profile it came from, the system default as global.
	Provenance string `json:"provenance"`
	// Source is standalone (a level's own safety_profile) or composed
	// (the safety of the resolved automation profile).
	Source string `json:"source"`
	// FromProfile names the automation profile a composed safety profile
	// came from; nil for a standalone one.
	FromProfile *string `json:"from_profile"`
	profile.SafetyProfile
	// SHA256 is the digest of the safety profile's canonical YAML; the
	// store keeps that snapshot under it.
	SHA256 string `json:"sha256"`
}

// Setting is what one level set at the time of resolution. Nil fields set
// nothing.
type Setting struct {
	// Level is plan, action, project or global.
	Level string `json:"level"`
	// AutomationProfile is the automation profile the level names.
	AutomationProfile *string `json:"automation_profile"`
	// SafetyProfile is the level's standalone safety profile.
	SafetyProfile *profile.SafetyProfile `json:"safety_profile"`
	// Source says where the level's settings were read: the action's name,
	// the project's agents.yaml, the global config.yaml; nil for the plan
	// itself, or when the level has no file.
	Source *string `json:"source"`
}

// Plan is an action put to use with its recorded resolution. Field order
// is the canonical output order.
type Plan struct {
	ID        string    `json:"id"`
	Action    string    `json:"action"`
	CreatedAt time.Time `json:"created_at"`
	// AutomationProfile and SafetyProfile are the resolved profiles.
	AutomationProfile AutomationRef `json:"automation_profile"`
	SafetyProfile     SafetyRef     `json:"safety_profile"`
	// Levels is the trace of the resolution: what each of the four levels
	// set, in precedence order. Levels[0] holds the plan's own choices,
	// which a later resolution starts from.
	Levels []Setting `json:"levels"`
	// ResolvedAt is when the profiles were last resolved: at plan use, or
	// at the last set-automation-profile.
	ResolvedAt time.Time `json:"resolved_at"`
	// ProjectDir is the folder the project's agents.yaml was looked for
	// from, so a later resolution looks in the same place.
	ProjectDir string `json:"project_dir"`
}

// Own returns the plan's own settings: the plan level of its trace.
func (p *Plan) Own() Setting {
	for _, s := range p.Levels {
		if s.Level == LevelPlan {
			return s.Clone()
		}
	}
	return Setting{Level: LevelPlan}
}

// Digests returns the sha256 of every snapshot the plan cites.
func (p *Plan) Digests() []string {
	return []string{p.AutomationProfile.SHA256, p.SafetyProfile.SHA256}
}

// Clone returns a deep copy of p.
func (p *Plan) Clone() *Plan {
	if p == nil {
		return nil
	}
	c := *p
	c.SafetyProfile = p.SafetyProfile.Clone()
	if p.Levels != nil {
		c.Levels = make([]Setting, len(p.Levels))
		for i, s := range p.Levels {
			c.Levels[i] = s.Clone()
		}
	}
	return &c
}

// Clone returns a deep copy of r.
func (r SafetyRef) Clone() SafetyRef {
	c := r
	c.FromProfile = cloneString(r.FromProfile)
	c.SafetyProfile = r.SafetyProfile.Clone()
	return c
}

// Clone returns a deep copy of s.
func (s Setting) Clone() Setting {
	c := s
	c.AutomationProfile = cloneString(s.AutomationProfile)
	c.Source = cloneString(s.Source)
	if s.SafetyProfile != nil {
		v := s.SafetyProfile.Clone()
		c.SafetyProfile = &v
	}
	return c
}

// IsEmpty reports whether the level set nothing.
func (s Setting) IsEmpty() bool { return s.AutomationProfile == nil && s.SafetyProfile == nil }

func cloneString(s *string) *string {
	if s == nil {
		return nil
	}
	v := *s
	return &v
}

// Encode returns the canonical YAML of p, as the store writes it, and the
// value that YAML decodes to; the bytes are a fixed point, as for actions
// and profiles.
func Encode(p *Plan) ([]byte, *Plan, error) {
	if p == nil {
		return nil, nil, errs.Invalid("no plan to store")
	}
	return canon.StableYAML(p, "plan "+p.ID, func(data []byte) (*Plan, error) {
		return Decode(data, p.ID)
	})
}

// Timestamp returns t as plans record times: UTC, to the millisecond.
func Timestamp(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }

// LoosenedSummary is one line saying what p's standalone safety profile
// drops of the composed one it replaces (l, as profile.LooserThan lists
// it), for warnings and the human formats: "... looser than the safety
// composed in "acme/strict" that it replaces: max_total_cost 50 → null".
// It is "" when l is empty.
func LoosenedSummary(p *Plan, l []profile.Loosening) string {
	if len(l) == 0 {
		return ""
	}
	return "the standalone safety profile of the " + p.SafetyProfile.Provenance + " level is looser than the safety composed in \"" +
		p.AutomationProfile.Name + "\" that it replaces: " + profile.LooseningText(l)
}
