//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package file

import (
	"errors"
	"os"
	"syscall"

	"github.com/agentsctl/agents/internal/safefile"
)

// fileLock is the store's advisory lock: flock(2) on the open lock file,
// which the kernel releases when the file is closed or its holder dies.
type fileLock struct{ f *os.File }

// openLock opens the lock file (see safefile.OpenLock): never through a
// link, never waiting on a FIFO or device, only a regular file.
func openLock(path string) (*fileLock, error) {
	f, err := safefile.OpenLock(path, 0o644)
	if err != nil {
		return nil, err
	}
	return &fileLock{f: f}, nil
}

// tryLock takes the lock if no one holds it, without waiting.
func (l *fileLock) tryLock() (bool, error) {
	rc, err := l.f.SyscallConn()
	if err != nil {
		return false, err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			ferr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
			if !errors.Is(ferr, syscall.EINTR) {
				return
			}
		}
	}); err != nil {
		return false, err
	}
	if errors.Is(ferr, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return ferr == nil, ferr
}

// close releases the lock, if held, and the file.
func (l *fileLock) close() { _ = l.f.Close() }
