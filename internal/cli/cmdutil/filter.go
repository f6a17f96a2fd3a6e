package cmdutil

import (
	"regexp"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
)

// ListFilter is what a list verb filters names by: an optional regex
// argument (RE2, unanchored, against the full name) and --namespace.
type ListFilter struct {
	Regex     string
	Namespace string
	// namespaceGiven is whether --namespace was given, "" included.
	namespaceGiven bool
}

// givenString is a string flag that records whether it was given.
type givenString struct {
	p     *string
	given *bool
}

func (g givenString) String() string {
	if g.p == nil {
		return ""
	}
	return *g.p
}
func (g givenString) Set(v string) error { *g.p, *g.given = v, true; return nil }
func (g givenString) Type() string       { return "string" }

// Add gives cmd the filter: at most one argument, the regex (which the
// verb's RunE, RunEArg, stores in Regex), and --namespace/-n with the help
// text help, completed by namespaces.
func (f *ListFilter) Add(cmd *cobra.Command, deps *Deps, help string, namespaces Lister) {
	cmd.Args = MaximumArgs(1, "at most one regular expression")
	cmd.Flags().VarP(givenString{&f.Namespace, &f.namespaceGiven}, "namespace", "n", help)
	_ = cmd.RegisterFlagCompletionFunc("namespace", CompleteFlag(deps, namespaces))
}

// Query checks the filter and returns it as a store query; example goes
// into the hint of a bad regex.
func (f *ListFilter) Query(example string) (store.Query, error) {
	q := store.Query{Namespace: f.Namespace}
	if f.namespaceGiven && f.Namespace == "" {
		return q, errs.Usage("--namespace must not be empty").
			WithHint("give a namespace, or leave the flag out to list them all")
	}
	if f.Namespace != "" {
		if why := profile.CheckLabel(f.Namespace); why != "" {
			return q, errs.Usage("invalid namespace %q: %s", f.Namespace, why)
		}
	}
	if f.Regex == "" {
		return q, nil
	}
	re, err := regexp.Compile(f.Regex)
	if err != nil {
		return q, errs.Usage("invalid regex %q: %v", f.Regex, err).
			WithHint("the pattern uses RE2 syntax, for example %s", example)
	}
	q.Match = re.MatchString
	return q, nil
}
