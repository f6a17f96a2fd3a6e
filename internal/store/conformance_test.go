package store_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/store/storetest"
)

func TestFileConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := store.OpenFile(filepath.Join(t.TempDir(), "home"), store.FileOptions{LockTimeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func TestMemoryConformance(t *testing.T) {
	storetest.Run(t, func(*testing.T) store.Store { return store.NewMemory() })
}
