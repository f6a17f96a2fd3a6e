package file

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/internal/store"
)

// maxLogSize bounds a history log read: over a hundred thousand versions.
const maxLogSize = 16 << 20

// txn is one mutation in progress: it holds the store lock, and every file
// it writes or removes goes through its root.
type txn struct {
	s       *Store
	root    *os.Root
	now     time.Time
	dirs    map[string]bool // folders checked to be real folders
	journal *os.File        // .pending, opened on the first temporary file
}

// mutate runs fn as one mutation: it creates the home if needed, takes the
// store lock for the whole of fn (so fn's reads, checks and writes are one
// step for every other writer), and first cleans the temporary files a
// writer killed mid-write left behind.
//
// A signal cancels ctx rather than ending the process (asking for Done
// says so to package interrupt): a change cancelled before it writes
// anything stops, and one that has begun to write is written whole, the
// document with its history line, before the command ends.
func (s *Store) mutate(ctx context.Context, fn func(tx *txn) error) (err error) {
	_ = ctx.Done()
	if err := ctx.Err(); err != nil {
		return store.Interrupted(err)
	}
	if err := os.MkdirAll(s.home, 0o755); err != nil {
		return errs.Wrap(errs.KindInternal, err, "creating the store")
	}
	r, err := safefile.OpenRoot(s.home)
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "opening the store %s", s.home)
	}
	defer r.Close()
	unlock, err := s.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	tx := &txn{s: s, root: r, now: s.now().UTC().Round(0), dirs: map[string]bool{}}
	defer tx.finish()
	if err := tx.cleanPending(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return store.Interrupted(err) // nothing of fn's written yet
	}
	return fn(tx)
}

// lock takes the store's advisory lock, polling with backoff until the lock
// timeout or the context ends. The lock is held on an open file, so the
// kernel releases it when its holder exits, however it exits: a killed
// writer never blocks the next one. The lock file is opened without waiting
// and must be a regular file (or absent, and then created): a FIFO, a
// device or a link in its place is refused at once, whatever the timeout.
func (s *Store) lock(ctx context.Context) (unlock func(), err error) {
	path := s.abs(lockName)
	fl, err := openLock(path)
	if err != nil {
		return nil, lockOpenError(path, err)
	}
	try := func() (bool, error) {
		ok, err := fl.tryLock()
		if err != nil {
			return false, errs.Wrap(errs.KindInternal, err, "taking the store lock %s", path).
				WithHint("%s must be a regular file the store can open; remove anything else by hand", path)
		}
		return ok, nil
	}
	if err := s.pollLock(ctx, path, try, 100*time.Millisecond, "the store is locked by another writer"); err != nil {
		fl.close()
		return nil, err
	}
	return fl.close, nil
}

// pollLock calls try until it takes the lock at path, polling with a
// backoff (doubling up to maxDelay, with jitter, which keeps waiters from
// polling in step) until the lock timeout, when it gives up with the
// error locked begins, or until the context ends. An error of try's ends
// it at once.
func (s *Store) pollLock(ctx context.Context, path string, try func() (bool, error), maxDelay time.Duration, locked string) error {
	deadline := time.Now().Add(s.lockTimeout)
	delay := time.Millisecond
	for {
		ok, err := try()
		if err != nil || ok {
			return err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return errs.New(errs.KindLocked, "%s: gave up waiting for %s after %s", locked, path, s.lockTimeout).
				About(errs.AboutLock, path)
		}
		t := time.NewTimer(min(delay+rand.N(delay), left))
		select {
		case <-ctx.Done():
			t.Stop()
			return errs.Interrupted(ctx.Err(), "interrupted while waiting for the store lock %s", path)
		case <-t.C:
		}
		delay = min(delay*2, maxDelay)
	}
}

