package file

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/internal/store"
)

// kind is how the file store keeps one collection (store.Collection):
// its documents at <collection>/<namespace>/<name>.yaml (nested names) or
// <collection>/<name>.yaml, and, for a collection with history, every
// version as objects/<sha256> and its events in
// history/<collection>/<name>.log. The generic functions below (getDoc,
// listDocs, listNames, putDoc, removeDoc, docHistory) do the rest, with
// the same locking, atomicity, containment and problem reporting for every
// collection; a new collection needs nothing here but its entry in kinds.
type kind[T any] struct{ *store.Collection[T] }

// path returns where the document with a valid name is kept, relative to
// the home.
func (k *kind[T]) path(name string) string {
	return filepath.Join(k.Name, filepath.FromSlash(name)+docExt)
}

// touch checks the namespace folder of a valid name, the first time the
// store reads or writes in it (see CheckLazily).
func (k *kind[T]) touch(s *Store, name string) {
	if k.Nested {
		s.touchNamespace(filepath.Dir(k.path(name)))
	}
}

// logPath returns where the history of a valid name is kept.
func (k *kind[T]) logPath(name string) string {
	return filepath.Join(historyDir, k.Name, filepath.FromSlash(name)+logExt)
}

// docEntry is a stored file found by a scan, with the name its path gives.
type docEntry struct {
	name string
	rel  string
	dir  string // the folder of rel
	base string // the file name of rel
}

// scan lists the stored files of kind k whose names f keeps, sorted by
// name, without opening any of them. Only the namespace folder f names is
// read, so a namespace filter costs only that namespace. A file whose path
// does not give a valid name is a problem, reported when f would keep it.
func (k *kind[T]) scan(ctx context.Context, s *Store, r *os.Root, f store.Query) ([]docEntry, []errs.Problem, error) {
	var (
		entries  []docEntry
		problems []errs.Problem
	)
	addFiles := func(dir, prefix string) {
		for _, de := range s.readFolder(r, dir, &problems) {
			base := de.Name()
			if strings.HasPrefix(base, ".") {
				continue // temporary and editors' files
			}
			stem, ok := strings.CutSuffix(base, docExt)
			if !ok {
				continue // stray files and folders
			}
			name := prefix + stem
			if !f.Keep(name) {
				continue
			}
			rel := filepath.Join(dir, base)
			if de.IsDir() {
				// Where a document's file should be: show refuses it, and
				// a listing says so rather than pass it over.
				problems = append(problems, errs.Problem{File: s.abs(rel), Message: "is a folder, not a regular file"})
				continue
			}
			if err := k.Validate(name); err != nil {
				problems = append(problems, errs.Problem{File: s.abs(rel), Message: "file name does not give a valid name: " + err.Error()})
				continue
			}
			entries = append(entries, docEntry{name: name, rel: rel, dir: dir, base: base})
		}
	}

	switch {
	case !k.Nested:
		addFiles(k.Name, "")
	case f.Namespace != "":
		s.touchNamespace(filepath.Join(k.Name, f.Namespace))
		addFiles(filepath.Join(k.Name, f.Namespace), f.Namespace+"/")
	default:
		des, err := readDir(r, k.Name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, nil
		}
		if err != nil {
			return nil, nil, errs.Wrap(errs.KindInternal, rootError(err), "reading %s", s.abs(k.Name))
		}
		for _, de := range des {
			base := de.Name()
			switch {
			case strings.HasPrefix(base, "."):
			case de.IsDir() || de.Type()&fs.ModeSymlink != 0:
				if err := ctx.Err(); err != nil {
					return nil, nil, store.Interrupted(err)
				}
				s.touchNamespace(filepath.Join(k.Name, base))
				addFiles(filepath.Join(k.Name, base), base+"/")
			case strings.HasSuffix(base, docExt) && f.Namespace == "" && f.Match == nil:
				problems = append(problems, errs.Problem{
					File:    s.abs(filepath.Join(k.Name, base)),
					Message: fmt.Sprintf("%s files belong in a namespace folder: %s/<namespace>/<name>%s", k.Noun, k.Name, docExt),
				})
			}
		}
	}
	slices.SortFunc(entries, func(a, b docEntry) int { return strings.Compare(a.name, b.name) })
	return entries, problems, nil
}

