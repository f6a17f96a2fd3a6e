//go:build unix

package file

import (
	"io/fs"
	"os"
	"os/user"
	"strconv"
	"syscall"

	"github.com/agentsctl/agents/internal/safefile"
)

// otherOwner returns the owner of fi when it is neither the effective
// user nor root (who can change anything anyway, as for the trusted files
// of the configuration).
func otherOwner(fi fs.FileInfo) (string, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) == os.Geteuid() || st.Uid == 0 {
		return "", false
	}
	uid := strconv.FormatUint(uint64(st.Uid), 10)
	if u, err := user.LookupId(uid); err == nil {
		return u.Username + " (uid " + uid + ")", true
	}
	return "uid " + uid, true
}

// otherGroup returns the group of fi when that group may write it and is
// not the private group of the user running agents (see
// safefile.PrivateGroup): its other members could change what fi holds.
func otherGroup(fi fs.FileInfo) (string, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || fi.Mode().Perm()&0o020 == 0 || int64(st.Gid) == safefile.PrivateGroup() {
		return "", false
	}
	return safefile.GroupName(st.Gid), true
}
