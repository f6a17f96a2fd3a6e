//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || solaris)

package store

import "io/fs"

// canKey is false: without inodes and change times, a file replaced or
// restored with its old times could not be told from the one cached, so
// this system lists without the cache.
const canKey = false

func keyOf(fs.FileInfo) (fileKey, bool) { return fileKey{}, false }

func ownedPrivately(fs.FileInfo) bool { return false }
