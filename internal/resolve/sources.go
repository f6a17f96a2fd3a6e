package resolve

import (
	"context"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/store"
)

// Env is where a resolution reads its levels: actions from the store,
// profiles through Lookup, the global configuration from Home.
type Env struct {
	Ctx    context.Context
	Store  store.Store
	Lookup Lookup
	// Home is the agents home, which holds config.yaml.
	Home string
	// Global, when set, is config.yaml as already read, so that it is not
	// read twice.
	Global *config.Global
}

// Request says what to resolve for.
type Request struct {
	// Own is the plan level: the choices made on the plan itself.
	Own plan.Setting
	// Action names the action; "" resolves without one, its level then
	// setting nothing.
	Action string
	// ProjectDir is the folder agents.yaml is looked for from (and above).
	ProjectDir string
	// ProjectExplicit is true when the user named ProjectDir, which
	// trusts an agents.yaml in it whoever owns it.
	ProjectExplicit bool
	// OnlyTrustedProjects uses an agents.yaml only from a folder the user
	// has trusted (config.yaml's trusted_projects), as a hook must.
	OnlyTrustedProjects bool
}

// Levels reads the four levels for req: the plan's own settings, the
// action from the store, the project's agents.yaml and the global
// config.yaml. A missing action is errs.KindNotFound; a malformed
// configuration file errs.KindInvalid, naming the file.
func (e Env) Levels(req Request) ([]plan.Setting, error) {
	own := req.Own.Clone()
	own.Level = plan.LevelPlan
	own.Source = nil
	act := plan.Setting{Level: plan.LevelAction}
	if req.Action != "" {
		a, err := e.Store.Actions().Get(e.Ctx, req.Action)
		if err != nil {
			return nil, err
		}
		act = ActionSetting(a)
	}
	glob := e.Global
	if glob == nil {
		var err error
		if glob, err = config.LoadGlobal(e.Home); err != nil {
			return nil, err
		}
	}
	proj, err := config.LoadProject(config.ProjectOptions{
		Dir: req.ProjectDir, Explicit: req.ProjectExplicit,
		OnlyTrusted: req.OnlyTrustedProjects, Trusted: glob.TrustedProjects,
	})
	if err != nil {
		return nil, err
	}
	return []plan.Setting{own, act, setting(plan.LevelProject, proj.File, proj.Policy), setting(plan.LevelGlobal, glob.File, glob.Policy)}, nil
}

// Resolve reads the levels for req and resolves them.
func (e Env) Resolve(req Request) (*Result, error) {
	levels, err := e.Levels(req)
	if err != nil {
		return nil, err
	}
	return Resolve(levels, e.Lookup)
}

// Again resolves a plan's levels as they are now: its own recorded
// choices, its action and project as they read today.
func (e Env) Again(p *plan.Plan) (*Result, error) {
	return e.Resolve(Request{Own: p.Own(), Action: p.Action, ProjectDir: p.ProjectDir})
}

// ActionSetting returns what an action sets as a level.
func ActionSetting(a *action.Action) plan.Setting {
	name := a.Name
	s := plan.Setting{Level: plan.LevelAction, Source: &name}
	if a.AutomationProfile != nil {
		v := *a.AutomationProfile
		s.AutomationProfile = &v
	}
	if a.SafetyProfile != nil {
		v := a.SafetyProfile.Clone()
		s.SafetyProfile = &v
	}
	return s
}

func setting(level, file string, p config.Policy) plan.Setting {
	s := plan.Setting{Level: level}
	if file != "" {
		f := file
		s.Source = &f
	}
	if p.AutomationProfile != nil {
		v := *p.AutomationProfile
		s.AutomationProfile = &v
	}
	if p.SafetyProfile != nil {
		v := p.SafetyProfile.Clone()
		s.SafetyProfile = &v
	}
	return s
}
