//go:build !unix

package store

// openNoFollow is unavailable here; the lock file is opened as it is.
const openNoFollow = 0
