//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package file

import (
	"os"

	"github.com/gofrs/flock"
)

// fileLock is the store's advisory lock where flock(2) is not at hand,
// taken with gofrs/flock (fcntl locks, or LockFileEx on Windows), which
// opens the file by its path: the file is checked first, so only a swap in
// between could make that open wait.
type fileLock struct{ fl *flock.Flock }

func lockOn(f *os.File, path string) *fileLock {
	f.Close()
	return &fileLock{fl: flock.New(path, flock.SetFlag(os.O_CREATE|os.O_RDONLY), flock.SetPermissions(0o644))}
}

func (l *fileLock) tryLock() (bool, error) { return l.fl.TryLock() }

func (l *fileLock) close() { _ = l.fl.Close() }

// tryShared takes the lock shared if no writer holds it, without waiting.
func (l *fileLock) tryShared() (bool, error) { return l.fl.TryRLock() }
