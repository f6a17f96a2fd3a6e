// Package atomicfile replaces files so that a reader, or a crash at any
// moment, sees either the old content or the new, never a mix: the data goes
// to a temporary file in the same folder, is synced, renamed over the target,
// and the folder is synced so the rename itself survives a power loss.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// TempPrefix starts the name of every temporary file this package makes, so
// that leftovers from a killed process can be recognised and removed.
const TempPrefix = ".tmp-"

// ErrLink is the error of WriteFile for a path that is a symbolic link:
// the rename would replace the link itself with a file, and the file the
// link names would keep its old content.
var ErrLink = errors.New("is a symbolic link, which would be replaced by a file rather than written through")

// NotLink returns the error WriteFile gives a path that is a symbolic link
// (ErrLink), or nil, so that a caller replacing several files can check
// them all before it writes any.
func NotLink(path string) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return &fs.PathError{Op: "replace", Path: path, Err: ErrLink}
	}
	return nil
}

// WriteFile atomically replaces path with data. A new file gets mode perm
// (subject to the umask); a replaced one keeps its mode exactly, whatever
// the umask would take from it (a group-writable file stays so). A path
// that is a symbolic link is refused (ErrLink), whatever it names.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	if err := NotLink(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	keep := false
	if st, err := os.Stat(path); err == nil {
		perm, keep = st.Mode().Perm(), true
	}
	tmp, err := os.OpenFile(filepath.Join(dir, TempName(filepath.Base(path))), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	// The umask applied when the temporary file was made; the file it
	// replaces had no such cut.
	if keep {
		if err := tmp.Chmod(perm); err != nil {
			return err
		}
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(name, path); err != nil {
		return err
	}
	ok = true
	return SyncDir(dir)
}

// TempName returns a fresh temporary file name for base.
func TempName(base string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return TempPrefix + strings.TrimPrefix(base, ".") + "-" + hex.EncodeToString(b[:])
}

// SyncDir fsyncs a folder so that a rename or create inside it is durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
