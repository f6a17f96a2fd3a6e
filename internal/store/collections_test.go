package store_test

import (
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/store/storetest"
)

// TestNameKey: each collection's NameKey is the top-level key of its
// canonical documents that holds the name NameOf gives, so a problem about
// a document's name points at a key the document has.
func TestNameKey(t *testing.T) {
	check := func(t *testing.T, key, name string, data []byte) {
		t.Helper()
		var doc map[string]any
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if key == "" || doc[key] != name {
			t.Errorf("NameKey %q: the document holds %v there, want %q", key, doc[key], name)
		}
	}
	t.Run("profiles", func(t *testing.T) {
		name, data, _, err := store.Profiles.Prepare(storetest.Profile(t, "acme/x", 1))
		if err != nil {
			t.Fatal(err)
		}
		check(t, store.Profiles.NameKey, name, data)
	})
	t.Run("actions", func(t *testing.T) {
		name, data, _, err := store.Actions.Prepare(storetest.Action(t, "acme/x", 1))
		if err != nil {
			t.Fatal(err)
		}
		check(t, store.Actions.NameKey, name, data)
	})
	t.Run("plans", func(t *testing.T) {
		name, data, _, err := store.Plans.Prepare(storetest.Plan(t, storetest.PlanID(t, 1)))
		if err != nil {
			t.Fatal(err)
		}
		check(t, store.Plans.NameKey, name, data)
	})
}
