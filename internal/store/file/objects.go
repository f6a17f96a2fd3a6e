package file

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store"
)

// PutObject implements Store. An object already stored is not written
// again, and needs no lock: objects never change once written. A file
// under the digest's name that does not hold data (damaged, or placed by
// hand) is not the object, and is replaced under the lock.
func (s *Store) PutObject(ctx context.Context, data []byte) (string, error) {
	return store.ObjectPut(ctx, data, func(digest string) error {
		if ok, err := s.holdsObject(digest, data); err != nil || ok {
			return err
		}
		return s.mutate(ctx, func(tx *txn) error {
			_, err := tx.writeObject(digest, data)
			return err
		})
	})
}

// holdsObject reports whether objects/<digest> is a regular file holding
// data, as a writer would find it without taking the lock.
func (s *Store) holdsObject(digest string, data []byte) (bool, error) {
	return s.objectFile(digest, func(r *os.Root, rel string) bool { return holds(r, rel, data) })
}

// HasObject implements Store.
func (s *Store) HasObject(ctx context.Context, digest string) (bool, error) {
	if err := store.ObjectLookup(ctx, digest); err != nil {
		return false, err
	}
	return s.objectFile(digest, nil)
}

// objectFile reports whether objects/<digest> is a regular file (a link
// or anything else is not the object) and, with check, whether check
// holds of it.
func (s *Store) objectFile(digest string, check func(r *os.Root, rel string) bool) (bool, error) {
	r, err := s.openRoot()
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer r.Close()
	rel := filepath.Join(objectsDir, digest)
	fi, err := r.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, errs.Wrap(errs.KindInternal, rootError(err), "looking up object %s", digest)
	}
	return fi.Mode().IsRegular() && (check == nil || check(r, rel)), nil
}

// GetObject implements Store. The content is checked against its digest,
// so a damaged object is an error, never a wrong answer.
func (s *Store) GetObject(ctx context.Context, digest string) ([]byte, error) {
	if err := store.ObjectLookup(ctx, digest); err != nil {
		return nil, err
	}
	r, err := s.openRoot()
	if errors.Is(err, fs.ErrNotExist) {
		return nil, store.ObjectNotFound(digest)
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	rel := filepath.Join(objectsDir, digest)
	data, _, err := readRegular(r, rel, store.MaxObjectSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, store.ObjectNotFound(digest)
	}
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, rootError(err), "reading object %s", s.abs(rel))
	}
	if got := canon.Digest(data); got != digest {
		return nil, errs.New(errs.KindInternal, "object %s is damaged: its content hashes to %s", s.abs(rel), got).
			WithHint("restore the file from a backup, or delete it so the version is written again")
	}
	return data, nil
}
