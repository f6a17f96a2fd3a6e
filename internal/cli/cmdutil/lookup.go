package cmdutil

import (
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

// BuiltinProfiles returns the built-in profiles in the specification's
// order, each decoded at most once per invocation; each call returns fresh
// copies.
func (d *Deps) BuiltinProfiles() ([]*profile.AutomationProfile, error) {
	out := make([]*profile.AutomationProfile, 0, len(profile.BuiltinNames))
	for _, name := range profile.BuiltinNames {
		p, err := d.builtinProfile(name)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// builtinProfile returns a fresh copy of the named built-in. Only the
// built-ins a command asks for are decoded: a lookup by name, which agent
// hooks make on every tool call, decodes one file, not eight.
func (d *Deps) builtinProfile(name string) (*profile.AutomationProfile, error) {
	p, ok := d.builtins[name]
	if !ok {
		var err error
		if p, err = LoadBuiltin(d.Builtins, name); err != nil {
			return nil, err
		}
		if d.builtins == nil {
			d.builtins = map[string]*profile.AutomationProfile{}
		}
		d.builtins[name] = p
	}
	return p.Clone(), nil
}

// LookupProfile returns the built-in or custom profile with the given name.
// A name that is neither a built-in nor a valid namespace/name is invalid
// input; a valid name that is not stored is not found.
func (d *Deps) LookupProfile(name string) (*profile.AutomationProfile, error) {
	if profile.IsBuiltinName(name) {
		return d.builtinProfile(name)
	}
	if why := profile.CheckCustomName(name); why != "" {
		return nil, errs.NotFound("profile %q not found: %s", name, why).
			WithHint("run 'agents automation-profile list' to see the profiles")
	}
	st, err := d.Store()
	if err != nil {
		return nil, err
	}
	return st.GetProfile(d.Ctx(), name)
}
