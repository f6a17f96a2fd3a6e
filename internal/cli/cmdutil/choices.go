package cmdutil

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/registry"
)

// ChoiceFlags gives cmd the flags of a plan's own choices, into c:
// --automation-profile (completed with the profile names), --safety-profile
// (a YAML file) and --project (a folder). 'plan use' and 'automation-profile
// resolve' take the same choices; only what the two profile flags mean to
// each differs, so their help texts are given.
func ChoiceFlags(cmd *cobra.Command, deps *Deps, c *registry.Choices, profileHelp, safetyHelp string) {
	NameFlag(cmd, deps, &c.AutomationProfile, "automation-profile", profileHelp, ProfileNames)
	cmd.Flags().StringVar(&c.SafetyProfileFile, "safety-profile", "", safetyHelp)
	cmd.Flags().StringVar(&c.Project, "project", "", "look for agents.yaml from this folder instead of the working directory")
	_ = cmd.MarkFlagFilename("safety-profile", "yaml", "yml")
	_ = cmd.MarkFlagDirname("project")
}

// ResolveChoices hands c to resolve, the registry's use case that resolves a
// plan's choices ('plan use', 'automation-profile resolve'). When
// --safety-profile is "-", standard input is read into c first, and named
// so in messages; any other file the registry reads itself, and an error
// about it that comes from a pipe or a device gets the hint ReadInput
// gives: "-" reads standard input there too.
func ResolveChoices(u *UI, c *registry.Choices, resolve func(registry.Choices) (registry.Resolution, error)) (registry.Resolution, error) {
	if c.SafetyProfileFile == Stdin {
		data, name, err := u.ReadInput(Stdin)
		if err != nil {
			return registry.Resolution{}, err
		}
		c.SafetyProfileFile, c.SafetyProfileInput = name, data
	}
	res, err := resolve(*c)
	var e *errs.Error
	if c.SafetyProfileFile != "" && c.SafetyProfileInput == nil && errors.As(err, &e) && len(e.Problems) > 0 && e.Problems[0].File == c.SafetyProfileFile {
		return res, suggestStdin(err)
	}
	return res, err
}

// emptyHints says, for each flag that names something, what to give it
// instead of nothing.
var emptyHints = map[string]string{
	"automation-profile": "name a profile: see 'agents automation-profile list'",
	"safety-profile":     "give a safety profile file",
	"project":            "give a folder, or leave the flag out to use the working directory",
	"action":             "name an action: see 'agents action list', or leave the flag out",
	"namespace":          "give a namespace, or leave the flag out to list them all",
}

// NonEmpty refuses, as a usage error, the first of the named flags that
// was given an empty value: --project "" would otherwise quietly mean the
// working directory, and --automation-profile "" no choice at all, where
// the caller meant to name something.
func NonEmpty(cmd *cobra.Command, names ...string) error {
	for _, name := range names {
		f := cmd.Flags().Lookup(name)
		if f == nil || !f.Changed || f.Value.String() != "" {
			continue
		}
		e := errs.Usage("--%s must not be empty", name)
		if h, ok := emptyHints[name]; ok {
			e = e.WithHint("%s", h)
		}
		return e
	}
	return nil
}