// readDir reads a folder inside the root; the order is the file system's.
// Whatever stands in the folder's place is opened without waiting on it.
// readFolder lists dir: nothing when it does not exist, and nothing but a
// problem when it cannot be read.
func (s *Store) readFolder(r *os.Root, dir string, problems *[]errs.Problem) []fs.DirEntry {
	des, err := readDir(r, dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			*problems = append(*problems, errs.Problem{File: s.abs(dir), Message: "cannot read folder: " + rootErr(err)})
		}
		return nil
	}
	return des
}

func readDir(r *os.Root, dir string) ([]fs.DirEntry, error) {
	d, err := safefile.OpenDirIn(r, dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(-1)
}

// loadInfo reads and decodes the document at rel, which must hold name,
// and returns the metadata of the file it read, taken when it was opened,
// and the bytes it held. Decoding problems come back as they are
// (KindInvalid); a missing file is fs.ErrNotExist.
func (k *kind[T]) loadInfo(s *Store, r *os.Root, name, rel string) (T, fs.FileInfo, []byte, error) {
	var zero T
	data, fi, err := readRegular(r, rel, profile.MaxFileSize)
	if err != nil {
		return zero, nil, nil, err
	}
	v, err := k.decodeAt(s, name, rel, data)
	if err != nil {
		return zero, nil, nil, err
	}
	return v, fi, data, nil
}

// decodeAt decodes the content of the file at rel, which must hold name.
func (k *kind[T]) decodeAt(s *Store, name, rel string, data []byte) (T, error) {
	var zero T
	v, err := k.Decode(data, s.abs(rel))
	if err != nil {
		return zero, err
	}
	if got := k.NameOf(v); got != name {
		return zero, k.misplaced(s, rel, got, name)
	}
	return v, nil
}

// misplaced reports a stored file whose name field (a plan's id) is not
// the name its path gives: a copied or renamed file that would otherwise
// answer for another name.
func (k *kind[T]) misplaced(s *Store, rel, got, want string) error {
	p := errs.Problem{
		File:    s.abs(rel),
		Path:    k.NameKey,
		Message: fmt.Sprintf("is %q, but the file's place in the store is for %q", got, want),
	}
	e := errs.InvalidProblems(fmt.Sprintf("stored %s %s", k.Noun, k.Quote(want)), []errs.Problem{p})
	return e.WithHint("set %s to %q in %s, or move the file to where %q belongs", k.NameKey, want, p.File, got)
}

// readRegular reads a regular file inside the root, refusing one larger
// than limit. In-root links are followed (the root keeps them inside). A
// FIFO, a device or anything else that is not a regular file is refused at
// once, without waiting on it (see safefile).
func readRegular(r *os.Root, rel string, limit int64) ([]byte, fs.FileInfo, error) {
	data, fi, err := safefile.ReadFileIn(r, rel, limit)
	var se *safefile.Error
	if errors.As(err, &se) {
		return nil, nil, badFile(se.Detail)
	}
	return data, fi, err
}

// danglingLink says what stands at rel when reading it found nothing
// there (err is fs.ErrNotExist) because it is a link to nothing: a name
// the store lists but cannot read is a problem to report, not a profile
// that was never stored.
func danglingLink(r *os.Root, rel string, err error) (string, bool) {
	if !errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	fi, lerr := r.Lstat(rel)
	if lerr != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return "", false
	}
	target, lerr := r.Readlink(rel)
	if lerr != nil {
		return "is a link to nothing", true
	}
	return fmt.Sprintf("is a link to %s, which does not exist", target), true
}

// badFile is a stored file the store will not read: too large, or not a
// regular file. It is the file's problem, not the store's.
type badFile string

func (b badFile) Error() string { return string(b) }

