package cmdutil

import (
	"fmt"

	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/errs"
	sp "github.com/agentsctl/agents/internal/safetypack"
)

// EnvAllowUnratified is the environment variable that, set to exactly "1",
// lets an unratified or tampered pack load while it is being authored.
const EnvAllowUnratified = "AGENTS_ALLOW_UNRATIFIED_SAFETY"

// EnvSeedAllowUnratified is the override's name in the specification the
// safety pack comes from. agents does not read it; set, it earns a warning
// naming the variable that counts.
const EnvSeedAllowUnratified = "CORE_ALLOW_UNRATIFIED_SAFETY"

// Global returns the home's config.yaml, decoded strictly, read at most
// once per invocation. A missing file is an empty configuration.
func (d *Deps) Global() (*config.Global, error) {
	if d.global != nil {
		return d.global, nil
	}
	if err := d.EnsureConfig(); err != nil {
		return nil, err
	}
	var g *config.Global
	var err error
	switch {
	case d.Config.Global != nil:
		g = d.Config.Global
	case !d.Config.GlobalRead:
		g, err = config.LoadGlobal(d.Config.Home)
	case d.Config.GlobalData == nil:
		g = &config.Global{}
	default:
		g, err = config.DecodeGlobal(d.Config.GlobalData, config.GlobalPath(d.Config.Home))
	}
	if err != nil {
		return nil, err
	}
	d.global = g
	return g, nil
}

// PackInForce loads and verifies the pack in force, once per invocation:
// the shipped pack, or the one config.yaml names. Every decision and every
// plan is taken under it, so any refusal is a KindSafetyPack error (exit 6)
// and no other pack stands in. The override comes from the environment
// only, counts only when exactly "1", is announced on stderr every time it
// is in effect, and never applies in hook mode: a hook decides for an
// agent nobody is watching.
func (d *Deps) PackInForce() (*sp.Loaded, error) {
	if d.pack != nil {
		return d.pack, nil
	}
	allow := d.allowUnratified()
	id, err := d.configuredPackID()
	if err != nil {
		return nil, err
	}
	l, err := sp.Load(sp.LoadOptions{Home: d.Config.Home, PackID: id, AllowUnratified: allow, SystemDir: sp.SystemDir})
	if err != nil {
		return nil, err
	}
	for _, p := range l.SealProblems {
		d.Warn("safety pack %s loaded without a valid seal: %s", l.Pack.PackID, p.String())
	}
	d.pack = l
	return l, nil
}

// configuredPackID names the pack the configuration selects. A bad
// safety_pack value leaves the pack in force undetermined: that is a
// safety pack refusal (exit 6). Any other problem in the file is invalid
// input (exit 3): a misspelt key must never let the shipped pack stand in
// silently for the one meant. The shipped pack's own id always means the
// pack built into the binary.
func (d *Deps) configuredPackID() (string, error) {
	g, err := d.Global()
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
	home := d.Config.Home
	return "", &errs.Error{
		Kind:     errs.KindSafetyPack,
		Msg:      "cannot tell which safety pack is in force: " + ps[0].String(),
		Problems: ps,
		Hint:     fmt.Sprintf("set %s in %s to a pack id such as acme_safety_v1, or remove it to use the shipped pack", config.KeySafetyPack, config.GlobalPath(home)),
	}
}

// allowUnratified reports whether the override is in effect, warning
// whenever the variable is set.
func (d *Deps) allowUnratified() bool {
	if v := d.Getenv(EnvSeedAllowUnratified); v != "" {
		d.Warn("%s is not read by agents; the development override is %s=1", EnvSeedAllowUnratified, EnvAllowUnratified)
	}
	v := d.Getenv(EnvAllowUnratified)
	switch {
	case v == "":
		return false
	case d.HookMode:
		d.Warn("%s is ignored by a hook: a hook decides only under a ratified pack", EnvAllowUnratified)
		return false
	case v == "1":
		d.Warn("%s=1: safety pack seals are not enforced; use this only while authoring a pack", EnvAllowUnratified)
		return true
	}
	d.Warn("%s=%q is ignored: only the value 1 turns the override on", EnvAllowUnratified, v)
	return false
}

// Judge judges ctx against the boundary predicates of the pack in force,
// warns on stderr about each violated boundary in warn mode, and returns
// the verdict: Refused when a boundary in enforce mode is violated, with
// Rule naming it (pack.<boundary_id>). A pack without predicates judges
// nothing and refuses nothing.
func (d *Deps) Judge(ctx sp.PolicyContext) (sp.PolicyVerdict, error) {
	l, err := d.PackInForce()
	if err != nil {
		return sp.PolicyVerdict{}, err
	}
	if !l.Pack.HasPredicates() {
		return sp.PolicyVerdict{PackID: l.Pack.PackID}, nil
	}
	v := l.Pack.Judge(ctx)
	d.WarnAll(v.Warnings())
	return v, nil
}

// WarnAll writes each warning on stderr.
func (d *Deps) WarnAll(warnings []string) {
	for _, w := range warnings {
		d.Warn("%s", w)
	}
}