// Settle implements store.Settler: it returns once no writer holds the
// store lock, waiting no longer than the lock timeout. A writer puts a
// document in place and then appends its history line, under the lock; a
// reader, which takes no lock, may find the two out of step, and reads
// them again once the writer is done. It writes nothing: with no lock
// file, no writer has ever run.
func (s *Store) Settle(ctx context.Context) error {
	path := s.abs(lockName)
	f, err := safefile.OpenExistingLock(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return lockOpenError(path, err)
	}
	fl := lockOn(f, path)
	defer fl.close()
	try := func() (bool, error) {
		ok, err := fl.tryShared()
		if err != nil {
			return false, errs.Wrap(errs.KindInternal, err, "waiting on the store lock %s", path)
		}
		return ok, nil
	}
	return s.pollLock(ctx, path, try, 20*time.Millisecond, "a change to the store is still being written")
}

// openLock opens the lock file (see safefile.OpenLock): never through a
// link, never waiting on a FIFO or device, only a regular file, whichever
// way the platform then locks it.
func openLock(path string) (*fileLock, error) {
	f, err := safefile.OpenLock(path, 0o644)
	if err != nil {
		return nil, err
	}
	return lockOn(f, path), nil
}

// lockOpenError reports a lock file that cannot be opened.
func lockOpenError(path string, err error) error {
	var se *safefile.Error
	if errors.As(err, &se) {
		return errs.New(errs.KindInternal, "cannot take the store lock: %s %s", path, se.Detail).
			WithHint("the store's lock must be a regular file of its own; remove %s and the next change creates it again", path)
	}
	e := errs.Wrap(errs.KindInternal, rootError(err), "taking the store lock %s", path).About(errs.AboutHomeChange, filepath.Dir(path), "")
	if errors.Is(err, syscall.EROFS) {
		return e // the command line says what to do
	}
	if errors.Is(err, fs.ErrPermission) {
		if _, serr := os.Lstat(path); errors.Is(serr, fs.ErrNotExist) {
			// Nothing there to remove: the folder does not let this user
			// create the lock, so it cannot take any change either.
			return e.WithHint("%s is not writable by this user: run agents as a user who may write the store, or change its permissions", filepath.Dir(path))
		}
	}
	return e.WithHint("%s must be a regular file the store can open; remove anything else by hand", path)
}

// finish forgets the temporary files this mutation started: each was
// renamed over its target or removed. The journal is removed rather than
// emptied, so it is never written in place.
func (tx *txn) finish() {
	if tx.journal != nil {
		_ = tx.journal.Close()
		_ = tx.root.Remove(pendingName)
	}
}

// cleanPending removes the temporary files that the journal says an earlier
// writer started and did not finish (it was killed), then removes the
// journal. Only names of temporary files are removed, never a link's
// target. The journal is read only when it is a regular file, and removed
// by name whatever it is: a link, or a second name of a file elsewhere,
// loses that name and the file it named is left as it was.
func (tx *txn) cleanPending() error {
	fi, err := tx.root.Lstat(pendingName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return tx.ioErr("reading", pendingName, err)
	}
	if fi.Mode().IsRegular() && fi.Size() > 0 {
		data, _, err := readRegular(tx.root, pendingName, 1<<20)
		if err == nil {
			for line := range strings.Lines(string(data)) {
				rel := filepath.FromSlash(strings.TrimSpace(line))
				if isTempPath(rel) {
					_ = tx.root.Remove(rel) // gone already when the writer got as far as its rename
				}
			}
		}
	}
	if err := tx.root.Remove(pendingName); err != nil && !errors.Is(err, fs.ErrNotExist) {
		if !fi.Mode().IsRegular() {
			return tx.refuse(pendingName, fi, "a regular file")
		}
		return tx.ioErr("removing", pendingName, err)
	}
	return nil
}

// isTempPath reports whether rel names a temporary file inside the store.
func isTempPath(rel string) bool {
	return rel != "" && filepath.IsLocal(rel) && filepath.Clean(rel) == rel &&
		strings.HasPrefix(filepath.Base(rel), tempPrefix)
}

