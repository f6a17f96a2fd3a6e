package file

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store"
)

var _ store.Transferer = (*Store)(nil)

// Snapshot implements store.Transferer. It holds the store lock while it reads,
// so no writer changes the registry under it. A stored document that does
// not parse stops it, with every such problem: a copy must be lossless.
// A document whose history lags it (placed or edited by hand, or its
// writer killed before it logged) gets the event the next writer would
// record, stamped with the file's modification time.
func (s *Store) Snapshot(ctx context.Context) (*store.Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, store.Interrupted(err)
	}
	r, err := s.openRoot()
	if errors.Is(err, fs.ErrNotExist) {
		return &store.Snapshot{Entries: map[string][]store.Entry{}}, nil
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	unlock, err := s.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return s.snapshot(ctx, r, nil)
}

// snapshot reads the registry through r. Inside a mutation (tx not nil),
// history logs are read through the transaction, which repairs a torn
// last line.
func (s *Store) snapshot(ctx context.Context, r *os.Root, tx *txn) (*store.Snapshot, error) {
	snap := &store.Snapshot{Entries: map[string][]store.Entry{}}
	var problems []errs.Problem
	for _, k := range kinds {
		es, ps, err := k.entries(ctx, s, r, tx)
		if err != nil {
			return nil, err
		}
		snap.Entries[k.name()] = es
		problems = append(problems, ps...)
	}
	if len(problems) > 0 {
		return nil, errs.InvalidProblems("the registry in "+s.home, problems).
			WithHint("fix or remove the files named, then try again")
	}
	des, err := readDir(r, objectsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, errs.Wrap(errs.KindInternal, rootError(err), "reading %s", s.abs(objectsDir))
	}
	for _, de := range des {
		if de.Type().IsRegular() && store.CheckDigest(de.Name()) == nil {
			snap.Objects = append(snap.Objects, de.Name())
		}
	}
	slices.Sort(snap.Objects)
	return snap, nil
}

// anyKind is a kind of any document type, for what the store does to
// every collection alike: read it whole, and write a copy into it.
type anyKind interface {
	name() string
	entries(ctx context.Context, s *Store, r *os.Root, tx *txn) ([]store.Entry, []errs.Problem, error)
	apply(tx *txn, entries []store.Entry, step func() error) error
	room(tx *txn, entries []store.Entry) error
}

func (k *kind[T]) name() string { return k.Name }

// entries reads every document of kind k and every name it has a history
// log for.
func (k *kind[T]) entries(ctx context.Context, s *Store, r *os.Root, tx *txn) ([]store.Entry, []errs.Problem, error) {
	found, problems, err := k.scan(ctx, s, r, store.Query{})
	if err != nil {
		return nil, nil, err
	}
	byName := map[string]*store.Entry{}
	infos := map[string]fs.FileInfo{}
	for _, d := range found {
		v, fi, _, err := k.loadInfo(s, r, d.name, d.rel)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			problems = append(problems, problemsOf(s.abs(d.rel), err)...)
			continue
		}
		data, _, err := k.Encode(v)
		if err != nil {
			problems = append(problems, problemsOf(s.abs(d.rel), err)...)
			continue
		}
		byName[d.name] = &store.Entry{Name: d.name, Data: data}
		infos[d.name] = fi
	}
	if k.History {
		logs, ps := historyNames(s, r, k)
		problems = append(problems, ps...)
		for _, name := range logs {
			if byName[name] == nil {
				byName[name] = &store.Entry{Name: name}
			}
		}
		for name, e := range byName {
			rel := k.logPath(name)
			var entries []store.HistoryEntry
			var lps []errs.Problem
			if tx != nil {
				entries, err = tx.readLog(rel)
				if err != nil {
					return nil, nil, err
				}
			} else {
				data, _, err := readRegular(r, rel, maxLogSize)
				switch {
				case errors.Is(err, fs.ErrNotExist):
				case err != nil:
					lps = []errs.Problem{{File: s.abs(rel), Message: rootErr(err)}}
				default:
					entries, _, lps = parseLog(data, s.abs(rel))
				}
			}
			problems = append(problems, lps...)
			e.History = entries
			if e.Data == nil {
				continue
			}
			// What the next writer's reconcile would record; nothing for
			// a collection whose history vouches for its documents.
			if n := len(entries); !k.Vouches && (n == 0 || entries[n-1].Event != store.EventPut || entries[n-1].Digest != canon.Digest(e.Data)) {
				e.History = append(e.History, store.HistoryEntry{Digest: canon.Digest(e.Data), Time: infos[name].ModTime().UTC().Round(0), Event: store.EventPut})
			}
		}
	}
	out := make([]store.Entry, 0, len(byName))
	for _, e := range byName {
		out = append(out, *e)
	}
	slices.SortFunc(out, func(a, b store.Entry) int { return strings.Compare(a.Name, b.Name) })
	return out, problems, nil
}

