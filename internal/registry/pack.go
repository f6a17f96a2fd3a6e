package registry

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/resolve"
	sp "github.com/agentsctl/agents/internal/safetypack"
)

// Pack returns the pack in force, loaded and verified once per registry:
// the shipped pack, or the one the system or the home's configuration
// names. Every decision and every plan is taken under it (Subject,
// DecideHook, Resolve, UsePlan, SetPlanProfile, ShowPlan and CheckPack
// load it before anything else, and VerifyPack without a file), so any
// refusal is a KindSafetyPack error (exit 6) and no other pack stands in.
// A pack loaded under the development override warns about each problem
// of its seal.
func (r *Registry) Pack() (*sp.Loaded, error) {
	if r.pack != nil {
		return r.pack, nil
	}
	allow, ws := r.src.Unratified()
	r.warn(ws...)
	id, err := r.configuredPackID()
	if err != nil {
		return nil, err
	}
	if err := r.packFilesTrusted(id); err != nil {
		return nil, err
	}
	l, err := sp.Load(sp.LoadOptions{Home: r.Home(), PackID: id, AllowUnratified: allow, SystemDir: r.src.SystemDir()})
	if err != nil {
		return nil, err
	}
	for _, p := range l.SealProblems {
		r.warn(fmt.Sprintf("safety pack %s loaded without a valid seal: %s", l.Pack.PackID, p.String()))
	}
	if g, err := r.Global(); err == nil && g.SafetyPack == sp.ShippedPackID {
		if l.Level == sp.LevelSystem {
			// Naming the shipped pack cannot step below the system's: say
			// which pack is in force, rather than let the name seem obeyed.
			r.warn(fmt.Sprintf("%s names the shipped safety pack %s, but this machine's system pack %s is in force: a user's configuration cannot loosen it",
				g.File, sp.ShippedPackID, l.Pack.PackID))
		}
		// The shipped id always means the pack built in: a file of that
		// name in the home (a pack copied and tightened, but not renamed)
		// is never read, which its author must hear.
		if f := shippedIDFile(r.Home()); f != "" {
			r.warn(fmt.Sprintf("%s is not read: the pack id %s always means the pack built into agents; give the pack in it an id of its own (acme_safety_v1), ratify it, and name that id in %s",
				f, sp.ShippedPackID, g.File))
		}
	}
	r.pack = l
	return l, nil
}

// shippedIDFile returns the path of a pack file in the home named after
// the shipped pack, or "" when there is none.
func shippedIDFile(home string) string {
	f := filepath.Join(home, filepath.FromSlash(sp.PacksDir), sp.ShippedPackID+".json")
	if _, err := os.Lstat(f); err != nil {
		return ""
	}
	return f
}

// packFilesTrusted refuses a configured pack that someone other than the
// user could have written: its folder (and packs, the folder above), the
// pack file or its mastery report owned by another user or writable by
// others. Whoever can write them can loosen the pack's boundaries and
// ratify it again, so a seal proves nothing about them. A file that does
// not exist passes here, and is refused as missing when the pack loads.
func (r *Registry) packFilesTrusted(id string) error {
	if id == "" || id == sp.ShippedPackID || sp.CheckPackID(id) != "" {
		return nil
	}
	dir := filepath.Join(r.Home(), filepath.FromSlash(sp.PacksDir))
	fix := func(e *errs.Error) *errs.Error {
		return e.WithHint("make %s and the files in it yours and not writable by others (chown, chmod go-w), then ratify the pack again after reading it; or remove safety_pack from %s to use the shipped pack",
			dir, config.GlobalPath(r.Home()))
	}
	for _, f := range []struct{ path, what string }{
		{dir, "the safety pack folder"},
		{filepath.Join(dir, id+".json"), "the configured safety pack"},
		{filepath.Join(dir, sp.ReportFileName(id)), "the configured safety pack's mastery report"},
	} {
		if err := config.CheckOwnership(f.path, f.what, fix); err != nil {
			// A pack that cannot be trusted is a refused pack, as at the
			// system level: exit 6, code safety_pack.
			var e *errs.Error
			if errors.As(err, &e) && (e.Kind == errs.KindInvalid || e.Kind == errs.KindInternal) {
				e.Kind = errs.KindSafetyPack
			}
			return err
		}
	}
	return nil
}

