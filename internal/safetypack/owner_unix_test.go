//go:build unix

package safetypack

import (
	"io/fs"
	"syscall"
	"testing"
	"time"
)

// statInfo is a folder's stat record as a test wants it.
type statInfo struct {
	mode fs.FileMode
	uid  uint32
}

func (s statInfo) Name() string       { return "etc" }
func (s statInfo) Size() int64        { return 0 }
func (s statInfo) Mode() fs.FileMode  { return s.mode }
func (s statInfo) ModTime() time.Time { return time.Time{} }
func (s statInfo) IsDir() bool        { return s.mode.IsDir() }
func (s statInfo) Sys() any           { return &syscall.Stat_t{Uid: s.uid} }

// TestAboveInAUserNamespace: in a user namespace, root's folders outside
// it show as owned by the overflow uid, which no one inside may act as;
// such a folder on the way to the system folder counts as root's when
// neither its group nor others may write it. Outside a namespace the same
// owner is a user like any other, and refused.
func TestAboveInAUserNamespace(t *testing.T) {
	saved := unmappedOwner
	t.Cleanup(func() { unmappedOwner = saved })
	const nobody = 65534
	folder := func(perm fs.FileMode, uid uint32) fs.FileInfo { return statInfo{fs.ModeDir | perm, uid} }
	for _, inside := range []bool{false, true} {
		unmappedOwner = func(uid uint32) bool { return inside && uid == nobody }
		tests := []struct {
			info fs.FileInfo
			ok   bool
		}{
			{folder(0o755, 0), true},
			{folder(0o755, nobody), inside},
			{folder(0o775, nobody), false},
			{folder(0o757, nobody), false},
			{folder(0o755, 1000), false},
			{folder(fs.ModeSticky|0o777, 0), true},
			{folder(fs.ModeSticky|0o777, nobody), false},
		}
		for _, tt := range tests {
			if got := aboveUntrusted(tt.info) == ""; got != tt.ok {
				t.Errorf("in a user namespace %v: folder %v of uid %d trusted %v, want %v (%s)", inside, tt.info.Mode(), tt.info.Sys().(*syscall.Stat_t).Uid, got, tt.ok, aboveUntrusted(tt.info))
			}
		}
	}
}

// TestNamespaceOverflow: the overflow uid counts as unmapped only inside a
// user namespace that does not map it, and only for a process the
// namespace maps: one that itself shows as the overflow uid (a namespace
// mapping no one) may own, and write, the folders that show so, and so
// may a user of a namespace that maps it (a rootless container's nobody).
func TestNamespaceOverflow(t *testing.T) {
	tests := []struct {
		uidMap, overflow string
		uid, euid        int
		want             uint32
		inside           bool
	}{
		{"         0          0 4294967295\n", "65534\n", 1000, 1000, 0, false},
		{"      1000       1000          1\n", "65534\n", 1000, 1000, 65534, true},
		{"         0       1000          1\n", "", 0, 0, 65534, true},
		{"      1000       1000          1\n", "4000\n", 1000, 1000, 4000, true},
		{"", "65534\n", 65534, 65534, 0, false},
		{"      1000       1000          1\n", "65534\n", 1000, 65534, 0, false},
		{"      1000       1000          1\n", "65534\n", 65534, 1000, 0, false},
		{"         0       1000          1\n         1     100000      65536\n", "65534\n", 0, 0, 0, false},
		{"         0       1000          1\n         1     100000      65533\n", "65534\n", 0, 0, 65534, true},
		{"     65534       1000          1\n", "65534\n", 0, 0, 0, false},
		{"garbage\n", "65534\n", 1000, 1000, 0, false},
	}
	for _, tt := range tests {
		got, inside := namespaceOverflow([]byte(tt.uidMap), []byte(tt.overflow), tt.uid, tt.euid)
		if got != tt.want || inside != tt.inside {
			t.Errorf("uid_map %q, overflowuid %q, uid %d/%d: %d, %v; want %d, %v", tt.uidMap, tt.overflow, tt.uid, tt.euid, got, inside, tt.want, tt.inside)
		}
	}
}
