package cmdutil

import (
	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/suggest"
)

// profileCandidates are the names a profile name may have meant: the
// built-ins, then the stored custom profiles. A store that cannot be read
// gives the built-ins alone: a suggestion is a courtesy, never a reason
// to fail.
func (d *Deps) profileCandidates() []string {
	names := append([]string(nil), profile.BuiltinNames...)
	if st, err := d.Store(); err == nil {
		var custom []string
		d.silently(func() { custom, _ = st.Profiles().Names(d.Ctx(), store.Query{}) })
		names = append(names, custom...)
	}
	return names
}

// actionCandidates are the names of the stored actions, or none when the
// store cannot be read.
func (d *Deps) actionCandidates() []string {
	st, err := d.Store()
	if err != nil {
		return nil
	}
	var names []string
	d.silently(func() { names, _ = st.Actions().Names(d.Ctx(), store.Query{}) })
	return names
}

// NearestAction returns the stored action name nearest to name, or "".
func NearestAction(deps *Deps, name string) string {
	return suggest.Name(name, deps.actionCandidates())
}

// NearestProfile returns the built-in or stored profile name nearest to
// name, or "".
func NearestProfile(deps *Deps, name string) string {
	return suggest.Name(name, deps.profileCandidates())
}

// LookupAction returns the stored action with the given name. A name that
// cannot be an action's is not found, with the reason; a name not stored is
// not found; either suggests the nearest stored name.
func LookupAction(deps *Deps, name string) (*action.Action, error) {
	if err := action.ValidateName(name); err != nil {
		e := errs.NotFound("action %q not found: %s", name, err.Error()).
			WithHint("run 'agents action list' to see the actions")
		return nil, errs.DidYouMean(e, suggest.Name(name, deps.actionCandidates()))
	}
	st, err := deps.Store()
	if err != nil {
		return nil, err
	}
	a, err := st.Actions().Get(deps.Ctx(), name)
	if errs.Is(err, errs.KindNotFound) {
		return nil, errs.DidYouMean(err, suggest.Name(name, deps.actionCandidates()))
	}
	return a, err
}
