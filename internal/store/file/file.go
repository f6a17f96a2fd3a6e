// Package file is the file store, the embedded default: the registry kept
// as YAML files under the agents home, with one advisory lock for every
// mutation, atomic writes, the content-addressed objects, the history logs
// and a derived cache of decoded documents. It implements store.Store and
// store.Transferer and is held to the conformance suite in storetest.
package file

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/internal/store"
)

// Options configure the file store.
type Options struct {
	// LockTimeout bounds how long a mutation waits for the store lock. Zero
	// (or less) tries once and gives up at once if another writer holds it.
	LockTimeout time.Duration
	// Now stamps history entries; time.Now when nil.
	Now func() time.Time
	// NoCache lists without the derived cache of decoded documents (see
	// cache.go), neither reading nor writing it: every listing parses every
	// file it lists.
	NoCache bool

	// hooks let tests stop a writer at chosen moments.
	hooks fileHooks
}

// fileHooks are called, when set, at points where a crash matters.
type fileHooks struct {
	// beforeRename runs after a temporary file is written and synced and
	// before it is renamed over its target (both relative to the home).
	beforeRename func(tmp, target string)
}

// File layout under the home. Every document kind adds its own top folder.
const (
	lockName    = ".lock"    // the advisory lock every mutation takes; never deleted
	pendingName = ".pending" // temporary files a writer has started, for the next writer to clean
	tempPrefix  = ".tmp-"    // temporary files, renamed over their target when complete
	objectsDir  = "objects"  // content-addressed versions: objects/<sha256>
	historyDir  = "history"  // event logs: history/<kind folder>/<name>.log
	docExt      = ".yaml"
	logExt      = ".log"
)

// Store is the Store kept in files under one home folder:
//
//	.lock                               advisory lock of every mutation (never deleted)
//	.pending                            temporary files a mutation has started
//	profiles/<namespace>/<name>.yaml    current version, canonical YAML
//	objects/<sha256>                    every version ever written, by digest
//	history/profiles/<ns>/<name>.log    one JSON line per put or remove
//
// A mutation holds the lock from its first read to its last write, so a
// check (does the name exist?) and the write that depends on it are one
// step for every other writer. Files are replaced by rename from a synced
// temporary file in the same folder, so readers, who take no lock, see a
// whole old or a whole new version. A writer killed at any point leaves the
// store valid: its lock dies with it, its temporary file is removed by the
// next writer (found through .pending, without scanning the store), and a
// version renamed into place but not yet logged is logged by the next writer
// of that name.
//
// Every path goes through an os.Root on the home, so no name and no link
// reaches outside it; mutations also refuse links inside it, so a write or
// delete never goes through one. Names are validated before they become
// paths, and a lookup opens the one file its name maps to.
//
// History logs sit under history/<kind folder>/ rather than history/ so
// that kinds added later (actions share the namespace/name form) keep
// separate histories. A log is appended to, not rewritten: an append is one
// write of one line, a torn last line is cut off by the next writer, and the
// log stays cheap however long it grows.
type Store struct {
	store.Kinds
	home        string
	lockTimeout time.Duration
	now         func() time.Time
	hooks       fileHooks
	noCache     bool
	ns          lazyNamespaces
}

var (
	_ store.Store      = (*Store)(nil)
	_ store.Transferer = (*Store)(nil)
)

// The collections as the file store keeps them, in the order a registry is
// read and copied.
var (
	profiles = &kind[*profile.AutomationProfile]{store.Profiles}
	actions  = &kind[*action.Action]{store.Actions}
	plans    = &kind[*plan.Plan]{store.Plans}
	kinds    = []anyKind{profiles, actions, plans}
)

// Open opens the file store rooted at home. Nothing is created until a
// mutation needs it, so a missing home stays missing and is an empty store.
// The one thing a read may write is the derived cache of a listing
// (.cache/, see cache.go), in a home that holds documents already; it is
// never needed and may be deleted at any time.
func Open(home string, opts Options) (*Store, error) {
	if home == "" {
		return nil, errs.Usage("no agents home folder given").About(errs.AboutHome, "")
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "resolving the agents home %s", home)
	}
	if err := safefile.CheckHome(abs); err != nil {
		return nil, err
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	s := &Store{home: abs, lockTimeout: opts.LockTimeout, now: now, hooks: opts.hooks, noCache: opts.NoCache}
	s.Kinds = store.NewKinds(&docs[*profile.AutomationProfile]{s, profiles}, &docs[*action.Action]{s, actions}, &docs[*plan.Plan]{s, plans})
	return s, nil
}

// Home returns the folder the store is kept in.
func (s *Store) Home() string { return s.home }

// docs is one collection of the store: the generic operations of kind.go
// on one kind.
type docs[T any] struct {
	s *Store
	k *kind[T]
}

// List implements store.Docs.
func (d docs[T]) List(ctx context.Context, q store.Query) (store.Listing[T], error) {
	if err := q.Check(); err != nil {
		return store.Listing[T]{}, err
	}
	items, problems, err := d.list(ctx, q)
	return store.Listing[T]{Items: items, Problems: problems}, err
}

// openRoot opens the home for reading. A missing home reports
// fs.ErrNotExist, which readers turn into not-found or empty.
func (s *Store) openRoot() (*os.Root, error) {
	r, err := safefile.OpenRoot(s.home)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, errs.Wrap(errs.KindInternal, err, "opening the store %s", s.home)
	}
	return r, err
}

// abs returns the full path of rel, for messages.
func (s *Store) abs(rel string) string { return filepath.Join(s.home, rel) }
