package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"time"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
)

// Entry is one name of a collection as a store holds it, for moving a
// registry from one store to another.
type Entry struct {
	Name string
	// Data is the canonical content of the version held; nil when the
	// name is not held (a removed profile, whose history remains).
	Data []byte
	// History lists the name's events, oldest first (collections without
	// history: none).
	History []HistoryEntry
}

// Snapshot is the whole content of a registry, as one consistent view.
type Snapshot struct {
	// Entries are by collection name (see CollectionNames), each sorted by
	// name.
	Entries map[string][]Entry
	// Objects are the digests of the objects held, sorted.
	Objects []string
}

// Import is what a copy writes into the target store.
type Import struct {
	// Entries are by collection: each entry is written whole (Data nil
	// removes the document), and its History is appended to what the
	// target holds for the name.
	Entries map[string][]Entry
	// Objects are the objects to add, by digest.
	Objects map[string][]byte
	// Progress, when not nil, is told how many of the entries and objects
	// have been written, out of how many.
	Progress func(done, total int)
}

// Size is the number of entries and objects imp writes.
func (imp *Import) Size() int {
	n := len(imp.Objects)
	for _, es := range imp.Entries {
		n += len(es)
	}
	return n
}

// Transferer is implemented by stores that 'agents store copy' can read
// and write whole: the file store and the PostgreSQL store.
type Transferer interface {
	// Snapshot reads the whole registry as one consistent view.
	Snapshot(ctx context.Context) (*Snapshot, error)
	// ReadObjects returns the content of the objects with the digests.
	ReadObjects(ctx context.Context, digests []string) (map[string][]byte, error)
	// Apply calls plan with the store's current content and writes what
	// it returns, all of it or (where the store has transactions) none,
	// excluding every other writer meanwhile.
	Apply(ctx context.Context, plan func(current *Snapshot) (*Import, error)) error
}

// CopyOptions configure Copy.
type CopyOptions struct {
	// Force replaces a document the target holds with other content.
	Force bool
	// Now stamps the history events a forced copy adds; time.Now when nil.
	Now func() time.Time
	// Progress is passed on to the target's writes (see Import).
	Progress func(done, total int)
}

// CopyCounts says what a copy did to one collection.
type CopyCounts struct {
	Added     int `json:"added"`
	Replaced  int `json:"replaced"`
	Removed   int `json:"removed"`
	Unchanged int `json:"unchanged"`
	// Events is the number of history events added.
	Events int `json:"history_events_added"`
}

// CopyReport is what a copy did, and digests that show the target holds
// what the source does.
type CopyReport struct {
	Collections map[string]*CopyCounts `json:"collections"`
	// Objects is the number of objects added; ObjectsHeld how many the
	// source holds.
	Objects     int `json:"objects_added"`
	ObjectsHeld int `json:"objects"`
	// SourceDigest digests the source's documents and histories;
	// TargetDigest the target's for the same names after the copy. They
	// are equal when the target now holds what the source does.
	SourceDigest string `json:"source_digest"`
	TargetDigest string `json:"target_digest"`
}

// Changed reports whether the copy wrote anything.
func (r *CopyReport) Changed() bool {
	if r.Objects > 0 {
		return true
	}
	for _, c := range r.Collections {
		if c.Added+c.Replaced+c.Removed+c.Events > 0 {
			return true
		}
	}
	return false
}

