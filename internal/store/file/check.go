package file

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/internal/store"
)

// Check implements Store. It warns when the home, one of the store's
// folders or a profile namespace folder is world-writable or owned by another user: anyone who can
// write there can change the profiles that decide what an agent may do.
// A missing home has nothing to warn about.
func (s *Store) Check(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, store.Interrupted(err)
	}
	var warnings []string
	paths := []string{s.home}
	for _, dir := range []string{profiles.Name, objectsDir, historyDir} {
		paths = append(paths, filepath.Join(s.home, dir))
	}
	// A namespace folder others can write to lets them replace every
	// profile in it, so those are checked too: one read of a folder that
	// holds namespaces, not profiles.
	if des, err := safefile.ReadDir(filepath.Join(s.home, profiles.Name)); err == nil {
		for _, de := range des {
			if de.IsDir() && !strings.HasPrefix(de.Name(), ".") {
				paths = append(paths, filepath.Join(s.home, profiles.Name, de.Name()))
			}
		}
	}
	for i, path := range paths {
		var fi fs.FileInfo
		var err error
		if i == 0 {
			fi, err = os.Stat(path) // the home may be a link the user chose
		} else {
			fi, err = os.Lstat(path)
		}
		if errors.Is(err, fs.ErrNotExist) {
			if i == 0 {
				return nil, nil
			}
			continue
		}
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("cannot check the permissions of %s: %v", path, err))
			continue
		}
		if !fi.IsDir() {
			continue
		}
		if fi.Mode().Perm()&0o002 != 0 {
			warnings = append(warnings, fmt.Sprintf(
				"store folder %s is world-writable (%s): any user on this machine can change its profiles; run 'chmod o-w %s'",
				path, fi.Mode().Perm(), path))
		}
		if owner, ok := otherOwner(fi); ok {
			warnings = append(warnings, fmt.Sprintf(
				"store folder %s is owned by %s, not by the user running agents: that user can change its profiles",
				path, owner))
		}
	}
	return warnings, nil
}
