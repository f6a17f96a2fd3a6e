package cmdutil

import (
	"regexp"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

// NameFilter checks the arguments of a list command, a regex (RE2,
// unanchored, against the full name) and a namespace, and returns a match
// function for names: nil when no regex was given. example goes into the
// hint of a bad regex.
func NameFilter(regex, namespace, example string) (func(string) bool, error) {
	if namespace != "" {
		if why := profile.CheckLabel(namespace); why != "" {
			return nil, errs.Usage("invalid namespace %q: %s", namespace, why)
		}
	}
	if regex == "" {
		return nil, nil
	}
	re, err := regexp.Compile(regex)
	if err != nil {
		return nil, errs.Usage("invalid regex %q: %v", regex, err).
			WithHint("the pattern uses RE2 syntax, for example %s", example)
	}
	return re.MatchString, nil
}
