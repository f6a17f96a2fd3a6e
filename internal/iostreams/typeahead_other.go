//go:build !linux

package iostreams

import "os"

// discardTypedAhead does nothing where the terminal's input queue is not
// flushed: what was typed ahead answers the question that follows.
func discardTypedAhead(*os.File) {}