// readFailure turns a failure to read a stored file into a problem-bearing
// error: decoding problems pass through; what stands in the file's place
// (not a regular file, too large, a link out of the store) is invalid
// content of the store; anything else is internal.
func (k *kind[T]) readFailure(s *Store, name, rel string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return k.NotFound(name)
	}
	var e *errs.Error
	if errors.As(err, &e) {
		return err
	}
	var bad badFile
	if errors.As(err, &bad) {
		p := errs.Problem{File: s.abs(rel), Message: bad.Error()}
		return errs.InvalidProblems(fmt.Sprintf("stored %s %s", k.Noun, k.Quote(name)), []errs.Problem{p}).
			WithHint("%s must be a regular file of at most %d bytes; move what is there out of the store, then store the %s again", p.File, profile.MaxFileSize, k.Noun)
	}
	if safefile.EscapesRoot(err) {
		// A link out of the store is what stands in the file's place, as
		// a FIFO or a folder would be: the store's content is at fault,
		// not the machine.
		p := errs.Problem{File: s.abs(rel), Message: escapeMessage}
		return errs.InvalidProblems(fmt.Sprintf("stored %s %s", k.Noun, k.Quote(name)), []errs.Problem{p}).
			WithHint("%s", escapeHint(p.File))
	}
	return errs.Wrap(errs.KindInternal, rootError(err), "reading stored %s %s from %s", k.Noun, k.Quote(name), s.abs(rel))
}

// problemsOf returns the problems a failed load reports for a listing.
func problemsOf(file string, err error) []errs.Problem {
	var e *errs.Error
	if errors.As(err, &e) && len(e.Problems) > 0 {
		out := slices.Clone(e.Problems)
		for i := range out {
			if out[i].File == "" {
				out[i].File = file
			}
		}
		return out
	}
	return []errs.Problem{{File: file, Message: rootErr(err)}}
}

// rootErr returns the message of an error from an os.Root operation
// without its Go operation prefix, and in plain words when a link led out
// of the store.
func rootErr(err error) string {
	if safefile.EscapesRoot(err) {
		return escapeMessage
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// rootError is err worded as rootErr words it, still err underneath: what
// the file system said (full, read-only, not allowed) stays in the chain
// for errors.Is, so the command line can say how to put it right.
func rootError(err error) error { return causeError{msg: rootErr(err), err: err} }

type causeError struct {
	msg string
	err error
}

func (e causeError) Error() string { return e.msg }
func (e causeError) Unwrap() error { return e.err }

// escapeMessage words os.Root's refusal of a path that leaves the store.
const escapeMessage = "a link on the way leads outside the store, and the store never follows one out"

// escapeHint says what to do about a link that leads out of the store.
func escapeHint(path string) string {
	return fmt.Sprintf("the store's folders and files must be its own: replace the link at or on the way to %s with a copy of the file or folder it leads to", path)
}

// openFor opens the store's root to read the document name: a name not
// of the collection is invalid, and a store that does not exist holds no
// document of that name.
func (d docs[T]) openFor(ctx context.Context, name string) (*os.Root, error) {
	if err := d.k.CheckName(ctx, name); err != nil {
		return nil, err
	}
	d.k.touch(d.s, name)
	r, err := d.s.openRoot()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, d.k.NotFound(name)
	}
	return r, err
}

// Get implements store.Docs. It opens the one file the name maps to, so
// its cost does not grow with the store.
func (d docs[T]) Get(ctx context.Context, name string) (T, error) {
	v, _, err := d.get(ctx, name, false)
	return v, err
}

var _ store.StoredDigester[*profile.AutomationProfile] = docs[*profile.AutomationProfile]{}

// GetDigest implements store.StoredDigester.
func (d docs[T]) GetDigest(ctx context.Context, name string) (T, string, error) {
	return d.get(ctx, name, true)
}

// get reads the document name and, with digest, the sha256 of its file.
func (d docs[T]) get(ctx context.Context, name string, digest bool) (T, string, error) {
	s, k := d.s, d.k
	var zero T
	r, err := d.openFor(ctx, name)
	if err != nil {
		return zero, "", err
	}
	defer r.Close()
	rel := k.path(name)
	v, fi, data, err := k.loadInfo(s, r, name, rel)
	if err != nil {
		if msg, ok := danglingLink(r, rel, err); ok {
			err = badFile(msg)
		}
		return zero, "", k.readFailure(s, name, rel, err)
	}
	s.touchFile(rel, fi)
	if !digest {
		return v, "", nil
	}
	sum := sha256.Sum256(data)
	return v, hex.EncodeToString(sum[:]), nil
}

// Names implements store.Docs.
func (d docs[T]) Names(ctx context.Context, f store.Query) ([]string, error) {
	s, k := d.s, d.k
	if err := f.Check(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, store.Interrupted(err)
	}
	r, err := s.openRoot()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	entries, _, err := k.scan(ctx, s, r, f)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.name
	}
	return names, nil
}

