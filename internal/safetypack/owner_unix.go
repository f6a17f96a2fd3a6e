//go:build unix

package safetypack

import (
	"io/fs"
	"syscall"
)

// ownerUID returns the uid that owns a file, from its stat record.
func ownerUID(info fs.FileInfo) (uint32, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Uid, true
}

// ownersKnown is true where files have owners to check.
const ownersKnown = true
