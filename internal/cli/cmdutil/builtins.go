package cmdutil

import (
	"embed"
	"io/fs"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/profiles"
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
// fsys (builtin/<name>.yaml). From the files embedded in the binary it
// returns the values compiled in beside them, which are what those files
// decode to (a test in package profiles holds them to it), without parsing.
func LoadBuiltin(fsys fs.FS, name string) (*profile.AutomationProfile, error) {
	if efs, ok := fsys.(embed.FS); ok && efs == profiles.Builtin {
		if p := profiles.Decoded(name); p != nil {
			return p, nil
		}
	}
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