// list decodes the documents f selects, in parallel (decoding is the
// cost of a listing), and keeps the problems of those that fail. Every file
// is read; one whose content has the digest its entry in the derived cache
// records is taken from the cache instead of being parsed (see cache.go).
func (d docs[T]) list(ctx context.Context, f store.Query) ([]T, []errs.Problem, error) {
	s, k := d.s, d.k
	if err := ctx.Err(); err != nil {
		return nil, nil, store.Interrupted(err)
	}
	r, err := s.openRoot()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	cache := openCache(s, r, k)
	entries, problems, err := k.scan(ctx, s, r, f)
	if err != nil {
		return nil, nil, err
	}

	type result struct {
		v        T
		entry    int               // the cache entry of the name, or -1
		sum      [sha256.Size]byte // the digest of the content read
		fresh    bool              // decoded from the file, not the cache
		problems []errs.Problem
		gone     bool
	}
	results := make([]result, len(entries))
	for i, e := range entries {
		results[i].entry = -1
		if cache != nil {
			if j, ok := cache.lookup(e.name); ok {
				results[i].entry = j
			}
		}
	}
	// Each folder is opened once, and its files by their names in it: a
	// path through the home would walk (open and close) every folder on
	// the way for each file.
	// Past maxOpenDirs folders, the rest are read through r, so that a
	// store of many namespaces never runs the process out of descriptors.
	dirs := map[string]*os.File{}
	opened := 0
	for _, e := range entries {
		if _, ok := dirs[e.dir]; ok {
			continue
		}
		var d *os.File
		if opened < maxOpenDirs {
			if d, err = safefile.OpenDirIn(r, e.dir); err != nil {
				d = nil // its files are read through r, which says why
			} else {
				opened++
			}
		}
		dirs[e.dir] = d
	}
	defer func() {
		for _, d := range dirs {
			if d != nil {
				d.Close()
			}
		}
	}()
	var mu sync.Mutex // guards the cache's bookkeeping
	err = store.Parallel(ctx, len(entries), 8, f.Progress, func(i int) {
		e, res := entries[i], &results[i]
		var (
			data []byte
			err  error
		)
		if d := dirs[e.dir]; d != nil {
			data, err = safefile.ReadFileAt(d, e.base, profile.MaxFileSize)
		}
		if d := dirs[e.dir]; d == nil || errors.Is(err, safefile.ErrLinked) {
			// A link is followed as far as it stays in the store.
			data, _, err = readRegular(r, e.rel, profile.MaxFileSize)
		}
		var se *safefile.Error
		if errors.As(err, &se) {
			err = badFile(se.Detail)
		}
		if msg, ok := danglingLink(r, e.rel, err); ok {
			err = badFile(msg)
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Removed since the scan: the listing shows the store as
			// after that remove, which is no problem of the store.
			res.gone = true
			return
		case err != nil:
			res.problems = problemsOf(s.abs(e.rel), err)
			return
		}
		res.sum = sha256.Sum256(data)
		if res.entry >= 0 {
			mu.Lock()
			payload, ok := cache.check(res.entry, res.sum)
			mu.Unlock()
			if ok {
				if v, err := k.Codec.Read(payload); err == nil {
					res.v = v
					return
				}
			}
		}
		v, err := k.decodeAt(s, e.name, e.rel, data)
		if err != nil {
			res.problems = problemsOf(s.abs(e.rel), err)
		} else {
			res.v, res.fresh = v, true
		}
	})
	if err != nil {
		return nil, nil, err
	}

	var docs []T
	for i, res := range results {
		switch {
		case res.gone:
			if cache != nil {
				cache.drop(entries[i].name)
			}
			continue
		case res.problems != nil:
			problems = append(problems, res.problems...)
			if cache != nil {
				cache.drop(entries[i].name)
			}
			continue
		case cache != nil && res.fresh:
			cache.drop(entries[i].name)
			cache.add(entries[i].name, res.sum, k.Codec.Append(nil, res.v))
		}
		docs = append(docs, res.v)
	}
	if cache != nil {
		cache.save(r, k.Name, k.Codec.Version())
	}
	return docs, problems, nil
}

