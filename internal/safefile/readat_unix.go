//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// readFileAt is ReadFileAt with raw system calls: a listing reads every
// stored file, and an *os.File costs each one a registration with the
// poller and more system calls than the read itself.
func readFileAt(dir *os.File, name string, limit int64) ([]byte, error) {
	rc, err := dir.SyscallConn()
	if err != nil {
		return nil, err
	}
	var (
		data []byte
		rerr error
	)
	if err := rc.Control(func(dfd uintptr) { data, rerr = readAt(int(dfd), name, limit) }); err != nil {
		return nil, err
	}
	return data, rerr
}

func readAt(dfd int, name string, limit int64) ([]byte, error) {
	var (
		fd  int
		err error
	)
	for {
		fd, err = unix.Openat(dfd, name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		var st unix.Stat_t
		if typeError(err) && unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
			if m := modeOf(uint32(st.Mode)); m&fs.ModeSymlink != 0 {
				return nil, &Error{Path: name, Detail: "is a symbolic link", Err: ErrLinked}
			} else if !m.IsRegular() {
				return nil, notRegular(name, m)
			}
		}
		return nil, &fs.PathError{Op: "openat", Path: name, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "fstat", Path: name, Err: err}
	}
	if m := modeOf(uint32(st.Mode)); !m.IsRegular() {
		return nil, notRegular(name, m)
	}
	if st.Size > limit {
		return nil, tooLarge(name, st.Size, limit)
	}
	// Only O_NONBLOCK of the status flags was set: clear it in one call.
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFL, 0); err != nil {
		return nil, &fs.PathError{Op: "fcntl", Path: name, Err: err}
	}
	// One byte more than fstat gave: a read that returns less has met the
	// end of a regular file, so the usual file is read in one call.
	buf := make([]byte, st.Size+1)
	n := 0
	for {
		m, err := unix.Read(fd, buf[n:])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		n += m
		if int64(n) > limit {
			return nil, &Error{Path: name, Detail: growMessage(limit), Err: ErrTooLarge}
		}
		if m == 0 || n < len(buf) && int64(n) == st.Size {
			return buf[:n], nil
		}
		if n == len(buf) {
			buf = append(buf, make([]byte, 4096)...)
		}
	}
}

// modeOf returns the type bits of a stat mode as an fs.FileMode.
func modeOf(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
