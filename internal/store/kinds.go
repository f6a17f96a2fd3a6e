package store

import (
	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
)

// Kinds hands out a store's collections, so that the accessors of Store
// are written once: a backend embeds it and fills it with NewKinds from
// its one generic collection, bound to each Collection.
type Kinds struct {
	profiles Docs[*profile.AutomationProfile]
	actions  Docs[*action.Action]
	plans    Docs[*plan.Plan]
}

// NewKinds returns the collections of a store.
func NewKinds(profiles Docs[*profile.AutomationProfile], actions Docs[*action.Action], plans Docs[*plan.Plan]) Kinds {
	return Kinds{profiles: profiles, actions: actions, plans: plans}
}

// Profiles implements Store.
func (k *Kinds) Profiles() Docs[*profile.AutomationProfile] { return k.profiles }

// Actions implements Store.
func (k *Kinds) Actions() Docs[*action.Action] { return k.actions }

// Plans implements Store.
func (k *Kinds) Plans() Docs[*plan.Plan] { return k.plans }