// maxOpenDirs bounds the folders a listing holds open at once.
const maxOpenDirs = 256

// Put implements store.Docs.
func (d docs[T]) Put(ctx context.Context, v T, update bool) (store.PutResult[T], error) {
	s, k := d.s, d.k
	var out store.PutResult[T]
	name, data, stored, err := k.Prepare(v)
	if err != nil {
		return out, err
	}
	digest := canon.Digest(data)
	k.touch(s, name)
	err = s.mutate(ctx, func(tx *txn) error {
		rel := k.path(name)
		cur, err := currentDoc(tx, k, name, rel)
		if err != nil {
			return err
		}
		if cur.exists && !update {
			return k.Conflict(name)
		}
		// The same content again writes nothing: registering from CI on
		// every run leaves the store and the history as they were. A
		// file placed or edited by hand that its history does not end
		// with is the exception: putting the same content is the person
		// saying it is meant, and its version is recorded (see
		// reconcile), once.
		if cur.ok && canon.Digest(cur.data) == digest {
			out.Replaced, out.Unchanged = cur.value, true
			if !k.History {
				return nil
			}
			if !k.Vouches {
				_, logged, err := reconcile(tx, k, name, cur)
				if err != nil {
					return err
				}
				out.Unchanged = !logged
			}
			// The version in force is kept as an object whatever
			// happened to it since: one deleted or damaged is written
			// again, the file and the history left as they are.
			wrote, err := tx.writeObject(digest, data)
			if wrote && out.Unchanged {
				out.Warnings = append(out.Warnings, restoredWarning(tx, k, name, digest))
			}
			return err
		}
		if err := prepare(tx, k, name); err != nil {
			return err
		}
		if k.History {
			// Room for the line reconcile may add, and this put's own.
			if err := tx.logRoom(k.logPath(name), k.Noun, name, 2); err != nil {
				return err
			}
			if _, _, err := reconcile(tx, k, name, cur); err != nil {
				return err
			}
			if _, err := tx.writeObject(digest, data); err != nil {
				return err
			}
		}
		if err := tx.writeAtomic(rel, data); err != nil {
			return err
		}
		// From here the new version is in place: a failure to log it
		// does not undo the change, and is reported as what it is.
		if k.History {
			if err := tx.appendLog(k.logPath(name), store.HistoryEntry{Digest: digest, Time: tx.now, Event: store.EventPut}); err != nil {
				out.Warnings = append(out.Warnings, unloggedWarning(k, name, "stored", err))
			}
		}
		if cur.ok {
			out.Replaced = cur.value
		}
		return nil
	})
	if err != nil {
		return store.PutResult[T]{}, err
	}
	out.Stored, out.Digest = stored, digest
	return out, nil
}

