package cmdutil

import (
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/resolve"
)

// ResolveEnv returns where resolution reads its levels in this
// invocation: the store, profiles by name (built-in or stored), and the
// global configuration in the home.
func ResolveEnv(deps *Deps) (resolve.Env, error) {
	st, err := deps.Store()
	if err != nil {
		return resolve.Env{}, err
	}
	return resolve.Env{Ctx: deps.Ctx(), Store: st, Lookup: deps.LookupProfile, Home: deps.Config.Home}, nil
}

// LookupPlan returns the stored plan with the given id. An id that cannot
// be a plan's is not found, with the reason, as for profile names.
func LookupPlan(deps *Deps, id string) (*plan.Plan, error) {
	if why := plan.CheckID(id); why != "" {
		return nil, errs.NotFound("plan %q not found: the id %s", id, why).
			WithHint("run 'agents plan list' to see the plans")
	}
	st, err := deps.Store()
	if err != nil {
		return nil, err
	}
	return st.GetPlan(deps.Ctx(), id)
}
