//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || solaris

package store

import (
	"io/fs"
	"os"
	"syscall"
)

// canKey reports whether this system gives files the identity the cache
// needs (inode, device, change time).
const canKey = true

// keyOf returns the cache key of a regular file's metadata.
func keyOf(fi fs.FileInfo) (fileKey, bool) {
	if fi == nil || !fi.Mode().IsRegular() {
		return fileKey{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return fileKey{
		dev:   uint64(st.Dev), //nolint:unconvert // narrower on some systems
		ino:   uint64(st.Ino),
		size:  st.Size,
		mtime: fi.ModTime().UnixNano(),
		ctime: ctimeOf(st),
	}, true
}

// ownedPrivately reports whether a cache file can be trusted: owned by the
// user running agents and writable by no one else, who could otherwise
// make it answer for a profile.
func ownedPrivately(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid() && fi.Mode().Perm()&0o022 == 0
}