// Remove implements store.Docs: it removes the document name and returns
// it, with warnings about what the removal could not do after it took
// effect.
func (d docs[T]) Remove(ctx context.Context, name string) (store.RemoveResult[T], error) {
	s, k := d.s, d.k
	var out store.RemoveResult[T]
	if err := k.Validate(name); err != nil {
		return out, err
	}
	k.touch(s, name)
	// Nothing to remove means nothing to lock or create. A writer adding the
	// name meanwhile is ordered after this remove.
	r, err := s.openRoot()
	if errors.Is(err, fs.ErrNotExist) {
		return out, k.NotFound(name)
	}
	if err != nil {
		return out, err
	}
	_, err = r.Lstat(k.path(name))
	r.Close()
	if errors.Is(err, fs.ErrNotExist) {
		return out, k.NotFound(name)
	}
	err = s.mutate(ctx, func(tx *txn) error {
		rel := k.path(name)
		cur, err := currentDoc(tx, k, name, rel)
		if err != nil {
			return err
		}
		if !cur.exists {
			return k.NotFound(name)
		}
		if !cur.ok {
			e := errs.Wrap(errs.KindInvalid, cur.err, "stored %s %s cannot be read, so it is not removed", k.Noun, k.Quote(name))
			return e.About(errs.AboutUnreadable, k.Noun, tx.s.abs(rel))
		}
		if err := prepare(tx, k, name); err != nil {
			return err
		}
		var digest string
		if k.History {
			if err := tx.logRoom(k.logPath(name), k.Noun, name, 2); err != nil {
				return err
			}
			if digest, _, err = reconcile(tx, k, name, cur); err != nil {
				return err
			}
		}
		if err := tx.removeFile(rel); err != nil {
			return err
		}
		out.Removed = cur.value
		if k.History {
			if err := tx.appendLog(k.logPath(name), store.HistoryEntry{Digest: digest, Time: tx.now, Event: store.EventRemove}); err != nil {
				out.Warnings = append(out.Warnings, unloggedWarning(k, name, "removed", err))
			}
		}
		return nil
	})
	if err != nil {
		return store.RemoveResult[T]{}, err
	}
	return out, nil
}

// unloggedWarning reports a change that took effect but whose history line
// could not be written. The next change of the name records it (see
// reconcile), as it does after a writer killed at that moment.
func unloggedWarning[T any](k *kind[T], name, done string, err error) string {
	return fmt.Sprintf("%s %q was %s, but its history could not be recorded (%v); the next change of %q records it",
		k.Noun, name, done, err, name)
}

// restoredWarning tells of an unchanged put that found the object of the
// version in force missing or damaged, and wrote it again: the document
// and its history were not written, but the store was.
func restoredWarning[T any](tx *txn, k *kind[T], name, digest string) string {
	return fmt.Sprintf("%s %q is unchanged, but the object of its version, %s, was missing or damaged, and was written again",
		k.Noun, name, tx.s.abs(filepath.Join(objectsDir, digest)))
}

// current is the stored state of one name inside a mutation.
type current[T any] struct {
	exists bool        // a file is there
	ok     bool        // it decoded and holds the right name
	value  T           // the decoded document when ok
	data   []byte      // its bytes when exists
	info   fs.FileInfo // its metadata when exists
	err    error       // why it is not ok
}

// currentDoc reads what is stored for name, refusing anything but a regular
// file (a link is never followed for a write or a delete).
func currentDoc[T any](tx *txn, k *kind[T], name, rel string) (current[T], error) {
	var cur current[T]
	fi, err := tx.lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return cur, nil
	}
	if err != nil {
		return cur, err
	}
	if !fi.Mode().IsRegular() {
		return cur, tx.refuse(rel, fi, "a regular file")
	}
	data, _, err := readRegular(tx.root, rel, profile.MaxFileSize)
	cur.exists, cur.info = true, fi
	if err != nil {
		cur.err = err
		return cur, nil
	}
	cur.data = data
	v, err := k.Decode(data, tx.s.abs(rel))
	if err == nil && k.NameOf(v) != name {
		err = k.misplaced(tx.s, rel, k.NameOf(v), name)
	}
	if err != nil {
		cur.err = err
		return cur, nil
	}
	cur.ok, cur.value = true, v
	return cur, nil
}