// Copy copies the registry of from into to: every document, every history
// event and every object, checking each object against its digest. It is
// idempotent: a second copy finds nothing to write. A name the target
// holds with other content (or holds where the source has removed it) is a
// conflict, and nothing is written, unless opts.Force: the source's
// version then replaces it. Histories are merged by appending the source's
// events the target lacks, so no event the target recorded is lost; a
// forced replacement is recorded too.
func Copy(ctx context.Context, from, to Transferer, opts CopyOptions) (*CopyReport, error) {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	src, err := from.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	if err := checkCited(src); err != nil {
		return nil, err
	}
	if err := checkDocuments(src); err != nil {
		return nil, err
	}
	var report *CopyReport
	err = to.Apply(ctx, func(dst *Snapshot) (*Import, error) {
		r := &CopyReport{Collections: map[string]*CopyCounts{}, ObjectsHeld: len(src.Objects)}
		imp := &Import{Entries: map[string][]Entry{}, Objects: map[string][]byte{}, Progress: opts.Progress}
		var conflicts []errs.Problem
		have := map[string]bool{}
		for _, d := range dst.Objects {
			have[d] = true
		}
		for _, coll := range CollectionNames {
			counts := &CopyCounts{}
			r.Collections[coll] = counts
			held := map[string]Entry{}
			for _, e := range dst.Entries[coll] {
				held[e.Name] = e
			}
			for _, s := range src.Entries[coll] {
				d, ok := held[s.Name]
				out, what, conflict := mergeEntry(s, d, ok, opts.Force, vouches[coll], now().UTC().Round(0))
				if conflict != "" {
					conflicts = append(conflicts, errs.Problem{File: coll + "/" + s.Name, Message: conflict})
					continue
				}
				switch what {
				case "added":
					counts.Added++
				case "replaced":
					counts.Replaced++
				case "removed":
					counts.Removed++
				default:
					// A name neither side holds (removed in the source,
					// absent or removed in the target) is no document
					// left as it was: only its history events count.
					if out.Data != nil {
						counts.Unchanged++
					}
				}
				counts.Events += len(out.History)
				if what != "" || len(out.History) > 0 {
					imp.Entries[coll] = append(imp.Entries[coll], out)
				}
				// A kept version is an object too, whether or not the
				// source's objects hold it under its digest already.
				if coll == Profiles.Name && out.Data != nil {
					if d := canon.Digest(out.Data); !have[d] {
						imp.Objects[d] = out.Data
						have[d] = true
					}
				}
			}
		}
		if len(conflicts) > 0 {
			e := &errs.Error{Kind: errs.KindConflict, Problems: conflicts,
				Msg: fmt.Sprintf("the target holds %d document(s) with other content than the source; nothing was copied", len(conflicts))}
			if len(conflicts) == 1 {
				e.Msg = fmt.Sprintf("the target holds %s with other content than the source (%s); nothing was copied", conflicts[0].File, conflicts[0].Message)
			}
			return nil, e.About(errs.AboutCopy, "")
		}
		var missing []string
		for _, d := range src.Objects {
			if !have[d] {
				missing = append(missing, d)
			}
		}
		if len(missing) > 0 {
			data, err := from.ReadObjects(ctx, missing)
			if err != nil {
				return nil, err
			}
			for _, d := range missing {
				b, ok := data[d]
				if !ok {
					return nil, errs.New(errs.KindInternal, "the source lists object %s but cannot read it", d)
				}
				if got := canon.Digest(b); got != d {
					return nil, errs.New(errs.KindInternal, "object %s of the source is damaged: its content hashes to %s", d, got).
						WithHint("restore it from a backup, then copy again")
				}
				imp.Objects[d] = b
			}
		}
		r.Objects = len(imp.Objects)
		report = r
		return imp, nil
	})
	if err != nil {
		return nil, err
	}
	after, err := to.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	report.SourceDigest = RegistryDigest(src, nil)
	report.TargetDigest = RegistryDigest(after, src)
	return report, nil
}

// vouches says, by collection name, whether its history vouches for its
// documents (see Collection.Vouches).
var vouches = map[string]bool{Profiles.Name: Profiles.Vouches, Actions.Name: Actions.Vouches, Plans.Name: Plans.Vouches}

// mergeEntry works out what the target must hold for one name: the source's
// entry s, given the target's d (present when ok). what is "added",
// "replaced", "removed" or "" (the document is as it was); out.History holds
// only the events to append. conflict, when not "", says why the target's
// content may not be replaced without force.
func mergeEntry(s, d Entry, ok, force, vouches bool, now time.Time) (out Entry, what, conflict string) {
	out = Entry{Name: s.Name, Data: d.Data}
	switch {
	case !ok || d.Data == nil && s.Data != nil:
		out.Data = s.Data
		if s.Data != nil {
			what = "added"
		}
	case bytes.Equal(s.Data, d.Data):
	case s.Data == nil && !force:
		return out, "", "held by the target, removed in the source"
	case !force:
		return out, "", fmt.Sprintf("sha256 %s in the target, %s in the source", short(canon.Digest(d.Data)), short(canon.Digest(s.Data)))
	default:
		out.Data = s.Data
		what = "replaced"
		if s.Data == nil {
			what = "removed"
		}
	}
	// Append the source's events the target lacks, in the source's order.
	seen := map[HistoryEntry]int{}
	for _, e := range d.History {
		seen[e]++
	}
	for _, e := range s.History {
		if seen[e] > 0 {
			seen[e]--
			continue
		}
		out.History = append(out.History, e)
	}
	// The last event must say what the target now holds.
	all := append(slices.Clone(d.History), out.History...)
	if len(all) == 0 && out.Data == nil {
		return out, what, ""
	}
	var last HistoryEntry
	if n := len(all); n > 0 {
		last = all[n-1]
	}
	switch {
	case s.History == nil && d.History == nil:
		// A collection without history.
	case vouches:
		// A history that vouches for its document is carried as it is:
		// a document it does not end with stays one the store cannot
		// vouch for, in the target as in the source.
	case out.Data != nil && (last.Event != EventPut || last.Digest != canon.Digest(out.Data)):
		out.History = append(out.History, HistoryEntry{Digest: canon.Digest(out.Data), Time: now, Event: EventPut})
	case out.Data == nil && last.Event == EventPut:
		out.History = append(out.History, HistoryEntry{Digest: last.Digest, Time: now, Event: EventRemove})
	}
	return out, what, ""
}

