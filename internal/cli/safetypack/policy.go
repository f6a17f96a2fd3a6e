package safetypack

import (
	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/resolve"
	sp "github.com/agentsctl/agents/internal/safetypack"
)

// The functions below build the context a pack's boundary predicates
// judge, for each kind of decision, and judge it. A decision command
// loads the pack in force (LoadInForce), builds the context of what it
// decides, calls Judge, and refuses with the verdict's Err when it is not
// nil (its rule is verdict.Rule()).

// ProfilePolicy is the context of a decision under a named automation
// profile alone: the profile, its composed safety profile, no plan and no
// action.
func ProfilePolicy(p *profile.AutomationProfile) sp.PolicyContext {
	return sp.PolicyContext{Profile: p, Safety: p.Safety.Clone()}
}

// ResolutionPolicy is the context of a resolution (plan use, resolve,
// set-automation-profile): the resolved automation profile, the safety
// profile in force (standalone or composed), and the plan and action when
// there are some (nil otherwise).
func ResolutionPolicy(r *resolve.Result, p *plan.Plan, a *action.Action) sp.PolicyContext {
	return sp.PolicyContext{Profile: r.Automation, Safety: r.Safety.Clone(), Plan: p, Action: a}
}

// PlanPolicy is the context of a decision taken for a recorded plan: the
// automation profile and the safety profile it recorded (from the
// snapshot the store keeps), the plan, and the action it was made from
// when the store still holds it (nil when it was removed since).
func PlanPolicy(deps *cmdutil.Deps, p *plan.Plan) (sp.PolicyContext, error) {
	st, err := deps.Store()
	if err != nil {
		return sp.PolicyContext{}, err
	}
	ap, safety, err := resolve.Recorded(deps.Ctx(), st, p, deps.LookupProfile)
	if err != nil {
		return sp.PolicyContext{}, err
	}
	ctx := sp.PolicyContext{Profile: ap, Safety: safety, Plan: p}
	if p.Action != "" {
		a, err := st.Actions().Get(deps.Ctx(), p.Action)
		switch {
		case err == nil:
			ctx.Action = a
		case !errs.Is(err, errs.KindNotFound):
			return sp.PolicyContext{}, err
		}
	}
	return ctx, nil
}

// Judge evaluates the boundary predicates of the pack in force against
// ctx, warns on stderr about each violated boundary in warn mode, and
// returns the verdict. verdict.Err() is the refusal of a violated
// boundary in enforce mode (exit 6), nil when the decision may proceed;
// verdict.Rule() names it (pack.<boundary_id>).
func Judge(deps *cmdutil.Deps, l *sp.Loaded, ctx sp.PolicyContext) sp.PolicyVerdict {
	v := l.Pack.Judge(ctx)
	deps.WarnAll(v.Warnings())
	return v
}