// note records a temporary file in the journal before it is created, so
// the next writer can remove it if this one is killed. The journal is
// created afresh (cleanPending removed any earlier one), never opened as
// found, so nothing placed there can take the write elsewhere.
func (tx *txn) note(tmp string) error {
	if tx.journal == nil {
		f, err := tx.root.OpenFile(pendingName, os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return tx.ioErr("creating", pendingName, err)
		}
		tx.journal = f
	}
	if _, err := tx.journal.WriteString(filepath.ToSlash(tmp) + "\n"); err != nil {
		return tx.ioErr("writing", pendingName, err)
	}
	return nil
}

// lstat describes rel without following a final link.
func (tx *txn) lstat(rel string) (fs.FileInfo, error) {
	fi, err := tx.root.Lstat(rel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, tx.ioErr("reading", rel, err)
	}
	return fi, err
}

// ensureDir makes sure rel and its parents are real folders, creating the
// missing ones. A link in their place is refused: a write never goes
// through one, even when it stays inside the store.
func (tx *txn) ensureDir(rel string) error {
	if rel == "." || tx.dirs[rel] {
		return nil
	}
	if err := tx.ensureDir(filepath.Dir(rel)); err != nil {
		return err
	}
	fi, err := tx.lstat(rel)
	switch {
	case err == nil && !fi.IsDir():
		return tx.refuse(rel, fi, "a folder")
	case errors.Is(err, fs.ErrNotExist):
		if err := tx.root.Mkdir(rel, 0o755); err != nil {
			return tx.ioErr("creating", rel, err)
		}
		if err := tx.syncDir(filepath.Dir(rel)); err != nil {
			return err
		}
	case err != nil:
		return err
	}
	tx.dirs[rel] = true
	return nil
}

// prepare checks or creates every folder a mutation of name in kind k
// writes to, before anything is written, so a refused folder stops the
// mutation before it has changed anything.
func prepare[T any](tx *txn, k *kind[T], name string) error {
	dirs := []string{filepath.Dir(k.path(name))}
	if k.History {
		dirs = append(dirs, objectsDir, filepath.Dir(k.logPath(name)))
	}
	for _, d := range dirs {
		if err := tx.ensureDir(d); err != nil {
			return err
		}
	}
	return nil
}

// writeAtomic replaces rel with data so that a reader sees the old content
// or the new, never a mix, and a crash leaves one of them: the data goes to
// a temporary file in the same folder, is synced, and is renamed over rel;
// then the folder is synced so the rename itself survives a power loss.
func (tx *txn) writeAtomic(rel string, data []byte) (err error) {
	dir := filepath.Dir(rel)
	tmp := filepath.Join(dir, tempPrefix+crand.Text())
	if err := tx.note(tmp); err != nil {
		return err
	}
	f, err := tx.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return tx.ioErr("writing", rel, err) // through a temporary file, gone again
	}
	defer func() {
		if err != nil {
			_ = tx.root.Remove(tmp)
		}
	}()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return tx.ioErr("writing", rel, err) // through a temporary file, gone again
	}
	if h := tx.s.hooks.beforeRename; h != nil {
		h(tmp, rel)
	}
	if err = tx.root.Rename(tmp, rel); err != nil {
		return tx.ioErr("replacing", rel, err)
	}
	return tx.syncDir(dir)
}

// removeFile removes rel (a link is removed, not followed) and syncs its
// folder.
func (tx *txn) removeFile(rel string) error {
	if err := tx.root.Remove(rel); err != nil {
		return tx.ioErr("removing", rel, err)
	}
	return tx.syncDir(filepath.Dir(rel))
}

