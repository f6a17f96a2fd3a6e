//go:build unix

package file

import (
	"io/fs"
	"os"
	"syscall"
)

// cacheSupported reports whether this system can tell who owns and who may
// write the cache file, without which it is not trusted.
const cacheSupported = true

// ownedPrivately reports whether a cache file can be trusted: owned by the
// user running agents and writable by no one else, who could otherwise
// make it answer for a profile.
func ownedPrivately(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid() && fi.Mode().Perm()&0o022 == 0
}
