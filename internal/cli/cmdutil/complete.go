package cmdutil

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
)

// CustomProfileNames returns the names of the stored custom profiles, or
// nothing when the store cannot be read. For shell completion only.
func CustomProfileNames(deps *Deps) []string {
	st, err := deps.Store()
	if err != nil {
		return nil
	}
	names, err := st.ListProfileNames(deps.Ctx(), store.ProfileQuery{})
	if err != nil {
		return nil
	}
	return names
}

// CompleteProfileNames completes the first positional argument with every
// profile name, built-in then custom.
func CompleteProfileNames(deps *Deps, builtins bool) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var names []string
		if builtins {
			names = append(names, profile.BuiltinNames...)
		}
		names = append(names, CustomProfileNames(deps)...)
		return names, cobra.ShellCompDirectiveNoFileComp
	}
}
