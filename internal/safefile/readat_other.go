//go:build !unix

package safefile

import (
	"os"
	"path/filepath"
)

// readFileAt opens dir again as a root here; only listings call it, and
// only unix systems need it to be fast.
func readFileAt(dir *os.File, name string, limit int64) ([]byte, error) {
	fi, err := os.Lstat(filepath.Join(dir.Name(), name))
	if err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, &Error{Path: name, Detail: "is a symbolic link", Err: ErrLinked}
	}
	r, err := os.OpenRoot(dir.Name())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, _, err := ReadFileIn(r, name, limit)
	return data, err
}
