package postgres

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store"
)

// batchSize is how many statements a copy sends in one round trip.
const batchSize = 500

// Snapshot implements store.Transferer: one read-only, repeatable-read
// transaction, so the registry is read as it was at one instant.
func (s *Store) Snapshot(ctx context.Context) (*store.Snapshot, error) {
	var snap *store.Snapshot
	err := s.with(ctx, "reading the registry", func(c *pgx.Conn) error {
		return pgx.BeginTxFunc(ctx, c, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
			var err error
			snap, err = readSnapshot(ctx, tx)
			return err
		})
	})
	return snap, err
}

// readSnapshot reads every collection, the history and the object digests.
func readSnapshot(ctx context.Context, tx pgx.Tx) (*store.Snapshot, error) {
	snap := &store.Snapshot{Entries: map[string][]store.Entry{}}
	hist := map[string]map[string][]store.HistoryEntry{}
	rows, err := tx.Query(ctx, "SELECT collection, name, event, digest, at, at_nanos FROM history ORDER BY collection, name, seq")
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var coll, name string
		var e store.HistoryEntry
		var nanos int16
		if err := rows.Scan(&coll, &name, &e.Event, &e.Digest, &e.Time, &nanos); err != nil {
			rows.Close()
			return nil, err
		}
		e.Time = e.Time.UTC().Add(time.Duration(nanos))
		if hist[coll] == nil {
			hist[coll] = map[string][]store.HistoryEntry{}
		}
		hist[coll][name] = append(hist[coll][name], e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, coll := range store.CollectionNames {
		rows, err := tx.Query(ctx, "SELECT name, content, digest FROM "+coll+" ORDER BY name", pgx.QueryExecModeDescribeExec)
		if err != nil {
			return nil, err
		}
		var entries []store.Entry
		held := map[string]bool{}
		for rows.Next() {
			var e store.Entry
			var digest string
			if err := rows.Scan(&e.Name, &e.Data, &digest); err != nil {
				rows.Close()
				return nil, err
			}
			// Copied on, content the row's digest does not vouch for
			// would become a version of its own wherever it went.
			if err := checkDigest(coll+"/"+e.Name, fmt.Sprintf("stored row %s of %s", e.Name, coll), e.Data, digest); err != nil {
				rows.Close()
				return nil, err
			}
			e.History = hist[coll][e.Name]
			held[e.Name] = true
			entries = append(entries, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		for name, h := range hist[coll] {
			if !held[name] {
				entries = append(entries, store.Entry{Name: name, History: h})
			}
		}
		slices.SortFunc(entries, func(a, b store.Entry) int {
			if a.Name < b.Name {
				return -1
			}
			if a.Name > b.Name {
				return 1
			}
			return 0
		})
		snap.Entries[coll] = entries
	}
	rows, err = tx.Query(ctx, "SELECT digest FROM objects ORDER BY digest")
	if err != nil {
		return nil, err
	}
	snap.Objects, err = pgx.CollectRows(rows, pgx.RowTo[string])
	return snap, err
}

// ReadObjects implements store.Transferer.
func (s *Store) ReadObjects(ctx context.Context, digests []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(digests))
	err := s.with(ctx, "reading objects", func(c *pgx.Conn) error {
		for chunk := range slices.Chunk(digests, batchSize) {
			rows, err := c.Query(ctx, "SELECT digest, data FROM objects WHERE digest = ANY($1::text[])", pgx.QueryExecModeDescribeExec, chunk)
			if err != nil {
				return err
			}
			for rows.Next() {
				var d string
				var data []byte
				if err := rows.Scan(&d, &data); err != nil {
					rows.Close()
					return err
				}
				if data == nil {
					data = []byte{}
				}
				out[d] = data
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// Apply implements store.Transferer: one transaction holding every
// collection's exclusive lock, so no writer gets in between, and a copy
// that fails or is cut off writes nothing.
func (s *Store) Apply(ctx context.Context, plan func(*store.Snapshot) (*store.Import, error)) error {
	return s.writeColls(ctx, store.CollectionNames, nil, "copying into the registry", func(tx pgx.Tx) error {
		cur, err := readSnapshot(ctx, tx)
		if err != nil {
			return err
		}
		imp, err := plan(cur)
		if err != nil || imp == nil {
			return err
		}
		held := map[string]map[string][]byte{}
		for coll, es := range cur.Entries {
			held[coll] = map[string][]byte{}
			for _, e := range es {
				held[coll][e.Name] = e.Data
			}
		}
		w := &batchWriter{ctx: ctx, tx: tx, total: imp.Size(), progress: imp.Progress}
		for _, d := range sortedKeys(imp.Objects) {
			w.add(1, "INSERT INTO objects (digest, data) VALUES ($1, $2) ON CONFLICT (digest) DO NOTHING", d, nonNil(imp.Objects[d]))
			if err := w.maybeFlush(); err != nil {
				return err
			}
		}
		if err := w.flush(); err != nil {
			return err
		}
		for _, coll := range store.CollectionNames {
			var err error
			switch coll {
			case profiles.c.Name:
				err = applyEntries(w, profiles, imp.Entries[coll], held[coll])
			case actions.c.Name:
				err = applyEntries(w, actions, imp.Entries[coll], held[coll])
			case plans.c.Name:
				err = applyEntries(w, plans, imp.Entries[coll], held[coll])
			}
			if err != nil {
				return err
			}
		}
		return w.flush()
	})
}

// applyEntries queues the writes of entries of table t: each document
// checked to decode first, then its row and history events.
func applyEntries[T any](w *batchWriter, t *table[T], entries []store.Entry, held map[string][]byte) error {
	for _, e := range entries {
		if err := t.c.Validate(e.Name); err != nil {
			return err
		}
		cur, exists := held[e.Name]
		switch {
		case e.Data != nil && !(exists && string(cur) == string(e.Data)):
			v, err := t.c.Decode(e.Data, t.label(e.Name))
			if err != nil {
				return err
			}
			if got := t.c.NameOf(v); got != e.Name {
				return errs.Invalid("%s %q holds the name %q", t.c.Noun, e.Name, got)
			}
			digest := canon.Digest(e.Data)
			var tag, fastFor *string
			fast := t.fast(v)
			if fast != nil {
				tag, fastFor = new(t.tag()), &digest
			}
			w.add(0, "INSERT INTO "+t.c.Name+` AS t (name, namespace, content, digest, decoded, decoded_by, decoded_for)
				VALUES ($1, $2, $3, $4, $5, $6, $7)
				ON CONFLICT (name) DO UPDATE SET content = EXCLUDED.content, digest = EXCLUDED.digest,
					version = t.version + 1, updated_at = clock_timestamp(),
					decoded = EXCLUDED.decoded, decoded_by = EXCLUDED.decoded_by, decoded_for = EXCLUDED.decoded_for`,
				e.Name, t.namespaceOf(e.Name), e.Data, digest, fast, tag, fastFor)
		case e.Data == nil && exists && cur != nil:
			w.add(0, "DELETE FROM "+t.c.Name+" WHERE name = $1", e.Name)
		}
		for _, h := range e.History {
			at := h.Time.UTC().Truncate(time.Microsecond)
			w.add(0, `INSERT INTO history (collection, name, seq, event, digest, at, at_nanos)
				VALUES ($1, $2, coalesce((SELECT max(seq) FROM history WHERE collection = $1 AND name = $2), 0) + 1, $3, $4, $5, $6)`,
				t.c.Name, e.Name, h.Event, h.Digest, at, int16(h.Time.Nanosecond()%1000))
		}
		w.done++
		if err := w.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// batchWriter sends queued statements in batches, one round trip each,
// and reports progress as batches complete.
type batchWriter struct {
	ctx      context.Context
	tx       pgx.Tx
	batch    pgx.Batch
	done     int // entries and objects queued so far
	total    int
	progress func(done, total int)
}

func (w *batchWriter) add(steps int, sql string, args ...any) {
	w.batch.Queue(sql, args...)
	w.done += steps
}

func (w *batchWriter) maybeFlush() error {
	if w.batch.Len() < batchSize {
		return nil
	}
	return w.flush()
}

func (w *batchWriter) flush() error {
	if w.batch.Len() == 0 {
		return nil
	}
	err := w.tx.SendBatch(w.ctx, &w.batch).Close()
	w.batch = pgx.Batch{}
	if err != nil {
		return fmt.Errorf("writing a batch: %w", err)
	}
	if w.progress != nil {
		w.progress(w.done, w.total)
	}
	return nil
}

// redecode makes the fast form of every document this build cannot read
// (written by another build of agents, or by hand) again, in batches, so
// that listings are fast again after an upgrade.
func (s *Store) redecode(ctx context.Context) (int, error) {
	n, after := 0, ""
	if profiles.tag() == "" {
		return 0, nil
	}
	for {
		var rows []row
		err := s.with(ctx, "refreshing the fast forms", func(c *pgx.Conn) error {
			return collectRows(ctx, c, &rows, "SELECT "+rowColumns+" FROM "+profiles.c.Name+
				" WHERE (decoded_by IS DISTINCT FROM $1 OR decoded_for IS DISTINCT FROM digest) AND name > $2 ORDER BY name LIMIT $3",
				profiles.tag(), after, batchSize)
		})
		if err != nil || len(rows) == 0 {
			return n, err
		}
		after = rows[len(rows)-1].name
		err = s.write(ctx, profiles.c.Name, nil, "refreshing the fast forms", func(tx pgx.Tx) error {
			var b pgx.Batch
			for _, x := range rows {
				// A document that does not parse keeps no fast form; a
				// listing reports it.
				v, err := profiles.c.Decode(x.content, profiles.label(x.name))
				if err != nil || profiles.c.NameOf(v) != x.name {
					continue
				}
				b.Queue("UPDATE "+profiles.c.Name+" SET decoded = $1, decoded_by = $2, decoded_for = $3 WHERE name = $4 AND digest = $3",
					profiles.fast(v), profiles.tag(), x.digest, x.name)
				n++
			}
			return tx.SendBatch(ctx, &b).Close()
		})
		if err != nil {
			return n, err
		}
		if len(rows) < batchSize {
			return n, nil
		}
	}
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
