// Package action holds actions: the templates plans are made from. An action
// names who plans and who carries out the work and when it is done, and may
// choose the automation profile of its plans and carry a standalone safety
// profile, which beats the safety composed in any automation profile. The
// package decodes actions strictly and validates them; it never prints,
// reads flags or environment, or exits.
package action

import (
	"fmt"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

// Action is a template for plans. Field order is the canonical output
// order; every field is always written, the optional ones as null.
type Action struct {
	Name             string `json:"name"`
	Description      string `json:"description"`
	DefinitionOfDone string `json:"definition_of_done"`
	StrategyActor    string `json:"strategy_actor"`
	ExecutionActor   string `json:"execution_actor"`
	// AutomationProfile names the automation profile of the action's plans
	// (a built-in name or namespace/name); nil leaves the choice to the
	// project and global levels.
	AutomationProfile *string `json:"automation_profile"`
	// SafetyProfile is a standalone safety profile for the action's plans;
	// nil when the action carries none.
	SafetyProfile *profile.SafetyProfile `json:"safety_profile"`
}

// Namespace returns the part of the action's name before the slash.
func (a *Action) Namespace() string { return profile.NamespaceOf(a.Name) }

// Clone returns a deep copy of a, so no caller can change a value another
// caller holds.
func (a *Action) Clone() *Action {
	if a == nil {
		return nil
	}
	c := *a
	if a.AutomationProfile != nil {
		n := *a.AutomationProfile
		c.AutomationProfile = &n
	}
	if a.SafetyProfile != nil {
		s := a.SafetyProfile.Clone()
		c.SafetyProfile = &s
	}
	return &c
}

// ValidateName returns an invalid-input error unless name is a valid action
// name: namespace/name, each part a DNS-1123 label, as for custom profiles.
// Names become store paths, so this is checked before any is used.
func ValidateName(name string) error {
	if why := checkName(name); why != "" {
		return errs.Invalid("invalid action name: %s", why)
	}
	return nil
}

func checkName(name string) string {
	if why := profile.CheckCustomName(name); why != "" {
		if profile.IsBuiltinName(name) {
			// CheckCustomName speaks of profiles here; an action has no
			// built-ins.
			return "\"" + name + "\" must have the form namespace/name (for example local/secure-deploy)"
		}
		return why
	}
	return ""
}

// Validate checks a as a value, the way Decode checks a document: a valid
// name, a valid automation profile name when one is set, and the rules of
// the safety profile. It returns nil or an errs.KindInvalid error listing
// every problem, for values built or changed in code rather than decoded.
func (a *Action) Validate() error {
	if a == nil {
		return errs.Invalid("action is missing")
	}
	var ps []errs.Problem
	if a.Name == "" {
		ps = append(ps, errs.Problem{Path: keyName, Message: "is required"})
	} else if why := checkName(a.Name); why != "" {
		ps = append(ps, errs.Problem{Path: keyName, Message: why})
	}
	if a.AutomationProfile != nil {
		if why := profile.CheckProfileName(*a.AutomationProfile); why != "" {
			ps = append(ps, errs.Problem{Path: keyAutomationProfile, Message: why})
		}
	}
	if a.SafetyProfile != nil {
		if err := a.SafetyProfile.Validate(); err != nil {
			if e, ok := err.(*errs.Error); ok {
				for _, p := range e.Problems {
					p.Path = keySafetyProfile + "." + p.Path
					ps = append(ps, p)
				}
			}
		}
	}
	if len(ps) > 0 {
		subject := a.Name
		if subject == "" {
			subject = "action"
		}
		return errs.InvalidProblems(subject, ps)
	}
	return nil
}

// Encode returns the canonical YAML of a, as the store writes it, and the
// value that YAML decodes to. It encodes the decoded value again, so the
// bytes are a fixed point: what a later read returns encodes to the same
// bytes. An error means a cannot be stored.
func Encode(a *Action) ([]byte, *Action, error) {
	if a == nil {
		return nil, nil, errs.Invalid("no action to store")
	}
	return canon.StableYAML(a, fmt.Sprintf("action %q", a.Name), func(data []byte) (*Action, error) {
		return Decode(data, a.Name)
	})
}
