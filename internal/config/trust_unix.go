//go:build unix

package config

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"github.com/agentsctl/agents/internal/safefile"
)

// ownersKnown is true where files have owners and modes to check.
const ownersKnown = true

// statOwner returns the owner, group and mode of path, following a link
// when follow is set and describing the link itself otherwise; ok is false
// when it does not exist (or a folder on its way is not a folder).
func statOwner(path string, follow bool) (ownerInfo, bool, error) {
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	fi, err := stat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return ownerInfo{}, false, nil
	}
	if err != nil {
		return ownerInfo{}, false, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ownerInfo{}, false, nil
	}
	o := ownerInfo{uid: st.Uid, gid: st.Gid, mode: fi.Mode(), fi: fi}
	if fi.Mode()&fs.ModeSymlink == 0 {
		if o.aclUsers, o.aclGroups, err = safefile.ACLWriters(path); err != nil {
			return ownerInfo{}, false, err
		}
	}
	return o, true, nil
}
