// Package store keeps the registry of custom automation profiles, actions
// and plans, every profile version ever written, and the content-addressed
// objects those versions are kept as.
//
// Store is the interface the registry uses: one collection per kind of
// document (Docs, the same generic operations for each), the objects, and
// a check of the store's own safety. A backend implements Docs once,
// generically, over the collection descriptors (Collection), and the
// objects: the in-memory store here, the file store in store/file, the
// PostgreSQL store in store/postgres, all held to one conformance suite
// (storetest). The interface speaks of documents, versions, conflicts and
// not-found, never of paths, locks or tables.
package store

import (
	"context"
	"crypto/sha256"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
)

// Store is a registry of custom automation profiles, actions, plans and
// content-addressed objects. Built-in profiles are not in it. Errors are
// *errs.Error: KindNotFound, KindConflict, KindInvalid (a bad name or
// digest, a stored document that does not parse), KindLocked (a mutation
// could not take the lock in time), KindInterrupted (the context ended
// while waiting), KindInternal. Values returned are the caller's own:
// changing them changes nothing stored.
type Store interface {
	// Profiles are the custom automation profiles, named namespace/name;
	// every version written is kept as an object, with its history.
	Profiles() Docs[*profile.AutomationProfile]
	// Actions are the actions, named namespace/name.
	Actions() Docs[*action.Action]
	// Plans are the plans, by id, listed in creation order.
	Plans() Docs[*plan.Plan]
	Objects
	// Check returns warnings about the store's safety (a store directory
	// that others can write to); the caller decides how to show them.
	Check(ctx context.Context) (warnings []Warning, err error)
}

// Warning is one thing wrong with the store's safety: who, besides the
// user running agents, could change what it holds.
type Warning struct {
	// Where is what the warning is about, as the backend names it (a
	// folder or file of the file store); "" for the store as a whole.
	Where string
	// Message says what is wrong and how to put it right.
	Message string
}

// String returns the message.
func (w Warning) String() string { return w.Message }

// LazyChecker is a store that checks who, besides the user running
// agents, could change what it holds, and can leave part of that check
// until a command reads or writes there: the file store checks one
// profile namespace folder, and each file it looks up, when it comes to
// them, so that a lookup of one profile does not check every namespace of
// the store. Each of its warnings, and a failure to check, refuses a
// decision (see registry).
type LazyChecker interface {
	// CheckLazily returns the warnings Check would give about the store
	// as a whole, and gives the rest to warn as the store comes to them.
	CheckLazily(ctx context.Context, warn func(Warning)) (warnings []Warning, err error)
}

// HandEditable is a store whose documents can change without going
// through it: the file store, whose files a person or a tool may edit, and
// the PostgreSQL store, whose rows SQL may change without the history
// agents writes with them. Its documents are held to their history before
// anything is decided under them (see registry).
type HandEditable interface {
	// HandEditable reports whether the store's documents may have changed
	// without it.
	HandEditable() bool
}

// Settler is a store whose readers may find a document and its history
// out of step while a change is being written: the file store puts the
// document in place and then appends its history line, under a lock
// readers do not take. Settle returns once no change is being written,
// waiting no longer than the store's lock timeout, so that a reader can
// read both again.
type Settler interface {
	Settle(ctx context.Context) error
}

// StoredDigester is implemented by the collections of a store that keeps
// each document as the bytes of its stored form (the file store): a
// reader that must hold a document to its history (store.HandEditable)
// compares the digest of those bytes with the history's last put, without
// encoding the document again. A digest that differs says nothing: the
// bytes may be a hand edit of the same content, which only encoding the
// document can tell.
type StoredDigester[T any] interface {
	// GetDigest returns what Get does, and the sha256 (lower-case hex) of
	// the bytes the document was read from.
	GetDigest(ctx context.Context, name string) (T, string, error)
}

// GetDigest returns the named document of d and, where d is a
// StoredDigester, the sha256 of the bytes it was read from; else "".
func GetDigest[T any](ctx context.Context, d Docs[T], name string) (T, string, error) {
	if g, ok := d.(StoredDigester[T]); ok {
		return g.GetDigest(ctx, name)
	}
	v, err := d.Get(ctx, name)
	return v, "", err
}