// syncDir makes the entries of folder rel durable. Windows cannot sync a
// folder, and its renames are durable without it.
func (tx *txn) syncDir(rel string) error {
	d, err := safefile.OpenDirIn(tx.root, rel)
	if err == nil {
		err = d.Sync()
		d.Close()
	}
	if err != nil && runtime.GOOS != "windows" {
		return tx.ioErr("syncing", rel, err)
	}
	return nil
}

// writeObject stores data as objects/<digest> unless a file there holds
// it already, and reports whether it wrote it. Objects never change, but a
// file under a digest's name may not be that object (damaged, or placed
// there by hand): one whose content is not data is replaced, atomically
// as every write, so history never cites an object holding something
// else. A link or anything else that is not a regular file is refused.
func (tx *txn) writeObject(digest string, data []byte) (wrote bool, err error) {
	rel := filepath.Join(objectsDir, digest)
	fi, err := tx.lstat(rel)
	switch {
	case err == nil && fi.Mode().IsRegular():
		if holds(tx.root, rel, data) {
			return false, nil
		}
	case err == nil:
		return false, tx.refuse(rel, fi, "a regular file")
	case !errors.Is(err, fs.ErrNotExist):
		return false, err
	}
	if err := tx.ensureDir(objectsDir); err != nil {
		return false, err
	}
	return true, tx.writeAtomic(rel, data)
}

// holds reports whether the file rel holds exactly data. A file of another
// size is not read; one that cannot be read does not hold it, and is
// written again.
func holds(r *os.Root, rel string, data []byte) bool {
	got, _, err := safefile.ReadFileIn(r, rel, int64(len(data)))
	return err == nil && bytes.Equal(got, data)
}

// openLog opens a history log for changing it in place, refusing a link, a
// file that is not a regular file and a file with other hard links (see
// safefile.OpenWritableIn): the write would land elsewhere. Without create,
// a missing log is (nil, nil).
func (tx *txn) openLog(rel string, create bool) (*os.File, error) {
	flag := os.O_RDWR | os.O_APPEND
	if create {
		flag |= os.O_CREATE
	}
	f, err := safefile.OpenWritableIn(tx.root, rel, flag, 0o644)
	var se *safefile.Error
	switch {
	case err == nil:
		return f, nil
	case !create && errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.As(err, &se):
		return nil, tx.refuseFile(rel, se.Detail)
	}
	return nil, tx.ioErr("opening", rel, err)
}

// readLog returns the entries of a history log. A last line without its
// newline is what a writer killed mid-append leaves: it is cut off here,
// under the lock, so the next append starts on a line of its own. Lines
// that do not parse are skipped: a damaged history must not stop writes
// (ProfileHistory reports them). The log is opened as for writing, so a
// log the mutation could not append to is refused before anything changes.
func (tx *txn) readLog(rel string) ([]store.HistoryEntry, error) {
	f, err := tx.openLog(rel, false)
	if f == nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxLogSize+1))
	if err == nil && len(data) > maxLogSize {
		err = fmt.Errorf("over the %d-byte limit", maxLogSize)
	}
	if err != nil {
		return nil, tx.ioErr("reading", rel, err)
	}
	entries, complete, _ := parseLog(data, tx.s.abs(rel))
	if complete < len(data) {
		err := f.Truncate(int64(complete))
		if err == nil {
			err = f.Sync()
		}
		if err != nil {
			return nil, tx.ioErr("repairing", rel, err)
		}
	}
	return entries, nil
}

// lastLogEntry returns the last entry of a history log, reading it from
// its end (see readTail): a writer needs no more, however long the log.
// Lines that do not parse are passed over, so a damaged history does not
// stop writes. A last line without its newline is what a writer killed
// mid-append leaves: it is cut off here, under the lock, so the next
// append starts on a line of its own. The log is opened as for writing,
// so a log the mutation could not append to is refused before anything
// changes.
func (tx *txn) lastLogEntry(rel string) (store.HistoryEntry, bool, error) {
	f, err := tx.openLog(rel, false)
	if f == nil {
		return store.HistoryEntry{}, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return store.HistoryEntry{}, false, tx.ioErr("reading", rel, err)
	}
	t, err := readTail(f, fi.Size(), true)
	if err != nil {
		return store.HistoryEntry{}, false, tx.ioErr("reading", rel, err)
	}
	if t.complete < fi.Size() {
		err := f.Truncate(t.complete)
		if err == nil {
			err = f.Sync()
		}
		if err != nil {
			return store.HistoryEntry{}, false, tx.ioErr("repairing", rel, err)
		}
	}
	return t.last, t.found, nil
}

