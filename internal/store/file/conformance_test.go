package file_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/store"
	filestore "github.com/agentsctl/agents/internal/store/file"
	"github.com/agentsctl/agents/internal/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := filestore.Open(filepath.Join(t.TempDir(), "home"), filestore.Options{LockTimeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
