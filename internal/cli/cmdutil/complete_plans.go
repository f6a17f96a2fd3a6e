package cmdutil

import (
	"strings"

	"github.com/agentsctl/agents/internal/store"
)

func storedActionNames(deps *Deps, prefix string) []string {
	return storedNames(deps, prefix, func(st store.Store, match func(string) bool) ([]string, error) {
		return st.Actions().Names(deps.Ctx(), store.Query{Match: match})
	})
}

// ActionNames lists the stored actions by name, with their descriptions
// when there are few enough to read.
func ActionNames(deps *Deps, prefix string) []string {
	return described(deps, storedActionNames(deps, prefix), func(st store.Store, name string) (string, error) {
		a, err := st.Actions().Get(deps.Ctx(), name)
		if err != nil {
			return "", err
		}
		return a.Description, nil
	})
}

// ActionNamespaces lists the namespaces of the stored actions.
func ActionNamespaces(deps *Deps, _ string) []string {
	return namespacesOf(storedActionNames(deps, ""))
}

// PlanIDs lists the stored plans' ids, newest first (the one most likely
// wanted), each described by its action when there are few enough to read.
func PlanIDs(deps *Deps, prefix string) []string {
	var ids []string
	deps.silently(func() {
		st, err := deps.Store()
		if err != nil || st == nil {
			return
		}
		all, _ := st.Plans().Names(deps.Ctx(), store.Query{})
		for i := len(all) - 1; i >= 0; i-- {
			if strings.HasPrefix(all[i], prefix) {
				ids = append(ids, all[i])
			}
		}
	})
	return described(deps, ids, func(st store.Store, id string) (string, error) {
		p, err := st.Plans().Get(deps.Ctx(), id)
		if err != nil {
			return "", err
		}
		return p.Action + ", " + p.AutomationProfile.Name, nil
	})
}
