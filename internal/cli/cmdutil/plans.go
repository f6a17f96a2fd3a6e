package cmdutil

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/resolve"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/suggest"
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

// LookupPlan returns the stored plan with the given id or, as git takes
// commit ids, any prefix of an id that only one stored plan's id begins
// with (letters in either case). A prefix that several ids begin with is a
// usage error listing them; an id or prefix that no plan has is not found,
// with the nearest id when one is close.
func LookupPlan(deps *Deps, id string) (*plan.Plan, error) {
	st, err := deps.Store()
	if err != nil {
		return nil, err
	}
	full, err := planID(deps, strings.ToLower(id), id)
	if err != nil {
		return nil, err
	}
	p, err := st.Plans().Get(deps.Ctx(), full)
	if errs.Is(err, errs.KindNotFound) {
		if ids, lerr := st.Plans().Names(deps.Ctx(), store.Query{}); lerr == nil {
			return nil, errs.DidYouMean(err, nearestID(full, ids))
		}
	}
	return p, err
}

// maxCandidates is how many ids an ambiguous prefix lists.
const maxCandidates = 5

// planID returns the id of the one stored plan that id (lower-cased, as
// typed) is or begins.
func planID(deps *Deps, id, typed string) (string, error) {
	if id == "" {
		return "", errs.Usage("the plan id is empty").WithHint("run 'agents plan list' to see the plans")
	}
	if len(id) > plan.IDLength || !plan.IsIDPrefix(id) {
		why := plan.CheckID(id)
		if why == "" {
			why = "must be 26 characters of the plan id alphabet (0-9 and lower-case letters except i, l, o, u), or the start of one"
		}
		return "", errs.NotFound("plan %q not found: the id %s", typed, why).
			WithHint("run 'agents plan list' to see the plans")
	}
	if len(id) == plan.IDLength {
		if why := plan.CheckID(id); why != "" {
			return "", errs.NotFound("plan %q not found: the id %s", typed, why).
				WithHint("run 'agents plan list' to see the plans")
		}
		return id, nil
	}
	st, err := deps.Store()
	if err != nil {
		return "", err
	}
	ids, err := st.Plans().Names(deps.Ctx(), store.Query{})
	if err != nil {
		return "", err
	}
	var matches []string
	for _, c := range ids {
		if strings.HasPrefix(c, id) {
			matches = append(matches, c)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		e := errs.NotFound("plan %q not found", typed).WithHint("run 'agents plan list' to see the plans")
		return "", errs.DidYouMean(e, nearestID(id, ids))
	}
	shown := matches[:min(len(matches), maxCandidates)]
	more := ""
	if n := len(matches) - len(shown); n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	return "", errs.Usage("plan id %q is ambiguous: %d plans begin with it", typed, len(matches)).
		WithHint("give more of the id: %s%s", strings.Join(shown, ", "), more)
}

// nearestID is the stored id nearest to a mistyped id or prefix: a typing
// slip in its first characters, or in the whole id.
func nearestID(id string, ids []string) string {
	if len(id) < 4 {
		return ""
	}
	cut := make([]string, len(ids))
	for i, c := range ids {
		cut[i] = c[:min(len(id), len(c))]
	}
	s := suggest.Name(id, cut)
	if s == "" {
		return ""
	}
	return suggest.Unique(ids, func(c string) bool { return strings.HasPrefix(c, s) })
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
		a, err := st.Actions().Get(deps.Ctx(), p.Action)
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
