package store_test

import (
	"testing"

	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/store/storetest"
)

// The memory store is held to the suite here; the file store and the
// PostgreSQL store, in their own packages.
func TestMemoryConformance(t *testing.T) {
	storetest.Run(t, func(*testing.T) store.Store { return store.NewMemory() })
}