// History implements store.Docs.
func (d docs[T]) History(ctx context.Context, name string) ([]store.HistoryEntry, error) {
	var entries []store.HistoryEntry
	err := d.readHistory(ctx, name, func(f *os.File, fi fs.FileInfo, file string) error {
		data, err := safefile.ReadAll(f, fi, file, maxLogSize)
		if err != nil {
			return err
		}
		var problems []errs.Problem
		entries, _, problems = parseLog(data, file)
		if len(problems) > 0 {
			return d.damagedHistory(name, file, problems)
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case entries == nil:
		return []store.HistoryEntry{}, nil
	}
	return entries, nil
}

// LastEvent implements store.Docs. Only the end of the log is read (see
// readTail), so a decision costs the same whatever the length of the
// history; its last line must be an entry.
func (d docs[T]) LastEvent(ctx context.Context, name string) (store.HistoryEntry, bool, error) {
	var t logTail
	err := d.readHistory(ctx, name, func(f *os.File, fi fs.FileInfo, file string) error {
		var err error
		t, err = readTail(f, fi.Size(), false)
		var bad badLastLine
		if errors.As(err, &bad) {
			return d.damagedHistory(name, file, []errs.Problem{{File: file, Message: bad.Error()}})
		}
		return err
	})
	return t.last, t.found && err == nil, err
}

// readHistory opens the history log of name and gives it to read: a
// document placed by hand, with no log yet, has no history (read is not
// called), a name the store never held is not found.
func (d docs[T]) readHistory(ctx context.Context, name string, read func(f *os.File, fi fs.FileInfo, file string) error) error {
	s, k := d.s, d.k
	r, err := d.openFor(ctx, name)
	if err != nil {
		return err
	}
	defer r.Close()
	rel := k.logPath(name)
	if k.Nested {
		// The log's namespace folder, as the document's: a verdict that
		// reads the log (which digests a name has held) is only as good
		// as who may write it.
		s.touchNamespace(filepath.Dir(rel))
	}
	f, fi, err := safefile.OpenIn(r, rel)
	if err == nil {
		defer f.Close()
		s.touchFile(rel, fi)
		err = read(f, fi, s.abs(rel))
	}
	if errors.Is(err, fs.ErrNotExist) {
		// A document placed by hand has no history until a writer records it.
		if _, err := r.Stat(k.path(name)); err == nil {
			return nil
		}
		return k.NotFound(name)
	}
	var se *safefile.Error
	if errors.As(err, &se) {
		p := errs.Problem{File: s.abs(rel), Message: se.Detail}
		e := errs.InvalidProblems(fmt.Sprintf("history of %s %q", k.Noun, name), []errs.Problem{p})
		if errors.Is(err, safefile.ErrTooLarge) {
			return e.WithHint("move %s out of the store, keeping it as the record of the older versions; the next change of %s starts a new history with the version in force", p.File, name)
		}
		return e.WithHint("%s must be a regular file of the store's own; move what is there out of the store, and the next change of %s starts its history afresh", p.File, name)
	}
	var e *errs.Error
	if safefile.EscapesRoot(err) {
		p := errs.Problem{File: s.abs(rel), Message: escapeMessage}
		return errs.InvalidProblems(fmt.Sprintf("history of %s %q", k.Noun, name), []errs.Problem{p}).
			WithHint("%s", escapeHint(p.File))
	}
	if err != nil && !errors.As(err, &e) {
		return errs.Wrap(errs.KindInternal, rootError(err), "reading the history of %s %q", k.Noun, name)
	}
	return err
}

// damagedHistory reports lines of the history log file of name that are
// not entries.
func (d docs[T]) damagedHistory(name, file string, problems []errs.Problem) error {
	return errs.InvalidProblems(fmt.Sprintf("history of %s %q", d.k.Noun, name), problems).
		WithHint("the log is the store's own record, written one line per change: restore %s from a backup, or move it out of the store, and the next change of %s starts its history afresh", file, name)
}
