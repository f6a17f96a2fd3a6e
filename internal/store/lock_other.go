//go:build !unix

package store

import (
	"os"

	"github.com/gofrs/flock"
)

// fileLock is the store's advisory lock, taken with gofrs/flock (LockFileEx
// on Windows). Here no open waits on a named pipe in the file system.
type fileLock struct{ fl *flock.Flock }

func openLock(path string) (*fileLock, error) {
	return &fileLock{fl: flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDONLY), flock.SetPermissions(0o644))}, nil
}

func (l *fileLock) tryLock() (bool, error) { return l.fl.TryLock() }

func (l *fileLock) close() { _ = l.fl.Close() }
