package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/internal/strictyaml"
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
	fi       fs.FileInfo
	// aclUsers and aclGroups may write to it through a POSIX ACL.
	aclUsers, aclGroups []uint32
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
		return "is owned by " + safefile.UserName(o.uid)
	}
	return writableReason(o, who)
}

// writableReason says who besides who (and root) may write to a file or
// folder with the given mode and ACL, whoever owns it, or returns "".
func writableReason(o ownerInfo, who invoker) string {
	perm := o.mode.Perm()
	if perm&0o002 != 0 {
		// A folder with the sticky bit (/tmp) still lets others create
		// files in it, and a file anyone can write is anyone's.
		return "can be written by anyone"
	}
	if perm&0o020 != 0 && int64(o.gid) != who.privateGID() {
		return "can be written by the group " + safefile.GroupName(o.gid)
	}
	for _, uid := range o.aclUsers {
		if uid != who.uid && uid != 0 {
			return "can be written by " + safefile.UserName(uid) + " through an ACL"
		}
	}
	for _, gid := range o.aclGroups {
		if int64(gid) != who.privateGID() {
			return "can be written by the group " + safefile.GroupName(gid) + " through an ACL"
		}
	}
	return ""
}

// swappable says how others could have put another folder in the place
// of home, a folder of the user's: a folder above where it leads (through
// any link) lets others write to it, by its mode or an ACL, without the
// sticky bit that lets only an entry's owner rename what it holds. A
// folder of the user's own with no config.yaml, renamed into home's place
// (or into the place of a folder on its way), would drop what home's own
// config.yaml said. "" when none does, or home is not there (which
// CheckOwnership judges).
func swappable(home string) string {
	if !ownersKnown {
		return ""
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return ""
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return ""
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return ""
	}
	who := currentInvoker()
	for dir, up := real, filepath.Dir(real); up != dir; dir, up = up, filepath.Dir(up) {
		u, ok, err := statJudged(up)
		if err != nil {
			return "who may write to the folder " + up + " above the home cannot be checked: " + err.Error()
		}
		if !ok || u.mode&fs.ModeSticky != 0 {
			continue
		}
		if why := writableReason(u, who); why != "" {
			return "the home stands under the folder " + up + ", which " + why + " (" + ownerAndMode(u, why) + ") without the sticky bit: anyone who may write there could have put another folder in the place of " + dir + " (keep the home under folders of your own, or give it a config.yaml)"
		}
	}
	return ""
}

// CheckOwnership returns an errs.KindInvalid error unless file, and the
// folder that holds it, are owned by the invoking user or root and cannot
// be written by anyone else. A path that goes through links is walked as
// the kernel walks it, one name at a time: every link on the way, in the
// file's name or in a folder's, must be the user's or root's and stand in
// a folder that passes the same test, since whoever can replace a link
// chooses what is read. what names the file in the message ("the project
// file"); fix adds to the refusal how to fix it (a hint or a subject). A
// file that does not exist passes when the folder that would hold it
// passes (or is not there either): whoever can write that folder could
// have removed a file that said something else.
func CheckOwnership(file, what string, fix func(*errs.Error) *errs.Error) error {
	return checkOwnership(file, what, fix, nil)
}

// readTrusted reads file and checks it as CheckOwnership does, and that
// the file the check walked to is the file that was read: a link changed
// between the two (a race anyone who controls a link on the way could run)
// is refused, not taken for the file the check passed.
func readTrusted(file, what string, fix func(*errs.Error) *errs.Error) ([]byte, error) {
	data, fi, err := strictyaml.ReadOwnFileInfo(file)
	if err != nil {
		return nil, err
	}
	if err := checkOwnership(file, what, fix, fi); err != nil {
		return nil, err
	}
	return data, nil
}

