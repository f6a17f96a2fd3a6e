package iostreams

import (
	"os"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY returns the two ends of a new pseudo-terminal, or skips.
func openPTY(t *testing.T) (control, term *os.File) {
	t.Helper()
	control, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { control.Close() })
	fd := int(control.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("cannot unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("cannot name the pseudo-terminal: %v", err)
	}
	term, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("cannot open the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { term.Close() })
	return control, term
}

// TestDiscardTypedAhead: a line typed before the question is dropped, and
// the answer typed after it is what the question reads; on a stdin that
// is not a terminal nothing is dropped.
func TestDiscardTypedAhead(t *testing.T) {
	control, term := openPTY(t)
	typed := func(s string) {
		t.Helper()
		if _, err := control.WriteString(s); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond) // for the line discipline to queue it
	}
	s := &IOStreams{In: term, stdinTTY: true}
	typed("y\n")
	s.DiscardTypedAhead()
	typed("n\n")
	buf := make([]byte, 16)
	n, err := term.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(buf[:n]); got != "n\n" {
		t.Errorf("the question read %q, want the line typed after it, %q", got, "n\n")
	}

	// Not taken for a terminal: nothing is dropped.
	s = &IOStreams{In: term, stdinTTY: false}
	typed("y\n")
	s.DiscardTypedAhead()
	n, err = term.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(buf[:n]); got != "y\n" {
		t.Errorf("read %q from a stdin not taken for a terminal, want %q", got, "y\n")
	}
}
