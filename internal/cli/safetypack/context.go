package safetypack

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/safetypack/jcs"
)

// ContextBuilder supplies the part of a safety check's context that one
// source of state can prove. check runs its builders in order and merges
// what they return; a new source (a plan, the profile history) is a new
// builder.
type ContextBuilder struct {
	// Name says where the evidence comes from.
	Name string
	// Build returns the fields this source supplies; the rest stay nil.
	Build func(deps *cmdutil.Deps) (*sp.Context, error)
}

// FileContext reads the context from a JSON file with Context's field
// names: exactly the fields the file holds. A missing file is not found;
// a malformed one is invalid input.
func FileContext(file string) ContextBuilder {
	return ContextBuilder{Name: "file " + file, Build: func(*cmdutil.Deps) (*sp.Context, error) {
		info, err := os.Stat(file)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, errs.NotFound("context file %s not found", file)
		case err != nil:
			return nil, errs.Wrap(errs.KindInternal, err, "cannot read context file %s", file)
		case !info.Mode().IsRegular():
			return nil, errs.Invalid("context file %s is not a regular file", file)
		case info.Size() > sp.MaxFileSize:
			return nil, errs.Invalid("context file %s is %d bytes; at most %d are read", file, info.Size(), sp.MaxFileSize)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, errs.Wrap(errs.KindInternal, err, "cannot read context file %s", file)
		}
		return sp.ParseContext(data, file)
	}}
}

// BuiltinIdentityContext supplies the identity hashes: "before" is the
// hash of the built-in profiles decoded straight from the files embedded in
// the binary, "after" the hash of what a lookup by each built-in name
// serves. Both hash the same canonical form (RFC 8785 of a name → profile
// object), so any difference means a built-in is served other than it
// ships. The store cannot hold a bare built-in name, so today a difference
// can only come from how built-ins are loaded and copied; the check keeps
// that promise honest as the code around it grows.
func BuiltinIdentityContext() ContextBuilder {
	return ContextBuilder{Name: "built-in identity", Build: func(deps *cmdutil.Deps) (*sp.Context, error) {
		before, err := embeddedBuiltinsHash(deps.Builtins)
		if err != nil {
			return nil, err
		}
		after, err := servedBuiltinsHash(deps)
		if err != nil {
			return nil, err
		}
		return &sp.Context{IdentityManifoldHashBefore: &before, IdentityManifoldHashAfter: &after}, nil
	}}
}

// embeddedBuiltinsHash hashes every builtin/*.yaml in fsys, decoded, by
// the name its file gives it.
func embeddedBuiltinsHash(fsys fs.FS) (string, error) {
	files, err := fs.Glob(fsys, "builtin/*.yaml")
	if err != nil {
		return "", errs.Wrap(errs.KindInternal, err, "cannot list the built-in profiles")
	}
	sort.Strings(files)
	set := map[string]*profile.AutomationProfile{}
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return "", errs.Wrap(errs.KindInternal, err, "cannot read built-in profile %s", f)
		}
		p, _, err := profile.DecodeProfile(data, f)
		if err != nil {
			return "", errs.Wrap(errs.KindInternal, err, "built-in profile %s", f)
		}
		set[strings.TrimSuffix(path.Base(f), ".yaml")] = p
	}
	return hashProfiles(set)
}

// servedBuiltinsHash hashes what a lookup by each built-in name returns.
func servedBuiltinsHash(deps *cmdutil.Deps) (string, error) {
	set := map[string]*profile.AutomationProfile{}
	for _, name := range profile.BuiltinNames {
		p, err := deps.LookupProfile(name)
		if err != nil {
			return "", err
		}
		set[name] = p
	}
	return hashProfiles(set)
}

func hashProfiles(set map[string]*profile.AutomationProfile) (string, error) {
	b, err := jcs.Marshal(set)
	if err != nil {
		return "", errs.Wrap(errs.KindInternal, err, "cannot encode the built-in profiles")
	}
	return sha256Hex(b), nil
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
