package config

import (
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/safefile"
)

// A configuration file sets how much an agent may do, so one that somebody
// else could have written must not count. The model is git's
// safe.directory: a file is used only when it and the folder holding it
// belong to the invoking user (or root) and nobody else can write to
// either. Group write is tolerated only for the user's own private group
// (the group named after the user that is its primary group, as Debian's
// default umask leaves files), whose only member is the user.

// ownerInfo is what the check needs to know about a file or folder.
type ownerInfo struct {
	uid, gid uint32
	mode     fs.FileMode
}

// invoker is the user the check trusts besides root.
type invoker struct {
	uid uint32
	// privateGID returns the user's private group, or -1 when the user
	// has none.
	privateGID func() int64
}

// currentInvoker returns the invoking user. The private group is looked up
// (reading /etc/passwd and /etc/group) only when a file is group-writable,
// and then once per process.
func currentInvoker() invoker {
	return invoker{uid: uint32(os.Geteuid()), privateGID: safefile.PrivateGroup}
}

// untrustedReason says why a file or folder with the given owner and mode
// cannot be trusted by who, or returns "".
func untrustedReason(o ownerInfo, who invoker) string {
	if o.uid != who.uid && o.uid != 0 {
		return "is owned by " + userName(o.uid)
	}
	perm := o.mode.Perm()
	if perm&0o002 != 0 {
		// A folder with the sticky bit (/tmp) still lets others create
		// files in it, and a file anyone can write is anyone's.
		return "can be written by anyone"
	}
	if perm&0o020 != 0 && int64(o.gid) != who.privateGID() {
		return "can be written by the group " + safefile.GroupName(o.gid)
	}
	return ""
}

func userName(uid uint32) string {
	if u, err := user.LookupId(strconv.FormatUint(uint64(uid), 10)); err == nil {
		return fmt.Sprintf("%s (uid %d)", u.Username, uid)
	}
	return fmt.Sprintf("uid %d", uid)
}

// CheckOwnership returns an errs.KindInvalid error unless file, and the
// folder that holds it, are owned by the invoking user or root and cannot
// be written by anyone else. what names the file in the message ("the
// project file"); fix adds to the refusal how to fix it (a hint or a
// subject). A file that does not exist is not this check's concern and
// passes.
func CheckOwnership(file, what string, fix func(*errs.Error) *errs.Error) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "resolving %s", file)
	}
	who := currentInvoker()
	for _, p := range []struct{ path, role string }{{abs, what}, {filepath.Dir(abs), "the folder of " + what}} {
		o, ok, err := statOwner(p.path)
		if err != nil {
			return errs.Wrap(errs.KindInternal, err, "cannot check who owns %s", p.path)
		}
		if !ok {
			continue
		}
		if why := untrustedReason(o, who); why != "" {
			return fix(errs.Invalid("refusing %s %s: it %s (mode %s)", p.role, abs, why, o.mode.Perm()))
		}
	}
	return nil
}