// logRoom refuses a change that would append up to lines entries to the
// history log rel past maxLogSize, the most a reader of a whole history
// (history, store copy, the check of what a plan cites) reads. It runs
// before the change writes anything, so a refused change leaves the store
// as it was, and every log stays readable.
func (tx *txn) logRoom(rel, noun, name string, lines int) error {
	fi, err := tx.lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.Size()+int64(lines*maxEntryLen) <= maxLogSize {
		return nil
	}
	path := tx.s.abs(rel)
	return errs.New(errs.KindInternal, "the history of %s %q is full: %s holds %d bytes, and this change would take it past the %d bytes a history is read up to; nothing was changed", noun, name, path, fi.Size(), maxLogSize).
		WithHint("move %s out of the store, keeping it as the record of the older versions; the next change of %s starts a new history with the version in force", path, name)
}

// appendLog appends one entry to a history log as a single write of one
// line, and syncs it. A write that fails part-way (a full disk, a file size
// limit) is cut back off, so a torn last line can only come from a writer
// that was killed.
func (tx *txn) appendLog(rel string, e store.HistoryEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "encoding a history entry")
	}
	line = append(line, '\n')
	_, err = tx.lstat(rel)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := tx.openLog(rel, true)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err == nil {
		if _, err = f.Write(line); err == nil {
			err = f.Sync()
		}
		if err != nil {
			if terr := f.Truncate(fi.Size()); terr == nil {
				_ = f.Sync()
			}
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return tx.ioErr("appending to", rel, err)
	}
	if !existed {
		return tx.syncDir(filepath.Dir(rel))
	}
	return nil
}

// reconcile brings the history of name up to date with what is stored
// before a mutation adds its own entry, and returns the digest of the
// stored version (if it is readable), and whether the log gained an entry.
// The log lags the files when a writer was killed between its rename and
// its append, and when a file was placed or edited by hand; the missing
// version is then recorded, as an object and a put stamped with the file's
// modification time (or a remove, when the file is gone).
func reconcile[T any](tx *txn, k *kind[T], name string, cur current[T]) (digest string, logged bool, err error) {
	logRel := k.logPath(name)
	last, found, err := tx.lastLogEntry(logRel)
	if err != nil {
		return "", false, err
	}
	if !cur.ok {
		if !cur.exists && found && last.Event == store.EventPut {
			if err := tx.logRoom(logRel, k.Noun, name, 1); err != nil {
				return "", false, err
			}
			e := store.HistoryEntry{Digest: last.Digest, Time: tx.now, Event: store.EventRemove}
			return "", true, tx.appendLog(logRel, e)
		}
		return "", false, nil
	}
	if stored := canon.Digest(cur.data); found && last.Puts(stored) {
		return stored, false, nil
	}
	data, _, err := k.Encode(cur.value)
	if err != nil {
		return "", false, err
	}
	digest = canon.Digest(data)
	if found && last.Puts(digest) {
		return digest, false, nil
	}
	if k.Vouches {
		// A document its history does not end with is not the store's,
		// whatever brought it there (a writer killed before its history
		// line, or a hand): it is never recorded as a version, so the
		// history keeps vouching only for what the store wrote.
		return "", false, nil
	}
	if err := tx.logRoom(logRel, k.Noun, name, 1); err != nil {
		return "", false, err
	}
	if _, err := tx.writeObject(digest, data); err != nil {
		return "", false, err
	}
	e := store.HistoryEntry{Digest: digest, Time: cur.info.ModTime().UTC().Round(0), Event: store.EventPut}
	return digest, true, tx.appendLog(logRel, e)
}

