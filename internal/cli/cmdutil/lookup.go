package cmdutil

import (
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

// BuiltinProfiles returns the built-in profiles, decoded once per invocation; each
// call returns fresh copies.
func (d *Deps) BuiltinProfiles() ([]*profile.AutomationProfile, error) {
	if d.builtins == nil {
		bs, err := LoadBuiltins(d.Builtins)
		if err != nil {
			return nil, err
		}
		d.builtins = bs
	}
	out := make([]*profile.AutomationProfile, len(d.builtins))
	for i, p := range d.builtins {
		out[i] = p.Clone()
	}
	return out, nil
}

// LookupProfile returns the built-in or custom profile with the given name.
// A name that is neither a built-in nor a valid namespace/name is invalid
// input; a valid name that is not stored is not found.
func (d *Deps) LookupProfile(name string) (*profile.AutomationProfile, error) {
	if profile.IsBuiltinName(name) {
		bs, err := d.BuiltinProfiles()
		if err != nil {
			return nil, err
		}
		for _, p := range bs {
			if p.Name == name {
				return p, nil
			}
		}
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
