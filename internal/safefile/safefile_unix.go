//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// Flags added to every open: O_NONBLOCK so that opening a FIFO or a device
// returns at once, O_NOCTTY so that opening a terminal never makes it ours.
const (
	readFlags  = syscall.O_NONBLOCK | syscall.O_NOCTTY
	writeFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY
	dirFlags   = syscall.O_NONBLOCK | syscall.O_DIRECTORY
	lockFlags  = syscall.O_NONBLOCK | syscall.O_NOCTTY | syscall.O_NOFOLLOW
)

// setBlocking clears O_NONBLOCK on a file that passed its checks. It goes
// through SyscallConn rather than Fd, which would change how the os
// package treats the file.
func setBlocking(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}

// links returns the number of hard links of a file.
func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// typeError reports whether an open failed because of the type of file it
// met: a socket or a device without a driver (ENXIO, ENODEV, EOPNOTSUPP), a
// FIFO with no reader opened for writing (ENXIO), a link where none is
// followed (ELOOP), or something other than a folder where one was asked
// for (ENOTDIR), or a folder where a file is to be created or written
// (EISDIR).
func typeError(err error) bool {
	for _, e := range []error{syscall.ENXIO, syscall.ENODEV, syscall.EOPNOTSUPP, syscall.ELOOP, syscall.ENOTDIR, syscall.EISDIR} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
