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

// statOwner returns the owner, group and mode of path itself (a link is
// not followed); ok is false when it does not exist (or a folder on its
// way is not a folder).
func statOwner(path string) (ownerInfo, bool, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return ownerInfo{}, false, nil
	}
	if err != nil {
		return ownerInfo{}, false, err
	}
	if _, ok := fi.Sys().(*syscall.Stat_t); !ok {
		return ownerInfo{}, false, nil
	}
	return ownerOf(fi), true, nil
}

// ownerOf is what fi, from Lstat, says of its owner, group and mode.
func ownerOf(fi fs.FileInfo) ownerInfo {
	st, _ := fi.Sys().(*syscall.Stat_t)
	if st == nil {
		return ownerInfo{mode: fi.Mode(), fi: fi}
	}
	return ownerInfo{uid: st.Uid, gid: st.Gid, mode: fi.Mode(), fi: fi}
}

// statJudged is statOwner for a file or folder about to be judged, with
// whom its ACL lets write to it: read only there, not for every name a
// walk passes.
func statJudged(path string) (ownerInfo, bool, error) {
	o, ok, err := statOwner(path)
	if err != nil || !ok || o.mode&fs.ModeSymlink != 0 {
		return o, ok, err
	}
	o.aclUsers, o.aclGroups, err = safefile.ACLWriters(path)
	return o, err == nil, err
}
