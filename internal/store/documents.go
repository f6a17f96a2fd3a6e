package store

import (
	"context"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
)

// ActionQuery selects actions by name before any is parsed.
type ActionQuery struct {
	// Namespace keeps only names in this namespace when not empty. It must
	// be a valid namespace label.
	Namespace string
	// Match keeps only names for which it returns true when not nil.
	Match func(name string) bool
}

func (q ActionQuery) check() error {
	return ProfileQuery{Namespace: q.Namespace}.check()
}

func (q ActionQuery) filter() nameFilter {
	return nameFilter{namespace: q.Namespace, match: q.Match}
}

// ActionList is the result of listing actions: those that parsed, sorted by
// name, and the problems of each stored file that did not.
type ActionList struct {
	Actions  []*action.Action
	Problems []errs.Problem
}

// ActionPutResult says what a put of an action did.
type ActionPutResult struct {
	// Stored is the action as stored: what a later get returns.
	Stored *action.Action
	// Replaced is the previous version when the put replaced a readable
	// one, else nil.
	Replaced *action.Action
	// Unchanged reports an update whose content is what is stored
	// already: nothing was written.
	Unchanged bool
}

// PlanList is the result of listing plans: those that parsed, in creation
// order, and the problems of each stored file that did not.
type PlanList struct {
	Plans    []*plan.Plan
	Problems []errs.Problem
}

func actionNotFound(name string) error {
	return errs.NotFound("action %q not found", name).
		WithHint("run 'agents action list' to see the actions")
}

func actionConflict(name string) error {
	return errs.Conflict("action %q already exists", name).
		WithHint("pass --update to replace it")
}

func planNotFound(id string) error {
	return errs.NotFound("plan %s not found", id).
		WithHint("run 'agents plan list' to see the plans")
}

func planConflict(id string) error {
	return errs.Conflict("plan %s already exists", id)
}

// actionKind is how the file store keeps actions:
// actions/<namespace>/<name>.yaml. Actions keep no history: nothing cites
// an action by digest.
var actionKind = &docKind[*action.Action]{
	noun:     "action",
	dir:      "actions",
	nested:   true,
	validate: action.ValidateName,
	decode:   action.Decode,
	encode:   action.Encode,
	nameOf:   func(a *action.Action) string { return a.Name },
	notFound: actionNotFound,
	conflict: actionConflict,
}

// planKind is how the file store keeps plans: plans/<id>.yaml. An id sorts
// as its creation time, so the name order of a listing is creation order.
var planKind = &docKind[*plan.Plan]{
	noun:     "plan",
	dir:      "plans",
	validate: plan.ValidateID,
	decode:   plan.Decode,
	encode:   plan.Encode,
	nameOf:   func(p *plan.Plan) string { return p.ID },
	notFound: planNotFound,
	conflict: planConflict,
}

// GetAction implements Store.
func (s *fileStore) GetAction(ctx context.Context, name string) (*action.Action, error) {
	return getDoc(ctx, s, actionKind, name)
}

// ListActions implements Store.
func (s *fileStore) ListActions(ctx context.Context, q ActionQuery) (ActionList, error) {
	if err := q.check(); err != nil {
		return ActionList{}, err
	}
	as, problems, err := listDocs(ctx, s, actionKind, q.filter())
	return ActionList{Actions: as, Problems: problems}, err
}

// ListActionNames implements Store.
func (s *fileStore) ListActionNames(ctx context.Context, q ActionQuery) ([]string, error) {
	if err := q.check(); err != nil {
		return nil, err
	}
	return listNames(ctx, s, actionKind, q.filter())
}

// PutAction implements Store.
func (s *fileStore) PutAction(ctx context.Context, a *action.Action, update bool) (ActionPutResult, error) {
	if a == nil {
		return ActionPutResult{}, errs.Invalid("no action to store")
	}
	out, err := putDoc(ctx, s, actionKind, a, update)
	if err != nil {
		return ActionPutResult{}, err
	}
	return ActionPutResult{Stored: out.stored, Replaced: out.replaced, Unchanged: out.unchanged}, nil
}

// RemoveAction implements Store.
func (s *fileStore) RemoveAction(ctx context.Context, name string) (*action.Action, error) {
	// Actions keep no history, so a removal has nothing to warn about.
	a, _, err := removeDoc(ctx, s, actionKind, name)
	return a, err
}

// GetPlan implements Store.
func (s *fileStore) GetPlan(ctx context.Context, id string) (*plan.Plan, error) {
	return getDoc(ctx, s, planKind, id)
}

// ListPlans implements Store.
func (s *fileStore) ListPlans(ctx context.Context) (PlanList, error) {
	ps, problems, err := listDocs(ctx, s, planKind, nameFilter{})
	return PlanList{Plans: ps, Problems: problems}, err
}

// ListPlanIDs implements Store.
func (s *fileStore) ListPlanIDs(ctx context.Context) ([]string, error) {
	return listNames(ctx, s, planKind, nameFilter{})
}

// PutPlan implements Store.
func (s *fileStore) PutPlan(ctx context.Context, p *plan.Plan, update bool) (*plan.Plan, error) {
	if p == nil {
		return nil, errs.Invalid("no plan to store")
	}
	out, err := putDoc(ctx, s, planKind, p, update)
	if err != nil {
		return nil, err
	}
	return out.stored, nil
}
