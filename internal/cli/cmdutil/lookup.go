package cmdutil

import (
	"strings"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/suggest"
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
// A single well-formed word that is not a built-in is not found (most likely
// a custom name without its namespace); any other name that is not a valid
// namespace/name is invalid input; a valid name that is not stored is not
// found.
//
// A name that is not found, or not a name, suggests the nearest built-in or
// stored one.
func (d *Deps) LookupProfile(name string) (*profile.AutomationProfile, error) {
	if profile.IsBuiltinName(name) {
		return d.builtinProfile(name)
	}
	if err := CheckProfileArg(name); err != nil {
		return nil, errs.DidYouMean(err, suggest.Name(name, d.profileCandidates()))
	}
	st, err := d.Store()
	if err != nil {
		return nil, err
	}
	p, err := st.Profiles().Get(d.Ctx(), name)
	if errs.Is(err, errs.KindNotFound) {
		return nil, errs.DidYouMean(err, suggest.Name(name, d.profileCandidates()))
	}
	return p, err
}

// CheckProfileArg checks a custom profile name given on the command line:
// a single well-formed word is not found (the built-ins are the only bare
// names), anything else that is not a valid namespace/name is invalid.
func CheckProfileArg(name string) error {
	if lower := strings.ToLower(name); lower != name &&
		(profile.IsBuiltinName(lower) || profile.CheckCustomName(lower) == "") {
		return errs.Invalid("invalid name %q: profile names are lower case", name)
	}
	if !strings.Contains(name, "/") && profile.CheckLabel(name) == "" {
		return errs.NotFound("profile %q not found", name).
			WithHint("the built-in profiles are %s; custom profiles are named namespace/name",
				strings.Join(profile.BuiltinNames, ", "))
	}
	if why := profile.CheckCustomName(name); why != "" {
		return errs.Invalid("invalid name: %s", why).
			WithHint("profile names are built-in names or namespace/name, in lower case")
	}
	return nil
}
