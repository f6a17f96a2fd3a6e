package iostreams

import (
	"os"

	"golang.org/x/sys/unix"
)

// discardTypedAhead drops what was typed at the terminal f and not read
// yet.
func discardTypedAhead(f *os.File) {
	_ = unix.IoctlSetInt(int(f.Fd()), unix.TCFLSH, unix.TCIFLUSH)
}
