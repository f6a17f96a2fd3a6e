package cmdutil

import (
	"os"
	"path/filepath"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/resolve"
	sp "github.com/agentsctl/agents/internal/safetypack"
)

// ResolveEnv returns where resolution reads its levels in this
// invocation: the store, profiles by name (built-in or stored), and the
// global configuration in the home, as read once.
func ResolveEnv(deps *Deps) (resolve.Env, error) {
	st, err := deps.Store()
	if err != nil {
		return resolve.Env{}, err
	}
	g, err := deps.Global()
	if err != nil {
		return resolve.Env{}, err
	}
	return resolve.Env{Ctx: deps.Ctx(), Store: st, Lookup: deps.LookupProfile, Home: deps.Config.Home, Global: g}, nil
}

// LookupPlan returns the stored plan with the given id. An id that cannot
// be a plan's is not found, with the reason, as for profile names.
func LookupPlan(deps *Deps, id string) (*plan.Plan, error) {
	if why := plan.CheckID(id); why != "" {
		return nil, errs.NotFound("plan %q not found: the id %s", id, why).
			WithHint("run 'agents plan list' to see the plans")
	}
	st, err := deps.Store()
	if err != nil {
		return nil, err
	}
	return st.GetPlan(deps.Ctx(), id)
}

// OwnSetting returns what a command's --automation-profile and
// --safety-profile flags set at the plan level: a profile name, and the
// content of a standalone safety profile file (never its path).
func OwnSetting(automationProfile, safetyProfileFile string) (plan.Setting, error) {
	own := plan.Setting{Level: plan.LevelPlan}
	if automationProfile != "" {
		own.AutomationProfile = &automationProfile
	}
	if safetyProfileFile != "" {
		s, _, err := profile.LoadSafetyProfile(safetyProfileFile)
		if err != nil {
			return own, err
		}
		own.SafetyProfile = &s
	}
	return own, nil
}

// ProjectDir returns the absolute folder where the search for agents.yaml
// starts: dir when given (--project), else the working directory.
func ProjectDir(dir string) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", errs.Wrap(errs.KindInternal, err, "cannot tell the working directory").
				WithHint("pass --project DIR")
		}
		return wd, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", errs.Wrap(errs.KindUsage, err, "bad project folder %q", dir)
	}
	return abs, nil
}

// WarnLoosened warns on stderr when a plan's (or a resolution's)
// standalone safety profile is looser than the safety composed in its
// automation profile, which it replaces whole: the limits that profile set
// would otherwise be lost without a word.
func WarnLoosened(deps *Deps, p *plan.Plan, loosened []profile.Loosening) {
	if s := render.LoosenedSummary(p, loosened); s != "" {
		deps.Warn("%s", s)
	}
}

// RecordedLoosened returns what a recorded plan's standalone safety
// profile drops of the safety composed in the automation profile it
// recorded (read from the snapshot the store keeps), or nil. A snapshot
// that cannot be read leaves the question open: nil, and the caller's
// other checks (drift) speak of it.
func RecordedLoosened(deps *Deps, p *plan.Plan) []profile.Loosening {
	if p.SafetyProfile.Source != plan.SourceStandalone {
		return nil
	}
	st, err := deps.Store()
	if err != nil {
		return nil
	}
	ap, safety, err := resolve.Recorded(deps.Ctx(), st, p, deps.LookupProfile)
	if err != nil {
		return nil
	}
	return safety.LooserThan(ap.Safety)
}

// JudgeResolution judges a resolution about to be recorded in plan p
// against the boundary predicates of the pack in force, with p as it will
// read once recorded and its action. It returns the refusal of a violated
// boundary in enforce mode (exit 6), or nil; boundaries in warn mode are
// warned about on stderr. Only a pack with predicates reads anything.
func JudgeResolution(deps *Deps, r *resolve.Result, p *plan.Plan, at time.Time) error {
	l, err := deps.PackInForce()
	if err != nil || !l.Pack.HasPredicates() {
		return err
	}
	candidate := *p
	if _, err := r.Apply(&candidate, at); err != nil {
		return err
	}
	ctx := sp.PolicyContext{Profile: r.Automation, Safety: r.Safety.Clone(), Plan: &candidate}
	if p.Action != "" {
		st, err := deps.Store()
		if err != nil {
			return err
		}
		a, err := st.GetAction(deps.Ctx(), p.Action)
		switch {
		case err == nil:
			ctx.Action = a
		case !errs.Is(err, errs.KindNotFound):
			return err
		}
	}
	v, err := deps.Judge(ctx)
	if err != nil {
		return err
	}
	return v.Err()
}
