package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/safefile"
)

// FileOptions configure the file store.
type FileOptions struct {
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

// fileStore is the Store kept in files under one home folder:
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
type fileStore struct {
	home        string
	lockTimeout time.Duration
	now         func() time.Time
	hooks       fileHooks
	noCache     bool
}

var _ Store = (*fileStore)(nil)

// OpenFile opens the file store rooted at home. Nothing is created until a
// mutation needs it, so a missing home stays missing and is an empty store.
// The one thing a read may write is the derived cache of a listing
// (.cache/, see cache.go), in a home that holds documents already; it is
// never needed and may be deleted at any time.
func OpenFile(home string, opts FileOptions) (Store, error) {
	if home == "" {
		return nil, errs.Usage("no agents home folder given").
			WithHint("pass --home or set AGENTS_HOME")
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "resolving the agents home %s", home)
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		return nil, errs.Usage("the agents home %s is not a folder", abs).
			WithHint("pass --home or set AGENTS_HOME to a folder")
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &fileStore{home: abs, lockTimeout: opts.LockTimeout, now: now, hooks: opts.hooks, noCache: opts.NoCache}, nil
}

// profileKind is how the file store keeps custom automation profiles:
// profiles/<namespace>/<name>.yaml, every version kept with its history.
var profileKind = &docKind[*profile.AutomationProfile]{
	noun:     "profile",
	dir:      "profiles",
	nested:   true,
	history:  true,
	validate: profile.ValidateCustomName,
	decode: func(data []byte, file string) (*profile.AutomationProfile, error) {
		p, _, err := profile.DecodeProfile(data, file)
		return p, err
	},
	encode:   profile.Encode,
	nameOf:   func(p *profile.AutomationProfile) string { return p.Name },
	notFound: profileNotFound,
	conflict: profileConflict,
	cache:    profileCodec,
}

// GetProfile implements Store. It opens the one file the name maps to, so
// its cost does not grow with the store.
func (s *fileStore) GetProfile(ctx context.Context, name string) (*profile.AutomationProfile, error) {
	return getDoc(ctx, s, profileKind, name)
}

// ListProfiles implements Store.
func (s *fileStore) ListProfiles(ctx context.Context, q ProfileQuery) (ProfileList, error) {
	if err := q.check(); err != nil {
		return ProfileList{}, err
	}
	ps, problems, err := listDocs(ctx, s, profileKind, q.filter())
	return ProfileList{Profiles: ps, Problems: problems}, err
}

// ListProfileNames implements Store.
func (s *fileStore) ListProfileNames(ctx context.Context, q ProfileQuery) ([]string, error) {
	if err := q.check(); err != nil {
		return nil, err
	}
	return listNames(ctx, s, profileKind, q.filter())
}

// PutProfile implements Store.
func (s *fileStore) PutProfile(ctx context.Context, p *profile.AutomationProfile, update bool) (PutResult, error) {
	if p == nil {
		return PutResult{}, errs.Invalid("no profile to store")
	}
	out, err := putDoc(ctx, s, profileKind, p, update)
	if err != nil {
		return PutResult{}, err
	}
	return PutResult{Stored: out.stored, Replaced: out.replaced, Digest: out.digest, Unchanged: out.unchanged, Warnings: out.warnings}, nil
}

// RemoveProfile implements Store.
func (s *fileStore) RemoveProfile(ctx context.Context, name string) (RemoveResult, error) {
	p, warnings, err := removeDoc(ctx, s, profileKind, name)
	if err != nil {
		return RemoveResult{}, err
	}
	return RemoveResult{Removed: p, Warnings: warnings}, nil
}

// ProfileHistory implements Store.
func (s *fileStore) ProfileHistory(ctx context.Context, name string) ([]HistoryEntry, error) {
	return docHistory(ctx, s, profileKind, name)
}

// openRoot opens the home for reading. A missing home reports
// fs.ErrNotExist, which readers turn into not-found or empty.
func (s *fileStore) openRoot() (*os.Root, error) {
	r, err := safefile.OpenRoot(s.home)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, errs.Wrap(errs.KindInternal, err, "opening the store %s", s.home)
	}
	return r, err
}

// abs returns the full path of rel, for messages.
func (s *fileStore) abs(rel string) string { return filepath.Join(s.home, rel) }
