//go:build unix

package safetypack

import (
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
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

// unmappedOwner reports whether uid is the overflow uid a user namespace
// shows for the owners it does not map (nobody, 65534), and this process
// runs in such a namespace (a bubblewrap or Flatpak sandbox, a rootless
// container): root's folders outside it show so there. No one inside
// the namespace may act as that owner, so a folder it owns that neither
// its group nor others may write can be changed only from outside.
var unmappedOwner = func(uid uint32) bool {
	overflow, inside := userNamespace()
	return inside && uid == overflow
}

// userNamespace returns the overflow uid, and whether this process runs
// in a user namespace other than the first, which maps every uid to
// itself ("0 0 4294967295" in /proc/self/uid_map). Where it cannot tell,
// it says no, and the folders are judged as anywhere else.
var userNamespace = sync.OnceValues(func() (uint32, bool) {
	data, err := os.ReadFile("/proc/self/uid_map")
	if err != nil || strings.Join(strings.Fields(string(data)), " ") == "0 0 4294967295" {
		return 0, false
	}
	overflow := uint32(65534)
	if b, err := os.ReadFile("/proc/sys/kernel/overflowuid"); err == nil {
		if n, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 32); err == nil {
			overflow = uint32(n)
		}
	}
	return overflow, true
})
