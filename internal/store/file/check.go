package file

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/internal/store"
)

// Check implements Store. It warns when the home, one of the store's
// folders or a profile namespace folder is world-writable or owned by
// another user: anyone who can write there can change the profiles that
// decide what an agent may do. A missing home has nothing to warn about.
func (s *Store) Check(ctx context.Context) ([]store.Warning, error) {
	if err := ctx.Err(); err != nil {
		return nil, store.Interrupted(err)
	}
	warnings, exists := s.checkFolders()
	if !exists {
		return nil, nil
	}
	// A namespace folder others can write to lets them replace every
	// profile in it, so those are checked too: one read of a folder that
	// holds namespaces, not profiles.
	if des, err := safefile.ReadDir(filepath.Join(s.home, profiles.Name)); err == nil {
		for _, de := range des {
			if (de.IsDir() || de.Type()&fs.ModeSymlink != 0) && !strings.HasPrefix(de.Name(), ".") {
				warnings = append(warnings, namespaceWarnings(filepath.Join(s.home, profiles.Name, de.Name()))...)
			}
		}
	}
	return warnings, nil
}

// HandEditable implements store.HandEditable: files can be edited by hand.
func (s *Store) HandEditable() bool { return true }

// CheckLazily implements store.LazyChecker: Check's warnings about the
// home and the store's own folders now, and about a profile namespace
// folder through warn, the first time the store reads or writes in it.
// A lookup of one profile then checks one namespace folder, not all of
// them: a hook's cost does not grow with the namespaces of the store.
func (s *Store) CheckLazily(ctx context.Context, warn func(store.Warning)) ([]store.Warning, error) {
	if err := ctx.Err(); err != nil {
		return nil, store.Interrupted(err)
	}
	s.ns.mu.Lock()
	s.ns.warn, s.ns.checked = warn, map[string]bool{}
	s.ns.mu.Unlock()
	warnings, exists := s.checkFolders()
	if !exists {
		return nil, nil
	}
	return warnings, nil
}

// lazyNamespaces is how CheckLazily's namespace checks go on: where their
// warnings go, and the namespace folders already checked.
type lazyNamespaces struct {
	mu      sync.Mutex
	warn    func(store.Warning)
	checked map[string]bool
}

// touchNamespace checks the folder of a profile namespace, or of its
// history (relative to the home), the first time the store reads or
// writes in it, when CheckLazily asked for that; Check has checked every
// profile namespace otherwise.
func (s *Store) touchNamespace(dir string) {
	s.ns.mu.Lock()
	defer s.ns.mu.Unlock()
	if s.ns.warn == nil || s.ns.checked[dir] {
		return
	}
	s.ns.checked[dir] = true
	for _, w := range namespaceWarnings(filepath.Join(s.home, dir)) {
		s.ns.warn(w) // under the lock: one warning at a time
	}
}

// touchFile checks a stored file read for one name (a profile, an action
// or a plan looked up by name), when CheckLazily asked for that: a file
// others can write is one they can rewrite, whatever its folder allows,
// and a link in a file's place is not the store's.
// A listing does not check each file it reads; every lookup does.
func (s *Store) touchFile(rel string, fi fs.FileInfo) {
	s.ns.mu.Lock()
	defer s.ns.mu.Unlock()
	if s.ns.warn == nil || s.ns.checked[rel] {
		return
	}
	s.ns.checked[rel] = true
	path := filepath.Join(s.home, rel)
	for _, w := range fileWarnings(path, fi) {
		s.ns.warn(w)
	}
	// The store writes files, never links: a link in a file's place was
	// put there by hand, and whoever can change it, or a folder on its
	// way, chooses what is read, whatever the file it ends at allows.
	if lfi, err := os.Lstat(path); err == nil && lfi.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(path)
		s.ns.warn(store.Warning{Where: path, Message: fmt.Sprintf("store file %s is a link to %s: whoever can change the link, or a folder on its way, can change what it says; put the file itself in its place", path, target)})
	}
}

// checkFolders returns the warnings about the home and the store's own
// folders, and whether the home exists.
func (s *Store) checkFolders() ([]store.Warning, bool) {
	// The home may be a link the user chose: it is followed.
	fi, err := os.Stat(s.home)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	warnings := folderWarnings(s.home, fi, err)
	// Every folder whose files a decision reads: a plan or action replaced
	// by another user decides as much as a profile would.
	for _, dir := range []string{profiles.Name, actions.Name, plans.Name, objectsDir, historyDir, filepath.Join(historyDir, profiles.Name)} {
		path := filepath.Join(s.home, dir)
		fi, err := os.Lstat(path)
		warnings = append(warnings, folderWarnings(path, fi, err)...)
	}
	return warnings, true
}

// namespaceWarnings says what is wrong with a namespace folder. The store
// reads through a namespace that is a link (within the home), so the
// folder it leads to is what is checked.
func namespaceWarnings(path string) []store.Warning {
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		fi, err = os.Stat(path)
	}
	return folderWarnings(path, fi, err)
}

// folderWarnings says what is wrong with the folder at path, given what
// a stat of it returned: others can write to it, or it belongs to another
// user. A missing path, or one that is not a folder, has none.
func folderWarnings(path string, fi fs.FileInfo, err error) []store.Warning {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []store.Warning{{Where: path, Message: fmt.Sprintf("cannot check the permissions of %s: %v", path, err)}}
	}
	if !fi.IsDir() {
		return nil
	}
	return permissionWarnings("store folder", "its profiles", path, fi)
}

// fileWarnings says what is wrong with the stored file at path, as it was
// when opened: others can write to it, or it belongs to another user.
func fileWarnings(path string, fi fs.FileInfo) []store.Warning {
	if fi == nil || !fi.Mode().IsRegular() {
		return nil
	}
	return permissionWarnings("store file", "what it says", path, fi)
}

// permissionWarnings says who, besides the user running agents, can change
// what (a folder's profiles, a file's content) at path: anyone, another
// owner, or a group that is not the user's private one.
func permissionWarnings(noun, what, path string, fi fs.FileInfo) []store.Warning {
	var warnings []store.Warning
	add := func(format string, a ...any) {
		warnings = append(warnings, store.Warning{Where: path, Message: fmt.Sprintf(format, a...)})
	}
	// The mode as ls shows it: a folder's with its d.
	mode := fi.Mode() & (fs.ModeDir | fs.ModePerm)
	if fi.Mode().Perm()&0o002 != 0 {
		add("%s %s is world-writable (%s): any user on this machine can change %s; run 'chmod o-w %s'",
			noun, path, mode, what, path)
	}
	if owner, ok := otherOwner(fi); ok {
		add("%s %s is owned by %s, not by the user running agents: that user can change %s",
			noun, path, owner, what)
	}
	if group, ok := otherGroup(fi); ok {
		add("%s %s can be written by the group %s (%s): its members can change %s; run 'chmod g-w %s'",
			noun, path, group, mode, what, path)
	}
	for _, who := range aclWriters(path) {
		add("%s %s can be written by %s through an ACL: they can change %s; run 'setfacl -b %s'",
			noun, path, who, what, path)
	}
	return warnings
}