// parseLog parses a history log: one JSON entry per line. complete is the
// length of the text up to the last newline; text after it is a torn
// append and is ignored. A complete line that is not an entry is a
// problem.
func parseLog(data []byte, file string) (entries []store.HistoryEntry, complete int, problems []errs.Problem) {
	entries = []store.HistoryEntry{}
	for line := 1; complete < len(data); line++ {
		i := bytes.IndexByte(data[complete:], '\n')
		if i < 0 {
			break
		}
		raw := bytes.TrimSpace(data[complete : complete+i])
		complete += i + 1
		if len(raw) == 0 {
			continue
		}
		e, err := parseEntry(raw)
		if err != nil {
			problems = append(problems, errs.Problem{File: file, Line: line, Message: "not a history entry: " + err.Error()})
			continue
		}
		entries = append(entries, e)
	}
	return entries, complete, problems
}

// parseEntry parses one line of a history log, without its newline.
func parseEntry(raw []byte) (store.HistoryEntry, error) {
	var e store.HistoryEntry
	err := json.Unmarshal(raw, &e)
	switch {
	case err != nil:
	case e.Event != store.EventPut && e.Event != store.EventRemove:
		err = fmt.Errorf("unknown event %q", e.Event)
	case store.CheckDigest(e.Digest) != nil:
		err = fmt.Errorf("invalid digest %q", e.Digest)
	case e.Time.IsZero():
		err = errors.New("no time")
	}
	if err != nil {
		return store.HistoryEntry{}, err
	}
	e.Time = e.Time.UTC()
	return e, nil
}

// refuse reports a store entry that is not the kind of file the store
// writes there. Links in particular are never written through or removed
// through, even when they stay inside the store.
func (tx *txn) refuse(rel string, fi fs.FileInfo, want string) error {
	path := tx.s.abs(rel)
	return errs.New(errs.KindInternal, "refusing to change the store through %s: it is a %s, not %s", path, describe(fi), want).
		WithHint("the store writes only files and folders of its own; move %s out of the store", path)
}

// refuseFile reports a store file the store will not change in place;
// detail says why ("has 2 hard links: ...").
func (tx *txn) refuseFile(rel, detail string) error {
	path := tx.s.abs(rel)
	return errs.New(errs.KindInternal, "refusing to change the store through %s: it %s", path, detail).
		WithHint("the store writes only files of its own: move %s out of the store, or replace it with a copy of its own", path)
}

// ioErr reports a failed file operation inside the store, in a change of
// it: one the file system refused (full, read-only, not the user's) is
// about changing the home, which the command line says how to put right.
func (tx *txn) ioErr(action, rel string, err error) error {
	e := errs.Wrap(errs.KindInternal, rootError(err), "%s %s", action, tx.s.abs(rel)).About(errs.AboutHomeChange, tx.s.home, "")
	if safefile.EscapesRoot(err) {
		e = e.WithHint("%s", escapeHint(tx.s.abs(rel)))
	}
	return e
}

// describe names a file's type for a message, without an article, in the
// words of every other refusal (see safefile.Describe).
func describe(fi fs.FileInfo) string {
	return strings.TrimPrefix(safefile.Describe(fi.Mode()), "a ")
}

// LockHome takes the file store's lock on the agents home, for a change
// to a file outside the store proper (config.yaml) that must not race
// another writer of it. It waits as a mutation does, up to timeout.
func LockHome(ctx context.Context, home string, timeout time.Duration) (unlock func(), err error) {
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "creating the agents home %s", home)
	}
	s := &Store{home: home, lockTimeout: timeout}
	return s.lock(ctx)
}