// historyNames lists the names kind k has history logs for.
func historyNames[T any](s *Store, r *os.Root, k *kind[T]) ([]string, []errs.Problem) {
	var names []string
	var problems []errs.Problem
	base := filepath.Join(historyDir, k.Name)
	addLogs := func(dir, prefix string) {
		for _, de := range s.readFolder(r, dir, &problems) {
			stem, ok := strings.CutSuffix(de.Name(), logExt)
			if !ok || strings.HasPrefix(de.Name(), ".") || !de.Type().IsRegular() {
				continue
			}
			if k.Validate(prefix+stem) == nil {
				names = append(names, prefix+stem)
			}
		}
	}
	if !k.Nested {
		addLogs(base, "")
		return names, problems
	}
	for _, de := range s.readFolder(r, base, &problems) {
		if de.IsDir() && !strings.HasPrefix(de.Name(), ".") {
			addLogs(filepath.Join(base, de.Name()), de.Name()+"/")
		}
	}
	return names, problems
}

// ReadObjects implements store.Transferer.
func (s *Store) ReadObjects(ctx context.Context, digests []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(digests))
	for _, d := range digests {
		data, err := s.GetObject(ctx, d)
		if err != nil {
			return nil, err
		}
		out[d] = data
	}
	return out, nil
}

// Apply implements store.Transferer: under the store lock, objects first (so no
// history line ever cites a missing object), then each document and its
// history, every file written atomically. The file store has no
// transaction: a copy killed midway leaves what it wrote, each file whole,
// and running it again completes it.
func (s *Store) Apply(ctx context.Context, plan func(*store.Snapshot) (*store.Import, error)) error {
	return s.mutate(ctx, func(tx *txn) error {
		cur, err := s.snapshot(ctx, tx.root, tx)
		if err != nil {
			return err
		}
		imp, err := plan(cur)
		if err != nil || imp == nil {
			return err
		}
		// Every log keeps room for what the copy appends to it, checked
		// before anything is written.
		for _, k := range kinds {
			if err := k.room(tx, imp.Entries[k.name()]); err != nil {
				return err
			}
		}
		done, total := 0, imp.Size()
		step := func() error {
			done++
			if imp.Progress != nil {
				imp.Progress(done, total)
			}
			if err := ctx.Err(); err != nil {
				return store.Interrupted(err)
			}
			return nil
		}
		for _, d := range slices.Sorted(maps.Keys(imp.Objects)) {
			if _, err := tx.writeObject(d, imp.Objects[d]); err != nil {
				return err
			}
			if err := step(); err != nil {
				return err
			}
		}
		for _, k := range kinds {
			if err := k.apply(tx, imp.Entries[k.name()], step); err != nil {
				return err
			}
		}
		return nil
	})
}

// room refuses a copy of entries that would take a history log of kind k
// past what a reader of the whole history reads (see logRoom): each gets
// its events and the one reconcile may add.
func (k *kind[T]) room(tx *txn, entries []store.Entry) error {
	for _, e := range entries {
		if !k.History || len(e.History) == 0 {
			continue
		}
		if err := k.Validate(e.Name); err != nil {
			return err
		}
		if err := tx.logRoom(k.logPath(e.Name), k.Noun, e.Name, len(e.History)+1); err != nil {
			return err
		}
	}
	return nil
}

// apply writes entries of kind k inside a mutation.
func (k *kind[T]) apply(tx *txn, entries []store.Entry, step func() error) error {
	for _, e := range entries {
		if err := k.Validate(e.Name); err != nil {
			return err
		}
		if err := prepare(tx, k, e.Name); err != nil {
			return err
		}
		rel := k.path(e.Name)
		cur, err := currentDoc(tx, k, e.Name, rel)
		if err != nil {
			return err
		}
		// A document already as the copy leaves it is one an earlier copy,
		// cut off between the document and its history, put in place: the
		// events still to append end with it.
		final := e.Data == nil && !cur.exists || e.Data != nil && cur.exists && bytes.Equal(cur.data, e.Data)
		if k.History && len(e.History) > 0 && !final {
			// Record what the store holds before appending, as any
			// writer does, so the log never skips a version.
			if _, _, err := reconcile(tx, k, e.Name, cur); err != nil {
				return err
			}
		}
		switch {
		case e.Data != nil && !(cur.exists && bytes.Equal(cur.data, e.Data)):
			if _, err := k.Decode(e.Data, fmt.Sprintf("%s %q", k.Noun, e.Name)); err != nil {
				return err
			}
			if err := tx.writeAtomic(rel, e.Data); err != nil {
				return err
			}
		case e.Data == nil && cur.exists:
			if err := tx.removeFile(rel); err != nil {
				return err
			}
		}
		for _, h := range e.History {
			if err := tx.appendLog(k.logPath(e.Name), h); err != nil {
				return err
			}
		}
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}
