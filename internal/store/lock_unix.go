//go:build unix

package store

import "syscall"

// openNoFollow makes opening the lock file fail on a link, so the lock can
// never create or open a file outside the store.
const openNoFollow = syscall.O_NOFOLLOW
