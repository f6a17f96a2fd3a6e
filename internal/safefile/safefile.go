// Package safefile opens the files agents keeps for itself (the store's
// documents, objects, history logs, journal and lock, config.yaml, a
// project's agents.yaml, the safety pack in force and its mastery report)
// so that nothing placed where one of them is expected can make a command
// hang or write outside its home.
//
// Opening a FIFO for reading blocks until some process opens it for
// writing, and opening some devices blocks too, so a file is opened with
// O_NONBLOCK, checked with fstat on the descriptor it opened (not on the
// path, which may be swapped in between), and refused unless it is a
// regular file; only then is O_NONBLOCK cleared. Opening never waits, so a
// refusal comes at once, naming the file and what it is.
//
// Files changed in place (history logs, which are appended to) are opened
// for writing only when the name is not a link, the file is a regular file,
// and it has exactly one link: a hard link would carry the write to a file
// elsewhere.
//
// Files named on the command line are held to the same rule: standard
// input is read by naming "-" (add -c -), never through a path that could
// be a FIFO with no writer.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
)

// ErrNotRegular is the error (see Error) of a file that is not a regular
// file: a FIFO, a device, a socket, a directory or a link.
var ErrNotRegular = errors.New("not a regular file")

// ErrLinked is the error of a file opened for writing that has more than
// one hard link, or whose name is a symbolic link.
var ErrLinked = errors.New("a link")

// ErrTooLarge is the error of a file over the limit given to ReadFile.
var ErrTooLarge = errors.New("too large")

// Error is a refusal to open or read a file. Detail says why without the
// file's name ("is a FIFO, not a regular file"), so a caller can put it in
// a problem whose file is given apart.
type Error struct {
	// Path is the name the file was opened by.
	Path string
	// Detail says what is wrong, starting with a verb.
	Detail string
	// Err is ErrNotRegular, ErrLinked or ErrTooLarge.
	Err error
}

func (e *Error) Error() string { return e.Path + " " + e.Detail }

// Unwrap returns the sentinel error.
func (e *Error) Unwrap() error { return e.Err }

// Describe names the type of a file for a message: "a FIFO", "a socket", "a
// character device", "a block device", "a directory", "a symbolic link", "a
// regular file", or "a special file".
func Describe(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}

func notRegular(path string, m fs.FileMode) *Error {
	return &Error{Path: path, Detail: "is " + Describe(m) + ", not a regular file", Err: ErrNotRegular}
}

// Open opens the file at path for reading, following links, without ever
// waiting, and refuses anything but a regular file. The FileInfo is that of
// the file opened.
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|readFlags, 0)
	if err != nil {
		return nil, nil, explain(err, path, func() (fs.FileInfo, error) { return os.Stat(path) })
	}
	return checkOpened(f, path)
}

// OpenIn is Open for a name inside root: links are followed only as far as
// they stay inside it.
func OpenIn(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|readFlags, 0)
	if err != nil {
		return nil, nil, explain(err, name, func() (fs.FileInfo, error) { return root.Stat(name) })
	}
	return checkOpened(f, name)
}

// ReadFile reads the regular file at path (see Open), refusing one larger
// than limit bytes without reading it, and reading no more than limit+1
// bytes of one that grows while it is read.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, fi, path, limit)
}

// ReadFileInfo is ReadFile that also returns the metadata of the file it
// read, taken when it was opened: what a check made by path afterwards can
// compare with (os.SameFile), to know it checked the file that was read.
func ReadFileInfo(path string, limit int64) ([]byte, fs.FileInfo, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := readAll(f, fi, path, limit)
	return data, fi, err
}

// ReadFileIn is ReadFile for a name inside root; it also returns the
// metadata of the file it read, taken when it was opened.
func ReadFileIn(root *os.Root, name string, limit int64) ([]byte, fs.FileInfo, error) {
	f, fi, err := OpenIn(root, name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := readAll(f, fi, name, limit)
	return data, fi, err
}

// ReadAll reads f, opened by Open or OpenIn with the metadata fi they
// returned, as ReadFile reads: one larger than limit bytes is refused
// without being read.
func ReadAll(f *os.File, fi fs.FileInfo, name string, limit int64) ([]byte, error) {
	return readAll(f, fi, name, limit)
}

func readAll(f *os.File, fi fs.FileInfo, name string, limit int64) ([]byte, error) {
	if fi.Size() > limit {
		return nil, tooLarge(name, fi.Size(), limit)
	}
	// Sized from fstat, with room to see the end (or growth) in one read.
	buf := make([]byte, 0, fi.Size()+512)
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, &Error{Path: name, Detail: growMessage(limit), Err: ErrTooLarge}
		}
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, 4096)
		}
	}
}

func growMessage(limit int64) string {
	return fmt.Sprintf("grew over the %d-byte limit while being read", limit)
}

// ReadFileAt reads the regular file name, a single path element, in the
// open folder dir, as ReadFile does: without waiting, and nothing but a
// regular file of at most limit bytes. A symbolic link is not followed: it
// is refused with an *Error wrapping ErrLinked, so that the caller can read
// it some other way (through an os.Root, which keeps links inside).
func ReadFileAt(dir *os.File, name string, limit int64) ([]byte, error) {
	return readFileAt(dir, name, limit)
}

func tooLarge(name string, size, limit int64) *Error {
	return &Error{Path: name, Detail: fmt.Sprintf("is %d bytes, over the %d-byte limit", size, limit), Err: ErrTooLarge}
}

