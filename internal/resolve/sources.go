package resolve

import (
	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
)

// Setting returns what one level sets: the automation profile it names
// and the standalone safety profile it holds (nil for none), set by
// source (a file, an action's name; "" for none). The values are copied.
func Setting(level, source string, automationProfile *string, safetyProfile *profile.SafetyProfile) plan.Setting {
	s := plan.Setting{Level: level}
	if source != "" {
		s.Source = &source
	}
	if automationProfile != nil {
		v := *automationProfile
		s.AutomationProfile = &v
	}
	if safetyProfile != nil {
		v := safetyProfile.Clone()
		s.SafetyProfile = &v
	}
	return s
}

// ActionSetting returns what an action sets as a level.
func ActionSetting(a *action.Action) plan.Setting {
	return Setting(plan.LevelAction, a.Name, a.AutomationProfile, a.SafetyProfile)
}

// Own returns the plan level of a request: the choices made on the plan
// itself, never with a source.
func Own(s plan.Setting) plan.Setting {
	own := s.Clone()
	own.Level = plan.LevelPlan
	own.Source = nil
	return own
}
