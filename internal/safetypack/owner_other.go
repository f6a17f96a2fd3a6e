//go:build !unix

package safetypack

import "io/fs"

// ownerUID cannot tell who owns a file on this system, so no system file
// is trusted here.
func ownerUID(fs.FileInfo) (uint32, bool) { return 0, false }

// ownersKnown is true where files have owners to check.
const ownersKnown = false

// unmappedOwner: no user namespaces here.
var unmappedOwner = func(uint32) bool { return false }