// OpenDirIn opens the folder name inside root for reading its entries,
// without waiting on whatever may be there instead.
func OpenDirIn(root *os.Root, name string) (*os.File, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|dirFlags, 0)
	if err != nil {
		return nil, err
	}
	if err := setBlocking(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadDir returns the entries of the folder at path, as os.ReadDir does,
// without waiting on whatever may be there instead of a folder.
func ReadDir(path string) ([]fs.DirEntry, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|dirFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := setBlocking(f); err != nil {
		return nil, err
	}
	return f.ReadDir(-1)
}

// OpenRoot opens the folder at path as an os.Root, following links (the
// folder may be a link its user chose). os.OpenRoot would wait on a FIFO in
// the folder's place; the folder is checked first, so only a swap in
// between could make it wait.
func OpenRoot(path string) (*os.Root, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &Error{Path: path, Detail: "is " + Describe(fi.Mode()) + ", not a folder", Err: ErrNotRegular}
	}
	return os.OpenRoot(path)
}

// FS returns a file system of the files inside root, for code written
// against fs.FS: its Open is OpenIn, so it never waits and yields only
// regular files.
func FS(root *os.Root) fs.FS { return rootFS{root} }

type rootFS struct{ r *os.Root }

func (r rootFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, _, err := OpenIn(r.r, name)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// OpenWritableIn opens name inside root for changing it in place (flag is
// os.O_WRONLY or os.O_RDWR, with os.O_APPEND, os.O_CREATE or os.O_TRUNC as
// wanted). It refuses a name that is a symbolic link, a file that is not a
// regular file, and a file with more than one hard link, so that a write
// never reaches a file elsewhere; a refusal changes nothing (os.O_TRUNC is
// applied only once the file has passed).
func OpenWritableIn(root *os.Root, name string, flag int, perm fs.FileMode) (*os.File, error) {
	before, err := root.Lstat(name)
	switch {
	case err == nil && before.Mode()&fs.ModeSymlink != 0:
		return nil, &Error{Path: name, Detail: "is a symbolic link, not a regular file", Err: ErrLinked}
	case err == nil && !before.Mode().IsRegular():
		return nil, notRegular(name, before.Mode())
	case err != nil && (!errors.Is(err, fs.ErrNotExist) || flag&os.O_CREATE == 0):
		return nil, err
	case err != nil:
		before = nil
	}
	f, err := root.OpenFile(name, flag&^os.O_TRUNC|writeFlags, perm)
	if err != nil {
		return nil, explain(err, name, func() (fs.FileInfo, error) { return root.Lstat(name) })
	}
	fail := func(err error) (*os.File, error) {
		f.Close()
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if !fi.Mode().IsRegular() {
		return fail(notRegular(name, fi.Mode()))
	}
	if n := links(fi); n != 1 {
		return fail(&Error{Path: name, Detail: fmt.Sprintf("has %d hard links: writing to it would change another file too", n), Err: ErrLinked})
	}
	// The file opened must be the one the name gave, and the name must not
	// have become a link since: os.Root follows links inside the root.
	after, err := root.Lstat(name)
	if err != nil {
		return fail(err)
	}
	if !os.SameFile(fi, after) || (before != nil && !os.SameFile(before, fi)) {
		return fail(&Error{Path: name, Detail: "was replaced while it was being opened", Err: ErrLinked})
	}
	if err := setBlocking(f); err != nil {
		return fail(err)
	}
	if flag&os.O_TRUNC != 0 {
		if err := f.Truncate(0); err != nil {
			return fail(err)
		}
	}
	return f, nil
}

// OpenLock opens (creating it when absent) the lock file at path, to take
// an advisory lock on. It never follows a link and never waits, and refuses
// anything but a regular file.
func OpenLock(path string, perm fs.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE|lockFlags, perm)
	if err != nil {
		return nil, explain(err, path, func() (fs.FileInfo, error) { return os.Lstat(path) })
	}
	f, _, err = checkOpened(f, path)
	return f, err
}

// OpenExistingLock opens an existing lock file to wait on it, as
// OpenLock does but without creating it: fs.ErrNotExist when it is not
// there.
func OpenExistingLock(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|lockFlags, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, explain(err, path, func() (fs.FileInfo, error) { return os.Lstat(path) })
	}
	f, _, err = checkOpened(f, path)
	return f, err
}

// checkOpened refuses an opened file that is not a regular file and
// clears O_NONBLOCK on one that is.
func checkOpened(f *os.File, name string) (*os.File, fs.FileInfo, error) {
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = notRegular(name, fi.Mode())
	}
	if err == nil {
		err = setBlocking(f)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// explain turns an open that failed because of what the file is (a socket
// cannot be opened, a FIFO without a reader cannot be opened for writing
// without waiting, a link was not followed) into a refusal that says so.
// Other errors are returned as they are.
func explain(err error, name string, stat func() (fs.FileInfo, error)) error {
	if !typeError(err) {
		return err
	}
	fi, serr := stat()
	if serr != nil || fi.Mode().IsRegular() {
		return err
	}
	return notRegular(name, fi.Mode())
}

// EscapesRoot reports whether err is os.Root refusing a path that leaves
// it, through ".." or a link. The os package does not export that error,
// and its text ("path escapes from parent") says nothing a user can act
// on: callers word it in their own terms.
func EscapesRoot(err error) bool {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return err != nil && err.Error() == rootEscapeText
}

const rootEscapeText = "path escapes from parent"

// Exists reports whether anything stands at path (a link too, whatever it
// names), without opening it.
func Exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
