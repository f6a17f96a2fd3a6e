// Package resolve decides which automation profile and which safety
// profile apply to a plan, and says why. Four levels can set either, most
// specific first: the plan itself, the action it was made from, the project
// (agents.yaml) and the global configuration ($AGENTS_HOME/config.yaml).
//
// The automation profile is the one named at the first level that names
// one, else the system default, review. The safety profile is the first
// standalone safety_profile found walking the same levels: a standalone
// safety profile beats the safety composed in any automation profile, so
// choosing a more autonomous profile for a plan never silently drops the
// safety constraints an action spelled out. Where no level has one, it is
// the safety composed in the resolved automation profile, reported at the
// level that profile came from (the system default's as global).
//
// A resolution is recorded in its plan with a snapshot of each profile, so
// a plan's constraints never change under it; Diff compares a record with
// what would resolve now. The package is pure: it takes the levels and
// lookups (of profiles, of the objects a record cites) and returns its
// answer, reading and writing nothing; the registry reads the levels and
// keeps the snapshots.
package resolve

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
)

// Lookup returns the automation profile with the given name, built-in or
// stored. A name that does not exist is errs.KindNotFound.
type Lookup func(name string) (*profile.AutomationProfile, error)

// Result is the outcome of a resolution: the trace of the levels, and the
// two profiles with where each came from.
type Result struct {
	// Levels is what each of the four levels set, in precedence order.
	Levels []plan.Setting
	// Automation is the resolved automation profile.
	Automation *profile.AutomationProfile
	// AutomationLevel is the level that named it, or system.
	AutomationLevel string
	// Safety is the resolved safety profile.
	Safety profile.SafetyProfile
	// SafetyLevel is the level it came from: plan, action, project or
	// global.
	SafetyLevel string
	// SafetySource is standalone or composed.
	SafetySource string
	// SafetyFrom names the automation profile a composed safety profile
	// came from; "" for a standalone one.
	SafetyFrom string
}

// Resolve applies the precedence to levels, which must be the four levels
// in order (plan, action, project, global). Only the automation profile
// that wins is looked up: one that does not exist is errs.KindNotFound,
// naming it and the level that named it.
func Resolve(levels []plan.Setting, lookup Lookup) (*Result, error) {
	if err := checkLevels(levels); err != nil {
		return nil, err
	}
	r := &Result{Levels: cloneSettings(levels), AutomationLevel: plan.LevelSystem}
	name := profile.SystemDefault
	var namedBy plan.Setting
	for _, s := range levels {
		if s.AutomationProfile != nil {
			name, r.AutomationLevel, namedBy = *s.AutomationProfile, s.Level, s
			break
		}
	}
	p, err := lookup(name)
	if err != nil {
		return nil, missingProfile(err, name, namedBy)
	}
	r.Automation = p.Clone()

	for _, s := range levels {
		if s.SafetyProfile != nil {
			r.Safety = s.SafetyProfile.Clone()
			r.SafetyLevel = s.Level
			r.SafetySource = plan.SourceStandalone
			return r, nil
		}
	}
	r.Safety = r.Automation.Safety.Clone()
	r.SafetyLevel = r.AutomationLevel
	if r.SafetyLevel == plan.LevelSystem {
		// The system default stands in for a global setting nobody made.
		r.SafetyLevel = plan.LevelGlobal
	}
	r.SafetySource = plan.SourceComposed
	r.SafetyFrom = r.Automation.Name
	return r, nil
}

// Loosened lists the fields on which a standalone safety profile allows
// more than the safety composed in the resolved automation profile, which
// it replaces whole: the limits that profile set and the plan quietly
// loses. It is nil for a composed safety profile, or a standalone one as
// strict on every field.
func (r *Result) Loosened() []profile.Loosening {
	if r.SafetySource != plan.SourceStandalone || r.Automation == nil {
		return nil
	}
	return r.Safety.LooserThan(r.Automation.Safety)
}

// Overridden returns the nearest less specific level with a standalone
// safety profile of its own, which the standalone one resolved overrides
// whole, and the fields on which the resolved one allows more than it:
// the limits that level spelled out and the resolution drops. level is ""
// when no level below the resolved one has a standalone safety profile, or
// the resolved one is composed.
func (r *Result) Overridden() (level string, l []profile.Loosening) {
	if r.SafetySource != plan.SourceStandalone {
		return "", nil
	}
	below := false
	for _, s := range r.Levels {
		switch {
		case s.Level == r.SafetyLevel:
			below = true
		case below && s.SafetyProfile != nil:
			return s.Level, r.Safety.LooserThan(*s.SafetyProfile)
		}
	}
	return "", nil
}

func checkLevels(levels []plan.Setting) error {
	if len(levels) != len(plan.Levels) {
		return errs.New(errs.KindInternal, "resolution needs the %d levels, got %d", len(plan.Levels), len(levels))
	}
	for i, s := range levels {
		if s.Level != plan.Levels[i] {
			return errs.New(errs.KindInternal, "level %d is %q, want %q", i, s.Level, plan.Levels[i])
		}
	}
	return nil
}

// missingProfile explains a failed lookup of the winning automation
// profile: which level named it, and where that level is set.
func missingProfile(err error, name string, by plan.Setting) error {
	if by.Level == "" {
		// The system default itself: a broken build, not the user's doing.
		return errs.Wrap(errs.KindInternal, err, "the system default profile %q", name)
	}
	where := by.Level + " level"
	if by.Source != nil {
		where += " (" + describeSource(by) + ")"
	}
	if errs.Is(err, errs.KindNotFound) {
		source := ""
		if by.Source != nil {
			source = *by.Source
		}
		return errs.NotFound("automation profile %q named at the %s not found", name, where).
			About(errs.AboutLevel, by.Level, source)
	}
	named := fmt.Sprintf("automation profile %q named at the %s", name, where)
	var inner *errs.Error
	if errors.As(err, &inner) {
		// The lookup's own refusal keeps what it says about how to fix
		// it; where it names the profile already, the level is said
		// there, once.
		e := &errs.Error{Kind: inner.Kind, Msg: named + ": " + inner.Error(), Hint: inner.Hint, Subject: inner.Subject, Problems: inner.Problems}
		if rest, ok := strings.CutPrefix(inner.Error(), fmt.Sprintf("automation profile %q ", name)); ok {
			e.Msg = named + " " + rest
		}
		return e
	}
	return errs.Wrap(errs.KindOf(err), err, "%s", named)
}

func describeSource(s plan.Setting) string {
	if s.Level == plan.LevelAction {
		return "action " + *s.Source
	}
	return *s.Source
}

func cloneSettings(in []plan.Setting) []plan.Setting {
	out := make([]plan.Setting, len(in))
	for i, s := range in {
		out[i] = s.Clone()
	}
	return out
}