// configuredPackID names the pack the configuration selects. A bad
// safety_pack value leaves the pack in force undetermined: that is a
// safety pack refusal (exit 6). Any other problem in the file is invalid
// input (exit 3): a misspelt key must never let the shipped pack stand in
// silently for the one meant. The shipped pack's own id always means the
// pack built into the binary.
func (r *Registry) configuredPackID() (string, error) {
	g, err := r.Global()
	if err == nil {
		if g.SafetyPack == sp.ShippedPackID {
			return "", nil
		}
		return g.SafetyPack, nil
	}
	ps := config.ProblemsAt(err, config.KeySafetyPack)
	if len(ps) == 0 {
		return "", err
	}
	return "", &errs.Error{
		Kind:     errs.KindSafetyPack,
		Msg:      "cannot tell which safety pack is in force: " + ps[0].String(),
		Problems: ps,
		Hint:     fmt.Sprintf("set %s in %s to a pack id such as acme_safety_v1, or remove it to use the shipped pack", config.KeySafetyPack, config.GlobalPath(r.Home())),
	}
}

// judgeUnder judges ctx against the boundary predicates of the pack in
// force, warns about each violated boundary in warn mode, and returns the
// verdict: refused when a boundary in enforce mode is violated. The
// context's action, for a plan made from one, is read from the store (a
// removed action is judged as none). A pack without predicates judges
// nothing and reads nothing.
func (r *Registry) judgeUnder(ctx sp.PolicyContext) (sp.PolicyVerdict, error) {
	l, err := r.Pack()
	if err != nil || !l.Pack.HasPredicates() {
		return sp.PolicyVerdict{}, err
	}
	if ctx.Plan != nil && ctx.Plan.Action != "" {
		st, err := r.Store()
		if err != nil {
			return sp.PolicyVerdict{}, err
		}
		a, err := st.Actions().Get(r.ctx(), ctx.Plan.Action)
		switch {
		case err == nil:
			ctx.Action = a
		case !errs.Is(err, errs.KindNotFound):
			return sp.PolicyVerdict{}, err
		}
	}
	v := l.Pack.Judge(ctx)
	r.warn(v.Warnings()...)
	return v, nil
}

// judgeResolution judges a resolution about to be recorded in plan p,
// with p as it will read once recorded and its action. It returns the
// refusal of a store another user could have changed (see trusted), that
// of a violated boundary in enforce mode (exit 6), or nil.
func (r *Registry) judgeResolution(res *resolve.Result, p *plan.Plan, at time.Time) error {
	// A plan records what it was resolved from, and later decisions are
	// taken under that record: it is made from a trusted store or not at
	// all.
	if err := r.trusted(); err != nil {
		return err
	}
	return r.judgePlan(res, p, at)
}

// judgePlan judges what res would record in p at the time at against the
// boundary predicates of the pack in force.
func (r *Registry) judgePlan(res *resolve.Result, p *plan.Plan, at time.Time) error {
	l, err := r.Pack()
	if err != nil || !l.Pack.HasPredicates() {
		return err
	}
	candidate := *p
	if _, err := res.Apply(&candidate, at); err != nil {
		return err
	}
	v, err := r.judgeUnder(sp.PolicyContext{Profile: res.Automation, Safety: res.Safety.Clone(), Plan: &candidate})
	if err != nil {
		return err
	}
	return v.Err()
}

// VerifyPack checks the seal of the pack file, or, without one, of the
// pack in force (as every command that loads it does, including that a
// configured pack keeps every shipped boundary). inForce says which.
func (r *Registry) VerifyPack(file string) (l *sp.Loaded, inForce bool, err error) {
	if file != "" {
		l, err := sp.VerifyFile(file)
		return l, false, err
	}
	l, err = r.Pack()
	if err == nil && !l.Ratified {
		// Loaded under the override: verify still answers the question it
		// is asked.
		return nil, true, l.SealError()
	}
	return l, true, err
}

// RatifyPack seals the pack file with its mastery report. A pack that
// lacks a shipped boundary seals fine but will never load as the pack in
// force: better to hear it now, as a warning, than as a refusal later.
func (r *Registry) RatifyPack(file string) (*sp.RatifyResult, error) {
	res, err := sp.RatifyFile(file)
	if err != nil {
		return nil, err
	}
	r.warn(res.Warnings...)
	if res.Pack.PackID == sp.ShippedPackID && sameFile(file, shippedIDFile(r.Home())) {
		r.warn(fmt.Sprintf("pack id %s is the shipped pack's: a configured safety_pack of that id always means the pack built into agents, so %s will never be read; give it an id of its own (acme_safety_v1)",
			sp.ShippedPackID, file))
	}
	if shipped, err := sp.LoadShipped(nil, false); err == nil {
		if missing := sp.MissingBoundaries(res.Pack, shipped.Pack); len(missing) > 0 {
			r.warn(fmt.Sprintf("pack %s lacks %s of the shipped pack; it will be refused if configured", res.Pack.PackID, strings.Join(missing, ", ")))
		}
	}
	return res, nil
}

// sameFile reports whether a and b name one existing file.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
