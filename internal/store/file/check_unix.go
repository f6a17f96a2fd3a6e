//go:build unix

package file

import (
	"io/fs"
	"os"
	"os/user"
	"strconv"
	"syscall"
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
