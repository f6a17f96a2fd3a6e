package cmdutil

import (
	"io/fs"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

// LoadBuiltins decodes the built-in profiles from fsys (builtin/<name>.yaml),
// in the specification's order.
func LoadBuiltins(fsys fs.FS) ([]*profile.AutomationProfile, error) {
	out := make([]*profile.AutomationProfile, 0, len(profile.BuiltinNames))
	for _, name := range profile.BuiltinNames {
		p, err := LoadBuiltin(fsys, name)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// LoadBuiltin decodes the one built-in profile with the given name from
// fsys (builtin/<name>.yaml).
func LoadBuiltin(fsys fs.FS, name string) (*profile.AutomationProfile, error) {
	path := "builtin/" + name + ".yaml"
	data, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "built-in profile %s", name)
	}
	p, _, err := profile.DecodeProfile(data, path)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "built-in profile %s", name)
	}
	if p.Name != name {
		return nil, errs.New(errs.KindInternal, "built-in profile %s holds the name %q", path, p.Name)
	}
	return p, nil
}
