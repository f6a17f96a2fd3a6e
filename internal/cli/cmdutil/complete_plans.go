package cmdutil

import (
	"slices"
	"strings"

	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
)

// storedActionNames returns the names of the stored actions that start
// with prefix, or nothing when the store cannot be read.
func storedActionNames(deps *Deps, prefix string) []string {
	var names []string
	deps.silently(func() {
		st, err := deps.Store()
		if err != nil || st == nil {
			return
		}
		q := store.ActionQuery{}
		if prefix != "" {
			q.Match = func(name string) bool { return strings.HasPrefix(name, prefix) }
		}
		names, _ = st.ListActionNames(deps.Ctx(), q)
	})
	return names
}

// ActionNames lists the stored actions by name, with their descriptions
// when there are few enough to read.
func ActionNames(deps *Deps, prefix string) []string {
	names := storedActionNames(deps, prefix)
	if len(names) > describeLimit {
		return names
	}
	out := make([]string, len(names))
	for i, name := range names {
		out[i] = name
		deps.silently(func() {
			if st, err := deps.Store(); err == nil {
				if a, err := st.GetAction(deps.Ctx(), name); err == nil {
					out[i] = Described(name, a.Description)
				}
			}
		})
	}
	return out
}

// ActionNamespaces lists the namespaces of the stored actions.
func ActionNamespaces(deps *Deps, _ string) []string {
	var out []string
	for _, name := range storedActionNames(deps, "") {
		if ns := profile.NamespaceOf(name); ns != "" && !slices.Contains(out, ns) {
			out = append(out, ns)
		}
	}
	return out
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
		all, _ := st.ListPlanIDs(deps.Ctx())
		for i := len(all) - 1; i >= 0; i-- {
			if strings.HasPrefix(all[i], prefix) {
				ids = append(ids, all[i])
			}
		}
	})
	if len(ids) > describeLimit {
		return ids
	}
	for i, id := range ids {
		deps.silently(func() {
			if st, err := deps.Store(); err == nil {
				if p, err := st.GetPlan(deps.Ctx(), id); err == nil {
					ids[i] = Described(id, p.Action+", "+p.AutomationProfile.Name)
				}
			}
		})
	}
	return ids
}
