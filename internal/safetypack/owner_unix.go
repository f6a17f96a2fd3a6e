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
// container) as a user it maps: root's folders outside it show so there.
// No one inside the namespace may act as that owner, so a folder it owns
// that neither its group nor others may write can be changed only from
// outside. A process that itself shows as the overflow uid (a namespace
// that maps no one, as unshare -U leaves it) may be the owner of what shows
// so, and write to it: there the owner says nothing.
var unmappedOwner = func(uid uint32) bool {
	overflow, inside := userNamespace()
	return inside && uid == overflow
}

// userNamespace returns the overflow uid, and whether this process runs,
// as a user it maps, in a user namespace other than the first (which maps
// every uid to itself, "0 0 4294967295" in /proc/self/uid_map) that leaves
// the overflow uid unmapped. Where it cannot tell, it says no, and the
// folders are judged as anywhere else.
var userNamespace = sync.OnceValues(func() (uint32, bool) {
	uidMap, err := os.ReadFile("/proc/self/uid_map")
	if err != nil {
		return 0, false
	}
	overflowUID, _ := os.ReadFile("/proc/sys/kernel/overflowuid")
	return namespaceOverflow(uidMap, overflowUID, os.Getuid(), os.Geteuid())
})

// namespaceOverflow is userNamespace for the given uid_map and
// overflowuid contents and this process's real and effective uids.
func namespaceOverflow(uidMap, overflowUID []byte, uid, euid int) (uint32, bool) {
	if strings.Join(strings.Fields(string(uidMap)), " ") == "0 0 4294967295" {
		return 0, false
	}
	overflow := uint32(65534)
	if n, err := strconv.ParseUint(strings.TrimSpace(string(overflowUID)), 10, 32); err == nil {
		overflow = uint32(n)
	}
	if uid < 0 || euid < 0 || uint32(uid) == overflow || uint32(euid) == overflow {
		return 0, false
	}
	// A namespace that maps the overflow uid (a rootless container maps
	// a range of subordinate uids, 65534 among them) has a user of that
	// uid, who may own and write what shows so.
	for line := range strings.Lines(string(uidMap)) {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return 0, false
		}
		inside, err1 := strconv.ParseUint(f[0], 10, 32)
		count, err2 := strconv.ParseUint(f[2], 10, 33)
		if err1 != nil || err2 != nil {
			return 0, false
		}
		if uint64(overflow) >= inside && uint64(overflow)-inside < count {
			return 0, false
		}
	}
	return overflow, true
}
