package safetypack

import (
	"slices"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/store"
)

// PlanContext supplies the evidence of no_fabricated_source for a plan:
// the digests it cites (its automation profile's snapshot and its safety
// profile's) and those the registry can vouch for.
//
// The automation profile's digest is allowed when it is a built-in's (as
// embedded) or a version the store has written under that name, found in
// the profile's history: a plan edited to cite a version that never was,
// or another profile's, is caught. The safety profile is not a registry
// entry; its digest is allowed when the store holds the snapshot the plan
// recorded under it.
func PlanContext(id string) ContextBuilder {
	return ContextBuilder{Name: "plan " + id, Build: func(deps *cmdutil.Deps) (*sp.Context, error) {
		p, err := cmdutil.LookupPlan(deps, id)
		if err != nil {
			return nil, err
		}
		st, err := deps.Store()
		if err != nil {
			return nil, err
		}
		allowed, err := builtinDigests(deps)
		if err != nil {
			return nil, err
		}
		if name := p.AutomationProfile.Name; !profile.IsBuiltinName(name) {
			h, err := st.Profiles().History(deps.Ctx(), name)
			if err != nil && !errs.Is(err, errs.KindNotFound) {
				return nil, err
			}
			for _, e := range h {
				if e.Event == store.EventPut && !slices.Contains(allowed, e.Digest) {
					allowed = append(allowed, e.Digest)
				}
			}
		}
		ok, err := st.HasObject(deps.Ctx(), p.SafetyProfile.SHA256)
		if err != nil {
			return nil, err
		}
		if ok && !slices.Contains(allowed, p.SafetyProfile.SHA256) {
			allowed = append(allowed, p.SafetyProfile.SHA256)
		}
		return &sp.Context{CitedSourceSHAs: p.Digests(), AllowedSourceSHAs: allowed}, nil
	}}
}

// builtinDigests returns the digest of each built-in profile as embedded:
// the digest a plan records for its snapshot.
func builtinDigests(deps *cmdutil.Deps) ([]string, error) {
	bs, err := cmdutil.LoadBuiltins(deps.Builtins)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(bs))
	for _, b := range bs {
		data, _, err := profile.Encode(b)
		if err != nil {
			return nil, errs.Wrap(errs.KindInternal, err, "built-in profile %s", b.Name)
		}
		out = append(out, canon.Digest(data))
	}
	return out, nil
}
