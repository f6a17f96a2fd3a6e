package file_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/store"
	filestore "github.com/agentsctl/agents/internal/store/file"
	"github.com/agentsctl/agents/internal/store/storetest"
)

func newCopyHome(t *testing.T) (store.Store, string) {
	home := filepath.Join(t.TempDir(), "home")
	s, err := filestore.Open(home, filestore.Options{LockTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return s, home
}

// TestCopyFileToFile runs the copy checks with a file store in the middle.
func TestCopyFileToFile(t *testing.T) {
	mid, _ := newCopyHome(t)
	storetest.RunCopy(t, mid, newCopyHome)
}
