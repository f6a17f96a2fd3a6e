package cmdutil

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/registry"
	"github.com/agentsctl/agents/internal/render"
)

// Shell completion runs on every Tab press, inside the user's shell, with its
// output parsed by a script. So everything here follows three rules: it
// never prints (an error shows up as no candidates), it never writes a file
// (opening the store creates nothing), and it never returns a candidate with
// a control character in it.

// Lister returns completion candidates. Each is a value, optionally followed
// by a tab and a short description (see Described); the value is what the
// shell inserts. prefix is what the user has typed so far: a lister may use
// it to narrow an expensive query, and need not filter by it, since the
// completion helpers do. A lister must not print or write anything, and
// returns nil when it cannot read what it lists.
type Lister func(deps *Deps, prefix string) []string

// descriptionWidth bounds a candidate's description: shells show it beside
// the value, on one line.
const descriptionWidth = 60

// Described returns a candidate with a description, made safe to pass to a
// shell: control characters escaped, one line, its first sentence when that
// is short enough, and cut to a width that fits beside the value.
func Described(value, description string) string {
	d := strings.Join(strings.Fields(render.Escape(description)), " ")
	if d == "" {
		return value
	}
	if i := strings.Index(d, ". "); i > 0 && i < descriptionWidth {
		d = d[:i]
	}
	return cobra.CompletionWithDesc(value, render.Truncate(d, descriptionWidth))
}

// filter keeps the candidates whose value starts with prefix and is not in
// skip, dropping duplicates and any value a shell could misread.
func filter(list []string, prefix string, skip []string) []string {
	out := make([]string, 0, len(list))
	seen := map[string]bool{}
	for _, c := range list {
		value, _, _ := strings.Cut(c, "\t")
		if value == "" || seen[value] || !strings.HasPrefix(value, prefix) ||
			slices.Contains(skip, value) || render.Escape(value) != value ||
			strings.ContainsAny(value, " \n") {
			continue
		}
		seen[value] = true
		out = append(out, c)
	}
	return out
}

// CompleteArgs completes positional arguments: the first with lists[0], the
// second with lists[1], and so on; a position without a lister gets no
// candidates. Files are never offered.
func CompleteArgs(deps *Deps, lists ...Lister) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) >= len(lists) || lists[len(args)] == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return filter(lists[len(args)](deps, toComplete), toComplete, nil), cobra.ShellCompDirectiveNoFileComp
	}
}

// CompleteFromList completes the first positional argument from list and
// offers nothing after it.
func CompleteFromList(deps *Deps, list Lister) cobra.CompletionFunc {
	return CompleteArgs(deps, list)
}

// CompleteEach completes every positional argument from list, leaving out
// values already given, for commands that take several names.
func CompleteEach(deps *Deps, list Lister) cobra.CompletionFunc {
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return filter(list(deps, toComplete), toComplete, args), cobra.ShellCompDirectiveNoFileComp
	}
}

// CompleteFlag completes a flag's value from list, for
// cobra.Command.RegisterFlagCompletionFunc.
func CompleteFlag(deps *Deps, list Lister) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return filter(list(deps, toComplete), toComplete, nil), cobra.ShellCompDirectiveNoFileComp
	}
}

// BuiltinProfileNames lists the eight built-in profiles in the
// specification's order, each with its description.
func BuiltinProfileNames(deps *Deps, _ string) []string {
	var bs []*profile.AutomationProfile
	var err error
	deps.UI().silently(func() { bs, err = deps.Registry().Builtins() })
	if err != nil {
		// The names are known even if their files cannot be read.
		return slices.Clone(profile.BuiltinNames)
	}
	out := make([]string, len(bs))
	for i, p := range bs {
		out[i] = Described(p.Name, p.Description)
	}
	return out
}

// describeLimit is the most custom profiles completion reads to show their
// descriptions; beyond it, names alone are offered, read without parsing a
// single file, so Tab stays instant in a large store.
const describeLimit = 25