func short(d string) string { return d[:12] }

// checkCited refuses a source whose history cites an object it does not
// hold: the copy would be a history that cannot be checked.
func checkCited(src *Snapshot) error {
	held := map[string]bool{}
	for _, d := range src.Objects {
		held[d] = true
	}
	var problems []errs.Problem
	for _, coll := range CollectionNames {
		for _, e := range src.Entries[coll] {
			for _, h := range e.History {
				if !held[h.Digest] && (e.Data == nil || canon.Digest(e.Data) != h.Digest) {
					problems = append(problems, errs.Problem{File: coll + "/" + e.Name,
						Message: fmt.Sprintf("its history cites object %s, which the source does not hold", h.Digest)})
					break
				}
			}
		}
	}
	if len(problems) > 0 {
		return errs.InvalidProblems("the source registry", problems).
			WithHint("restore the missing objects from a backup, then copy again")
	}
	return nil
}

// checkDocuments refuses a source holding a document that does not parse,
// or that holds another name than its own, before anything is written:
// not every target parses what it writes (PostgreSQL does not), and one
// that does (a home) would otherwise stop half-way through.
func checkDocuments(src *Snapshot) error {
	var problems []errs.Problem
	for _, coll := range CollectionNames {
		for _, e := range src.Entries[coll] {
			var err error
			switch coll {
			case Profiles.Name:
				err = Profiles.checkEntry(e)
			case Actions.Name:
				err = Actions.checkEntry(e)
			case Plans.Name:
				err = Plans.checkEntry(e)
			}
			if err != nil {
				problems = append(problems, Problem(coll+"/"+e.Name, err)...)
			}
		}
	}
	if len(problems) > 0 {
		return errs.InvalidProblems("the source registry", problems).
			WithHint("fix or remove the documents named in the source, then copy again; nothing was written")
	}
	return nil
}

// checkEntry reports whether e is a document the collection can hold: a
// valid name and, unless removed, content that parses and holds that name.
func (c *Collection[T]) checkEntry(e Entry) error {
	if err := c.Validate(e.Name); err != nil {
		return err
	}
	if e.Data == nil {
		return nil
	}
	v, err := c.Decode(e.Data, c.Name+"/"+e.Name)
	if err != nil {
		return err
	}
	if got := c.NameOf(v); got != e.Name {
		return fmt.Errorf("it holds %s %s, not %s", c.Noun, c.Quote(got), c.Quote(e.Name))
	}
	return nil
}

// RegistryDigest digests a snapshot: every held document's name and content
// digest and every history event, by collection and name, and the object
// digests. With only, it digests the names and objects only holds, so a
// target can be compared with its source whatever else it holds.
func RegistryDigest(s, only *Snapshot) string {
	h := sha256.New()
	for _, coll := range CollectionNames {
		var keep map[string]bool
		if only != nil {
			keep = map[string]bool{}
			for _, e := range only.Entries[coll] {
				keep[e.Name] = true
			}
		}
		for _, e := range s.Entries[coll] {
			if keep != nil && !keep[e.Name] {
				continue
			}
			fmt.Fprintf(h, "%s\x00%s\x00", coll, e.Name)
			if e.Data != nil {
				fmt.Fprintf(h, "%s", canon.Digest(e.Data))
			}
			for _, ev := range e.History {
				fmt.Fprintf(h, "\x00%s %s %s", ev.Event, ev.Digest, ev.Time.UTC().Format(time.RFC3339Nano))
			}
			h.Write([]byte("\n"))
		}
	}
	objects := s.Objects
	if only != nil {
		want := map[string]bool{}
		for _, d := range only.Objects {
			want[d] = true
		}
		objects = slices.DeleteFunc(slices.Clone(objects), func(d string) bool { return !want[d] })
	}
	for _, d := range objects {
		fmt.Fprintf(h, "object %s\n", d)
	}
	return hex.EncodeToString(h.Sum(nil))
}
