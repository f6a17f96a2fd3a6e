package registry

import (
	"errors"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/suggest"
)

// Action returns the stored action with the given name. A name that cannot
// be an action's is not found, with the reason; a name not stored is not
// found; either suggests the nearest stored name.
func (r *Registry) Action(name string) (*action.Action, error) {
	if err := checkActionName(name); err != nil {
		return nil, errs.DidYouMean(err, r.NearestAction(name))
	}
	st, err := r.Store()
	if err != nil {
		return nil, err
	}
	a, err := st.Actions().Get(r.ctx(), name)
	if errs.Is(err, errs.KindNotFound) {
		return nil, errs.DidYouMean(err, r.NearestAction(name))
	}
	return a, err
}

// NearestAction returns the stored action name nearest to name, or "" (also
// when the store cannot be read).
func (r *Registry) NearestAction(name string) string {
	st, err := r.Store()
	if err != nil {
		return ""
	}
	names, _ := st.Actions().Names(r.ctx(), store.Query{})
	return suggest.Name(name, names)
}

// ListActions returns the actions q selects, by name. Each stored document
// that cannot be read is a warning; the others still list.
func (r *Registry) ListActions(q store.Query) ([]*action.Action, error) {
	out, err := list(r, store.Store.Actions, q)
	if err == nil && len(out) == 0 {
		noneInNamespace(r, store.Store.Actions, q.Namespace, "action")
	}
	return out, err
}

// AddAction registers a, read from file: the automation profile it names,
// if any, must exist. Without update, a name already registered is a
// conflict.
func (r *Registry) AddAction(a *action.Action, file string, update bool) (store.PutResult[*action.Action], error) {
	var none store.PutResult[*action.Action]
	if a.AutomationProfile != nil {
		if _, err := r.Profile(*a.AutomationProfile); err != nil {
			if !errs.Is(err, errs.KindNotFound) {
				return none, err
			}
			p := errs.Problem{File: file, Path: "automation_profile", Message: "names profile \"" + *a.AutomationProfile + "\", which does not exist"}
			return none, errs.InvalidProblems(file, []errs.Problem{p}).About(errs.AboutActionProfile, *a.AutomationProfile)
		}
	}
	st, err := r.Store()
	if err != nil {
		return none, err
	}
	return st.Actions().Put(r.ctx(), a, update)
}

// RemoveAction removes the action name, once confirm agrees, and returns
// what was removed; nil when confirm declined. A name that is not an
// action's suggests the nearest one, before anything is asked.
func (r *Registry) RemoveAction(name string, confirm Confirm) (*action.Action, error) {
	return remove(r, store.Store.Actions, name, checkActionName, r.NearestAction, confirm)
}

// checkActionName checks an action name someone typed, by the rule of
// profile names (see CheckProfileName): anything that is not a valid
// namespace/name is invalid, a single word included (every action name
// has a namespace).
func checkActionName(name string) error {
	err := action.ValidateName(name)
	var e *errs.Error
	if errors.As(err, &e) && e.Hint == "" {
		return e.WithHint("action names are namespace/name, in lower case")
	}
	return err
}