// checkOwnership is CheckOwnership; read, when not nil, is the file that
// was read, which the walk must end at.
func checkOwnership(file, what string, fix func(*errs.Error) *errs.Error, read fs.FileInfo) error {
	if !ownersKnown {
		return nil
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "resolving %s", file)
	}
	who := currentInvoker()
	refuse := func(subject string, o ownerInfo, why string) error {
		return fix(errs.Invalid("refusing %s %s: %s %s (%s)", what, abs, subject, why, ownerAndMode(o, why)))
	}
	// gone is the end of a walk that found nothing: no concern of this
	// check for a file not read yet (reading it fails, and says so), but a
	// file that was read has moved under the check.
	gone := func() error {
		if read == nil {
			return nil
		}
		return fix(errs.Invalid("refusing %s %s: it changed while it was being read (a link on its way was replaced)", what, abs))
	}
	// Every link on the way, and the folder it stands in, must be the
	// user's: their owners may replace it. (A link's own mode means
	// nothing.)
	checkLink := func(link string, fi fs.FileInfo, dir string) error {
		o := ownerOf(fi)
		subject := "the link " + link + " on its path"
		if link == abs {
			subject = "it is a link that"
		}
		if o.uid != who.uid && o.uid != 0 {
			return refuse(subject, o, "is owned by "+safefile.UserName(o.uid))
		}
		if d, ok, err := statJudged(dir); err != nil {
			return cannotCheck(err, "cannot check who owns %s", dir)
		} else if why := untrustedReason(d, who); ok && why != "" {
			return refuse("the folder "+dir+" of the link "+link+" on its path", d, why)
		}
		return nil
	}
	var refused error // onLink's own, returned as it is
	cur, missing, err := safefile.WalkLinks(abs, func(link string, fi fs.FileInfo, dir string) error {
		refused = checkLink(link, fi, dir)
		return refused
	})
	var pathErr *fs.PathError
	switch {
	case refused != nil:
		return refused
	case errors.Is(err, safefile.ErrTooManyLinks):
		return fix(errs.Invalid("refusing %s %s: its path goes through more than %d links", what, abs, safefile.MaxLinks))
	case errors.As(err, &pathErr) && pathErr.Op == "readlink":
		return errs.Wrap(errs.KindInternal, err, "cannot read the link %s", pathErr.Path)
	case errors.As(err, &pathErr):
		return cannotCheck(err, "cannot check who owns %s", pathErr.Path)
	case err != nil:
		return err
	case missing && read != nil:
		return gone()
	case missing:
		dir := filepath.Dir(cur)
		d, ok, err := statJudged(dir)
		if err != nil {
			return cannotCheck(err, "cannot check who owns %s", dir)
		}
		if ok {
			if why := untrustedReason(d, who); why != "" {
				return refuse("it is missing, and its folder "+dir, d, why)
			}
			return nil
		}
		// The folder is missing too: whoever may remove what the nearest
		// folder above holds could have removed it, file and all: its
		// owner, and anyone its mode or ACL lets write there, unless the
		// sticky bit (as /tmp has) lets only an entry's owner remove it.
		// Making the folder ends the doubt (a CI job run as root under
		// the runner's home folder makes its own).
		for up := filepath.Dir(dir); ; up = filepath.Dir(up) {
			u, ok, err := statJudged(up)
			if err != nil {
				return cannotCheck(err, "cannot check who owns %s", up)
			}
			if ok {
				var why string
				switch {
				case u.uid != who.uid && u.uid != 0:
					why = "is owned by " + safefile.UserName(u.uid)
				case u.mode&fs.ModeSticky == 0: // with it, only an entry's owner may remove it
					why = writableReason(u, who)
				}
				if why != "" {
					return refuse("it is missing, as is its folder "+dir+" (make it, writable by you alone, to decide here), and the folder "+up+" above it", u, why)
				}
				return nil
			}
			if filepath.Dir(up) == up {
				return nil
			}
		}
	}
	// cur is now the file itself, reached through no link.
	o, ok, err := statJudged(cur)
	if err != nil {
		return cannotCheck(err, "cannot check who owns %s", cur)
	}
	if !ok || (read != nil && !os.SameFile(read, o.fi)) {
		return gone()
	}
	subject := "it"
	if cur != abs {
		subject = "the file " + cur + " it leads to"
	}
	if why := untrustedReason(o, who); why != "" {
		return refuse(subject, o, why)
	}
	dir := filepath.Dir(cur)
	d, ok, err := statJudged(dir)
	if err != nil {
		return cannotCheck(err, "cannot check who owns %s", dir)
	}
	if why := untrustedReason(d, who); ok && why != "" {
		subject := "its folder " + dir
		if cur != abs {
			subject = "the folder " + dir + " of the file " + cur + " it leads to"
		}
		return refuse(subject, d, why)
	}
	return nil
}

// untrustedLink says why a link on the way of path (as the kernel walks
// it) could have been made or changed by someone other than the user,
// or returns "": a link that is not the user's or root's, or that stands
// in a folder that fails CheckOwnership's test. What path leads to is
// not judged.
func untrustedLink(path string) string {
	if !ownersKnown {
		return ""
	}
	abs, err := safefile.AbsAsOpened(path)
	if err != nil {
		return "it cannot be resolved: " + err.Error()
	}
	who := currentInvoker()
	var why string
	stop := errors.New("stop")
	_, _, err = safefile.WalkLinks(abs, func(link string, fi fs.FileInfo, dir string) error {
		o := ownerOf(fi)
		if o.uid != who.uid && o.uid != 0 {
			why = "the link " + link + " on its way is owned by " + safefile.UserName(o.uid)
			return stop
		}
		d, ok, err := statJudged(dir)
		if err != nil {
			why = "who owns " + dir + ", which holds the link " + link + " on its way, cannot be checked: " + err.Error()
			return stop
		}
		if r := untrustedReason(d, who); ok && r != "" {
			why = "the link " + link + " on its way stands in the folder " + dir + ", which " + r + " (" + ownerAndMode(d, r) + ")"
			return stop
		}
		return nil
	})
	if err != nil && why == "" {
		why = "its links cannot be followed: " + err.Error()
	}
	return why
}

// ownerAndMode says who owns a refused file and its mode, for the message;
// the owner is left out where the reason already names it.
func ownerAndMode(o ownerInfo, why string) string {
	if strings.HasPrefix(why, "is owned by") {
		return "mode " + o.mode.String()
	}
	return "owner " + safefile.UserName(o.uid) + ", mode " + o.mode.String()
}

// cannotCheck is the error of an owner or mode that cannot be read. One
// the user may not read (a folder on the way it cannot search) is
// refused as the file would be, invalid input: what is there cannot be
// vouched for. Anything else is a failure of its own.
func cannotCheck(err error, format string, a ...any) *errs.Error {
	if errors.Is(err, fs.ErrPermission) {
		return errs.Wrap(errs.KindInvalid, err, format, a...).
			WithHint("make the folder searchable by you, or work elsewhere")
	}
	return errs.Wrap(errs.KindInternal, err, format, a...)
}
