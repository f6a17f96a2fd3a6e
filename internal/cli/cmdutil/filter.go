package cmdutil

import (
	"regexp"
	"strings"

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
	// cmd is the command Add gave the flag to, to tell an empty
	// --namespace from none.
	cmd *cobra.Command
}

// Add gives cmd the filter: at most one argument, the regex (which the
// verb's RunE, RunEArg, stores in Regex), completed by names, and
// --namespace/-n with the help text help, completed by namespaces.
func (f *ListFilter) Add(cmd *cobra.Command, deps *Deps, help string, names, namespaces Lister) {
	cmd.Args = MaximumArgs(1, "at most one regular expression")
	// The regex matches names, so a name is a regex to complete.
	cmd.ValidArgsFunction = CompleteFromList(deps, names)
	cmd.Flags().StringVarP(&f.Namespace, "namespace", "n", "", help)
	f.cmd = cmd
	_ = cmd.RegisterFlagCompletionFunc("namespace", CompleteFlag(deps, namespaces))
}

// Query checks the filter and returns it as a store query; example goes
// into the hint of a bad regex.
func (f *ListFilter) Query(example string) (store.Query, error) {
	q := store.Query{Namespace: f.Namespace}
	if f.cmd != nil {
		if err := NonEmpty(f.cmd, "namespace"); err != nil {
			return q, err
		}
	}
	if f.Namespace != "" {
		if why := profile.CheckLabel(f.Namespace); why != "" {
			e := errs.Usage("invalid namespace %q: %s", f.Namespace, why)
			if lower := strings.ToLower(f.Namespace); profile.CheckLabel(lower) == "" {
				return q, e.WithHint("namespaces are lower-case: did you mean %q?", lower)
			}
			return q, e.WithHint("a namespace is the part of a custom name before the slash, such as acme in acme/strict")
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