// Docs is one collection of a store: the documents of one kind, by name.
type Docs[T any] interface {
	// Get returns the document with the given name.
	Get(ctx context.Context, name string) (T, error)
	// List returns the documents q selects, sorted by name, decoding only
	// those selected, and the problems of stored documents that do not
	// decode (which never hide the others).
	List(ctx context.Context, q Query) (Listing[T], error)
	// Names returns the names of the documents q selects, sorted, without
	// decoding any.
	Names(ctx context.Context, q Query) ([]string, error)
	// Put stores v (and, in a collection with history, records the
	// version). Without update, an existing name is a conflict. With
	// update, a stored document that does not decode is replaced
	// (Replaced is then the zero value), and content equal to what is
	// stored writes nothing (Unchanged).
	Put(ctx context.Context, v T, update bool) (PutResult[T], error)
	// Remove deletes the named document (recording the removal in its
	// history) and returns what was removed. Its versions stay as objects.
	Remove(ctx context.Context, name string) (RemoveResult[T], error)
	// History returns the events of the named document, oldest first: a
	// name the store has never held is not found; a held document of a
	// collection without history has none.
	History(ctx context.Context, name string) ([]HistoryEntry, error)
	// LastEvent returns the last event of the named document's history,
	// as History would end, and whether it has one, reading no more of
	// the history than that: what a decision needs, whatever the length
	// of the history.
	LastEvent(ctx context.Context, name string) (e HistoryEntry, ok bool, err error)
}

// Objects are the content-addressed objects of a store: every version of
// a document with history, and the snapshots plans cite.
type Objects interface {
	// PutObject stores data under its sha256 and returns the digest.
	// Storing the same data again changes nothing.
	PutObject(ctx context.Context, data []byte) (digest string, err error)
	// HasObject reports whether an object with the digest is stored.
	HasObject(ctx context.Context, digest string) (bool, error)
	// GetObject returns the object with the digest.
	GetObject(ctx context.Context, digest string) ([]byte, error)
}

// Query selects the names of a collection before any document is read, so
// a filtered listing costs only the documents it returns.
type Query struct {
	// Namespace keeps only names in this namespace when not empty. It must
	// be a valid namespace label.
	Namespace string
	// Match keeps only names for which it returns true when not nil.
	Match func(name string) bool
	// Progress, when not nil, is told how many of the selected documents
	// a listing has read so far, out of how many, as it goes; a command
	// uses it to show progress on a large store. Calls never overlap, and
	// it must not call the store.
	Progress func(done, total int)
}

// Check returns an invalid-input error when the namespace is not a valid
// label.
func (q Query) Check() error {
	if q.Namespace == "" {
		return nil
	}
	if why := profile.CheckLabel(q.Namespace); why != "" {
		return errs.Invalid("invalid namespace %q: %s", q.Namespace, why)
	}
	return nil
}

// CheckContext checks a query about to run, as every backend does first:
// the context has not ended, and the query is valid (Check).
func (q Query) CheckContext(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return Interrupted(err)
	}
	return q.Check()
}

// Keep reports whether the query selects name.
func (q Query) Keep(name string) bool {
	if q.Namespace != "" && profile.NamespaceOf(name) != q.Namespace {
		return false
	}
	return q.Match == nil || q.Match(name)
}

// Listing is the result of a listing: the documents that decoded, sorted
// by name, and the problems of each stored document that did not (or
// whose name does not match its place in the store).
type Listing[T any] struct {
	Items    []T
	Problems []errs.Problem
}

// PutResult says what a put did.
type PutResult[T any] struct {
	// Stored is the document as stored: what a later get returns. It is
	// the given document after one trip through the canonical encoding.
	Stored T
	// Replaced is the previous version when the put replaced a readable
	// one, else the zero value.
	Replaced T
	// Digest is the sha256 (lower-case hex) of the canonical content of
	// the stored version, under which a collection with history keeps it
	// as an object.
	Digest string
	// Unchanged reports an update whose content is what is stored
	// already: the document was not written, and the history has no new
	// entry. A store whose object of that version was missing or
	// damaged writes the object again, and says so in Warnings.
	Unchanged bool
	// Warnings say what could not be done after the document was stored:
	// its history line not written (a full disk, a file size limit),
	// which the next change of the name writes. The put took effect.
	// They also tell of an object an unchanged put wrote again.
	Warnings []string
}

