package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/agentsctl/agents/internal/errs"
)

// MaxLinks is how many links WalkLinks follows in one walk before it gives
// up, as the kernel does.
const MaxLinks = 40

// ErrTooManyLinks is WalkLinks' error for a path through more than
// MaxLinks links (a loop, say).
var ErrTooManyLinks = errors.New("more than 40 links")

// AbsAsOpened makes p absolute as the kernel reads it, without tidying
// it as text: a relative p is put after the working folder, and its ".."
// parts are left for WalkLinks, since a ".." after a link steps out of
// the link's target, not out of the link's own folder.
func AbsAsOpened(p string) (string, error) {
	if filepath.IsAbs(p) {
		return p, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return wd + string(filepath.Separator) + p, nil
}

// WalkLinks follows the absolute path p as the kernel does to open it:
// part by part, each link read and followed before the walk goes on, so
// that a ".." after a link steps out of the folder of its target, not out
// of the link's own. Before it reads a link it calls onLink, when not nil,
// with the link, what Lstat said of it and the folder it stands in (with
// no link left in it), and stops at onLink's error.
//
// It returns where the walk ends: p's file itself, reached through no link
// (missing false), or, where a part does not exist, that part followed by
// the rest of p as written (missing true): a write would create it there.
// An Lstat or Readlink error other than a missing part is returned as it
// is (an *fs.PathError naming the part).
func WalkLinks(p string, onLink func(link string, fi fs.FileInfo, dir string) error) (end string, missing bool, err error) {
	vol := filepath.VolumeName(p)
	cur := vol + string(filepath.Separator)
	todo := strings.Split(p[len(vol):], string(filepath.Separator))
	for links := 0; len(todo) > 0; {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, name)
		fi, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			// Nothing is there, nor anything below it.
			return filepath.Join(append([]string{next}, todo...)...), true, nil
		case err != nil:
			return "", false, err
		case fi.Mode()&fs.ModeSymlink == 0:
			cur = next
			continue
		}
		if links++; links > MaxLinks {
			return "", false, ErrTooManyLinks
		}
		if onLink != nil {
			if err := onLink(next, fi, cur); err != nil {
				return "", false, err
			}
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", false, err
		}
		if filepath.IsAbs(target) {
			tvol := filepath.VolumeName(target)
			cur, target = tvol+string(filepath.Separator), target[len(tvol):]
		}
		todo = append(strings.Split(target, string(filepath.Separator)), todo...)
	}
	return cur, false, nil
}

// CheckHome refuses an agents home that cannot be one: a path that is not
// a folder, runs through a file or is too long to name one, a link to nothing (or a path behind one: nothing can be
// created through it, and what it should lead to is not there) or a loop
// of links. A home that is simply missing is fine: it is an empty one,
// created when a change needs it.
func CheckHome(home string) error {
	fi, err := os.Stat(home)
	switch {
	case err == nil && !fi.IsDir():
		return errs.Usage("the agents home %s is not a folder", home).About(errs.AboutHome, home, "not a folder")
	case errors.Is(err, fs.ErrNotExist):
		if link, target := DanglingLink(home); link != "" {
			return errs.DanglingHome(home, link, target)
		}
	case errors.Is(err, syscall.ELOOP):
		return errs.LoopedHome(home, err)
	case errors.Is(err, syscall.ENOTDIR):
		return errs.Usage("the agents home %s cannot be reached: a part of its path is a file, not a folder", home).About(errs.AboutHome, home, "not a folder")
	case errors.Is(err, syscall.ENAMETOOLONG):
		return errs.Usage("the agents home %s cannot be reached: its name is longer than the file system allows", home).About(errs.AboutHome, home, "not a folder")
	}
	return nil
}

// DanglingLink returns the link that keeps path from being reached, and
// what it says: path itself or a folder on the way to it that is a link
// leading to nothing. It returns "" when there is none (path exists, or
// is missing with no link to blame), so it is meant for a path Stat found
// missing. Nothing can be created through such a link: MkdirAll fails on
// it with a bare "file exists".
func DanglingLink(path string) (link, target string) {
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		if fi, err := os.Lstat(p); err == nil {
			// The first thing there, from path up: a link that leads
			// nowhere is to blame, anything else is not.
			if fi.Mode()&fs.ModeSymlink != 0 {
				if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
					target, _ = os.Readlink(p)
					return p, target
				}
			}
			return "", ""
		}
		if parent := filepath.Dir(p); parent == p {
			return "", ""
		}
	}
}
