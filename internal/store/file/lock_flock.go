//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package file

import (
	"errors"
	"os"
	"syscall"
)

// fileLock is the store's advisory lock: flock(2) on the open lock file,
// which the kernel releases when the file is closed or its holder dies.
type fileLock struct{ f *os.File }

// lockOn locks on the open lock file itself.
func lockOn(f *os.File, _ string) *fileLock { return &fileLock{f: f} }

// tryLock takes the lock if no one holds it, without waiting.
func (l *fileLock) tryLock() (bool, error) { return l.try(syscall.LOCK_EX) }

// tryShared takes the lock shared if no writer holds it, without waiting;
// close releases it.
func (l *fileLock) tryShared() (bool, error) { return l.try(syscall.LOCK_SH) }

// try takes the lock in mode how (LOCK_EX or LOCK_SH) without waiting,
// and reports whether it did.
func (l *fileLock) try(how int) (bool, error) {
	rc, err := l.f.SyscallConn()
	if err != nil {
		return false, err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			ferr = syscall.Flock(int(fd), how|syscall.LOCK_NB)
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
