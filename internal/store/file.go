package store

import (
	"time"

	"github.com/agentsctl/agents/internal/errs"
)

// FileOptions configure the file store.
type FileOptions struct {
	// LockTimeout bounds how long a mutation waits for the lock.
	LockTimeout time.Duration
}

// OpenFile opens the file store rooted at home. Nothing is created until a
// mutation needs it.
func OpenFile(home string, opts FileOptions) (Store, error) {
	return nil, errs.New(errs.KindInternal, "file store not built yet")
}
