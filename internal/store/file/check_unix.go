//go:build unix

package file

import (
	"io/fs"
	"os"
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
	return safefile.UserName(st.Uid), true
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

// aclWriters names the users and groups, besides the user running agents,
// root and the user's private group, that a POSIX ACL lets write to path;
// one that cannot be read is named too, as a problem is.
func aclWriters(path string) []string {
	users, groups, err := safefile.ACLWriters(path)
	if err != nil {
		return []string{"whoever its ACL names (it cannot be read: " + err.Error() + ")"}
	}
	var out []string
	for _, uid := range users {
		if int(uid) == os.Geteuid() || uid == 0 {
			continue
		}
		out = append(out, safefile.UserName(uid))
	}
	for _, gid := range groups {
		if int64(gid) != safefile.PrivateGroup() {
			out = append(out, "the group "+safefile.GroupName(gid))
		}
	}
	return out
}
