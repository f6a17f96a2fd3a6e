//go:build !unix

package safefile

import (
	"io/fs"
	"os"
)

// Elsewhere no open waits on a named pipe or device in the file system, and
// the flags below do not exist.
const (
	readFlags  = 0
	writeFlags = 0
	dirFlags   = 0
	lockFlags  = 0
)

func setBlocking(*os.File) error { return nil }

// links cannot be told here: every file counts as having one.
func links(fs.FileInfo) uint64 { return 1 }

func typeError(error) bool { return false }