// RemoveResult says what a remove did.
type RemoveResult[T any] struct {
	// Removed is the document as it was stored.
	Removed T
	// Warnings say what could not be done after the document was
	// removed, as for PutResult. The remove took effect.
	Warnings []string
}

// The events a history entry records.
const (
	EventPut    = "put"
	EventRemove = "remove"
)

// HistoryEntry is one event in a document's history: a version put, or the
// document removed (Digest then names the version removed).
type HistoryEntry struct {
	Digest string    `json:"digest"`
	Time   time.Time `json:"time"`
	Event  string    `json:"event"`
}

// Puts reports whether e is a put of digest. Of the last event of a
// history (Docs.LastEvent), it says whether digest is the version the
// store last wrote.
func (e HistoryEntry) Puts(digest string) bool {
	return e.Event == EventPut && e.Digest == digest
}

// CheckDigest returns an invalid-input error unless d is a lower-case hex
// sha256.
func CheckDigest(d string) error {
	ok := len(d) == sha256.Size*2
	for i := 0; ok && i < len(d); i++ {
		c := d[i]
		ok = '0' <= c && c <= '9' || 'a' <= c && c <= 'f'
	}
	if !ok {
		return errs.Invalid("invalid digest %q: must be 64 lower-case hexadecimal digits (a sha256)", d)
	}
	return nil
}

// MaxObjectSize is the largest object the store keeps: room for a plan's
// snapshots of several profiles, and a bound on what a read may allocate.
const MaxObjectSize = 16 << 20

// ObjectNotFound is the error for a digest no object is stored under.
func ObjectNotFound(digest string) error {
	return errs.NotFound("object %s not found", digest)
}

// ObjectTooLarge is the error for an object over MaxObjectSize bytes.
func ObjectTooLarge(n int) error {
	return errs.Invalid("object of %d bytes is over the %d-byte limit", n, MaxObjectSize)
}

// Interrupted reports a context that ended before a store could act.
func Interrupted(err error) error {
	return errs.Interrupted(err, "store operation interrupted")
}

// ObjectPut stores an object as every backend does: it checks the object
// first (the context has not ended, the object is not over
// MaxObjectSize), then hands put the digest to keep data under. It
// returns the digest, or "" and the error of the check or of put.
func ObjectPut(ctx context.Context, data []byte, put func(digest string) error) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", Interrupted(err)
	}
	if len(data) > MaxObjectSize {
		return "", ObjectTooLarge(len(data))
	}
	digest := canon.Digest(data)
	if err := put(digest); err != nil {
		return "", err
	}
	return digest, nil
}

// ObjectLookup checks a lookup of an object, as every backend does first:
// the context has not ended, and the digest is a sha256.
func ObjectLookup(ctx context.Context, digest string) error {
	if err := ctx.Err(); err != nil {
		return Interrupted(err)
	}
	return CheckDigest(digest)
}

// Parallel calls fn for each i in [0, n), on as many goroutines as
// GOMAXPROCS allows, one for every per items (a listing decodes what it
// reads in parallel: decoding is what it costs), and tells progress (when
// not nil) how many have been done, one call at a time. It stops early
// when ctx ends, and then returns the interruption.
func Parallel(ctx context.Context, n, per int, progress func(done, total int), fn func(i int)) error {
	var next atomic.Int64
	var mu sync.Mutex
	done := 0
	work := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= n || ctx.Err() != nil {
				return
			}
			fn(i)
			if progress != nil {
				mu.Lock()
				done++
				progress(done, n)
				mu.Unlock()
			}
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), (n+per-1)/per) {
		wg.Go(work)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Interrupted(err)
	}
	return nil
}
