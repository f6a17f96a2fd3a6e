package action

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/errs"
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
	return strictyaml.Decode(data, file, func(d *strictyaml.Decoder, root strictyaml.Field) *Action {
		return decode(d, root, false)
	})
}

// DecodeStored is Decode for an action as the store wrote it. The store
// writes every field, null where unset, and every field of a standalone
// safety profile, and ends the file with a new line; a file that does not
// was cut short or edited by hand, and read with defaults it could drop a
// constraint the action set (a safety profile cut after
// require_checkpoints no longer requires a person's approval, a limit of
// 100 cut within its line reads as 10). Such a file is refused, naming
// what it lacks.
func DecodeStored(data []byte, file string) (*Action, error) {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		return nil, errs.InvalidProblems(file, []errs.Problem{{File: file, Message: "does not end with a new line, as the store writes every file: it was cut short or edited by hand; register the action again"}})
	}
	return strictyaml.Decode(data, file, func(d *strictyaml.Decoder, root strictyaml.Field) *Action {
		return decode(d, root, true)
	})
}

func decode(d *strictyaml.Decoder, root strictyaml.Field, stored bool) *Action {
	a := &Action{}
	need := required
	if stored {
		need = Keys
	}
	d.Each(root, Keys, need, func(f strictyaml.Field) {
		if stored && f.IsNull() && f.Value.Value == "" {
			// The store writes null; a key with nothing after it is a
			// line cut short.
			d.Fieldf(f, "is empty, where the store writes null or a value: the file was cut short or edited by hand; register the action again")
			return
		}
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
			if stored && f.Value.Kind == yaml.MappingNode {
				have := map[string]bool{}
				for i := 0; i+1 < len(f.Value.Content); i += 2 {
					have[f.Value.Content[i].Value] = true
				}
				for _, k := range profile.SafetyKeys {
					if !have[k] {
						d.Fieldf(f, "lacks %s, which the store always writes: the file was cut short or edited by hand; register the action again", k)
						break
					}
				}
			}
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
