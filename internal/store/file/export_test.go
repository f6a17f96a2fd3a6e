package file

import "context"

// SetBeforeRename makes the file store call f after writing each temporary
// file and before renaming it over its target.
func SetBeforeRename(o *Options, f func(tmp, target string)) { o.hooks.beforeRename = f }

// HoldLock takes the lock of a file store as a mutation would.
func HoldLock(ctx context.Context, s *Store) (unlock func(), err error) { return s.lock(ctx) }
