package cmdutil

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/store"
)

// ActionNames returns the names of the stored actions, or nothing when the
// store cannot be read. For shell completion only.
func ActionNames(deps *Deps) []string {
	st, err := deps.Store()
	if err != nil {
		return nil
	}
	names, err := st.ListActionNames(deps.Ctx(), store.ActionQuery{})
	if err != nil {
		return nil
	}
	return names
}

// CompleteActionNames completes the first positional argument with the
// names of the stored actions.
func CompleteActionNames(deps *Deps) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return ActionNames(deps), cobra.ShellCompDirectiveNoFileComp
	}
}

// PlanIDs returns the ids of the stored plans, newest first (the one most
// likely wanted), or nothing when the store cannot be read. For shell
// completion only.
func PlanIDs(deps *Deps) []string {
	st, err := deps.Store()
	if err != nil {
		return nil
	}
	ids, err := st.ListPlanIDs(deps.Ctx())
	if err != nil {
		return nil
	}
	for i, j := 0, len(ids)-1; i < j; i, j = i+1, j-1 {
		ids[i], ids[j] = ids[j], ids[i]
	}
	return ids
}

// CompletePlanIDs completes the first positional argument with plan ids.
func CompletePlanIDs(deps *Deps) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return PlanIDs(deps), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}