// describedDocs lists the names list gives, adding to each the
// description of the document get reads for it, when there are few enough
// names to read; a name whose document cannot be read stays bare.
func describedDocs[T any](deps *Deps, list func(r *registry.Registry) []string, get func(r *registry.Registry, name string) (T, error), description func(T) string) []string {
	names := storedNames(deps, list)
	if len(names) > describeLimit {
		return names
	}
	out := make([]string, len(names))
	for i, name := range names {
		out[i] = name
		deps.UI().silently(func() {
			if v, err := get(deps.Registry(), name); err == nil {
				out[i] = Described(name, description(v))
			}
		})
	}
	return out
}

// namespacesOf returns the distinct namespaces of names, in order.
func namespacesOf(names []string) []string {
	var out []string
	for _, name := range names {
		if ns := profile.NamespaceOf(name); ns != "" && !slices.Contains(out, ns) {
			out = append(out, ns)
		}
	}
	return out
}

// storedNames returns what list gives, silently.
func storedNames(deps *Deps, list func(r *registry.Registry) []string) []string {
	var names []string
	deps.UI().silently(func() { names = list(deps.Registry()) })
	return names
}

// CustomProfileNames lists the stored custom profiles by name, with their
// descriptions when there are few enough to read.
func CustomProfileNames(deps *Deps, prefix string) []string {
	return describedDocs(deps, func(r *registry.Registry) []string { return r.ProfileNames(prefix) },
		(*registry.Registry).Profile, func(p *profile.AutomationProfile) string { return p.Description })
}

// ProfileNames lists every profile: the built-ins, then the custom ones.
func ProfileNames(deps *Deps, prefix string) []string {
	return append(BuiltinProfileNames(deps, prefix), CustomProfileNames(deps, prefix)...)
}

// Namespaces lists the namespaces of the stored custom profiles.
func Namespaces(deps *Deps, _ string) []string {
	return namespacesOf(storedNames(deps, func(r *registry.Registry) []string { return r.ProfileNames("") }))
}

// ActionNames lists the stored actions by name, with their descriptions
// when there are few enough to read.
func ActionNames(deps *Deps, prefix string) []string {
	return describedDocs(deps, func(r *registry.Registry) []string { return r.ActionNames(prefix) },
		(*registry.Registry).Action, func(a *action.Action) string { return a.Description })
}

// ActionNamespaces lists the namespaces of the stored actions.
func ActionNamespaces(deps *Deps, _ string) []string {
	return namespacesOf(storedNames(deps, func(r *registry.Registry) []string { return r.ActionNames("") }))
}

// PlanIDs lists the stored plans' ids, newest first (the one most likely
// wanted), each described by its action when there are few enough to read.
func PlanIDs(deps *Deps, prefix string) []string {
	newest := func(r *registry.Registry) []string {
		all := r.PlanIDs()
		var ids []string
		for i := len(all) - 1; i >= 0; i-- {
			if strings.HasPrefix(all[i], prefix) {
				ids = append(ids, all[i])
			}
		}
		return ids
	}
	return describedDocs(deps, newest, (*registry.Registry).Plan,
		func(p *plan.Plan) string { return p.Action + ", " + p.AutomationProfile.Name })
}

// GateNames lists the eleven gates in canonical order, each with its
// category.
func GateNames(*Deps, string) []string {
	out := make([]string, len(profile.Gates))
	for i, g := range profile.Gates {
		out[i] = Described(g.Name, string(g.Category)+": "+g.Description)
	}
	return out
}

// FormatNames lists the output formats.
func FormatNames(*Deps, string) []string { return render.Names() }

// CompleteProfileNames completes the first positional argument with profile
// names: the built-ins (when builtins is true) and the stored custom ones.
func CompleteProfileNames(deps *Deps, builtins bool) cobra.CompletionFunc {
	if builtins {
		return CompleteFromList(deps, ProfileNames)
	}
	return CompleteFromList(deps, CustomProfileNames)
}

// NameFlag gives cmd the string flag name, into p, for something the
// registry holds by name or id (an action, a plan, a profile), completed
// from list, as every such flag is.
func NameFlag(cmd *cobra.Command, deps *Deps, p *string, name, help string, list Lister) {
	cmd.Flags().StringVar(p, name, "", help)
	_ = cmd.RegisterFlagCompletionFunc(name, CompleteFlag(deps, list))
}
