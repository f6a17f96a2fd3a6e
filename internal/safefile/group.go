package safefile

import (
	"fmt"
	"os"
	"os/user"
	"strconv"
	"strings"
	"sync"
)

// PrivateGroup returns the private group of the user running agents, or
// -1 when it has none: the group named after the user that is its primary
// group (as Debian's default umask leaves files), and only while the user
// is its one member, as /etc/group and /etc/passwd list them. A file or
// folder that group may write is the user's alone; write by any other
// group lets others change it. It is looked up once, when first asked,
// which is only when something is group-writable.
func PrivateGroup() int64 { return privateGroup() }

var privateGroup = sync.OnceValue(func() int64 {
	u, err := user.LookupId(strconv.Itoa(os.Geteuid()))
	if err != nil {
		return -1
	}
	g, err := user.LookupGroupId(u.Gid)
	if err != nil || g.Name != u.Username {
		return -1
	}
	gid, err := strconv.ParseInt(u.Gid, 10, 64)
	if err != nil {
		return -1
	}
	groups, err := os.ReadFile("/etc/group")
	if err != nil {
		return -1
	}
	passwd, err := os.ReadFile("/etc/passwd")
	if err != nil {
		return -1
	}
	if !onlyMember(u.Username, u.Gid, groups, passwd) {
		return -1
	}
	return gid
})

// onlyMember reports whether user is the one member of the group gid, as
// the group and passwd files (their content) list them: the group is
// listed, with no other name in its member list, and no other account has
// it as its primary group. A group named after its user is private only
// then: anyone else in it could write what the group may. A group the
// files do not list (one from a directory service, whose members they do
// not show) is not known to be private.
func onlyMember(user, gid string, groups, passwd []byte) bool {
	listed := false
	for _, line := range strings.Split(string(groups), "\n") {
		f := strings.Split(line, ":")
		if len(f) < 4 || f[2] != gid {
			continue
		}
		listed = true
		for _, m := range strings.Split(f[3], ",") {
			if m = strings.TrimSpace(m); m != "" && m != user {
				return false
			}
		}
	}
	if !listed {
		return false
	}
	for _, line := range strings.Split(string(passwd), "\n") {
		f := strings.Split(line, ":")
		if len(f) >= 4 && f[3] == gid && f[0] != user {
			return false
		}
	}
	return true
}

// UserName names the user uid for a message: "name (uid N)", or "uid N"
// when it has no name.
func UserName(uid uint32) string {
	if u, err := user.LookupId(strconv.FormatUint(uint64(uid), 10)); err == nil {
		return fmt.Sprintf("%s (uid %d)", u.Username, uid)
	}
	return fmt.Sprintf("uid %d", uid)
}

// GroupName names the group gid for a message: "name (gid N)", or "gid N"
// when it has no name.
func GroupName(gid uint32) string {
	if g, err := user.LookupGroupId(strconv.FormatUint(uint64(gid), 10)); err == nil {
		return fmt.Sprintf("%s (gid %d)", g.Name, gid)
	}
	return fmt.Sprintf("gid %d", gid)
}
