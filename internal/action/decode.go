package action

import (
	"strings"

	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/strictyaml"
)

// Field names of an action document.
const (
	keyName              = "name"
	keyDescription       = "description"
	keyDefinitionOfDone  = "definition_of_done"
	keyStrategyActor     = "strategy_actor"
	keyExecutionActor    = "execution_actor"
	keyAutomationProfile = "automation_profile"
	keySafetyProfile     = "safety_profile"
)

// Keys lists the fields of an action document in canonical order.
var Keys = []string{
	keyName, keyDescription, keyDefinitionOfDone, keyStrategyActor, keyExecutionActor,
	keyAutomationProfile, keySafetyProfile,
}

// required are the fields every action must set: the five strings.
var required = []string{keyName, keyDescription, keyDefinitionOfDone, keyStrategyActor, keyExecutionActor}

// Decode parses and validates one action document; file names it in
// problems. The decoding is as strict as a profile's: unknown keys (with a
// did-you-mean), duplicate keys, custom tags, a second document, values of
// the wrong YAML type (123 for a string, yes for a bool) are refused, and
// every problem is collected into one errs.KindInvalid error.
//
// name, description, definition_of_done, strategy_actor and
// execution_actor are required strings; only description may be empty or
// blank (a plan with no definition of done, or no one to plan or carry it
// out, says nothing).
// automation_profile is a profile name (built-in or namespace/name) or
// null; whether that profile exists is the caller's business. safety_profile
// is an inline safety profile, each field it leaves out taking its default,
// or null.
func Decode(data []byte, file string) (*Action, error) {
	return strictyaml.Decode(data, file, decode)
}

func decode(d *strictyaml.Decoder, root strictyaml.Field) *Action {
	a := &Action{}
	d.Each(root, Keys, required, func(f strictyaml.Field) {
		switch f.Key {
		case keyName:
			if s, ok := d.String(f); ok {
				if why := checkName(s); why != "" {
					d.Fieldf(f, "%s", why)
				}
				a.Name = s
			}
		case keyDescription:
			a.Description, _ = d.String(f)
		case keyDefinitionOfDone:
			a.DefinitionOfDone = nonBlank(d, f)
		case keyStrategyActor:
			a.StrategyActor = nonBlank(d, f)
		case keyExecutionActor:
			a.ExecutionActor = nonBlank(d, f)
		case keyAutomationProfile:
			a.AutomationProfile = profile.DecodeProfileNameField(d, f)
		case keySafetyProfile:
			a.SafetyProfile = profile.DecodeOptSafetyField(d, f)
		}
	})
	return a
}

// nonBlank reads a required string that must hold more than white space.
func nonBlank(d *strictyaml.Decoder, f strictyaml.Field) string {
	s, ok := d.String(f)
	if ok && strings.TrimSpace(s) == "" {
		d.Fieldf(f, "must not be empty")
	}
	return s
}
