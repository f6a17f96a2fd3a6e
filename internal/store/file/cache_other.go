//go:build !unix

package file

import "io/fs"

// cacheSupported is false: this system cannot tell who may write the cache
// file, so listings go without it.
const cacheSupported = false

func ownedPrivately(fs.FileInfo) bool { return false }
