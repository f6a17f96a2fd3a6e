// Package iostreams carries a command's standard streams and what is known
// about them: whether they are terminals, whether colour is wanted, and
// whether the user can be asked a question.
package iostreams

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync/atomic"

	"github.com/charmbracelet/x/term"
	"github.com/mattn/go-isatty"
)

// IOStreams are the streams a command reads and writes.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	stdinTTY  bool
	stdoutTTY bool
	stderrTTY bool
	noColor   bool
	ci        bool
	width     int
	errWidth  int
	columns   int          // COLUMNS, when a positive number
	flush     func() error // writes out what Out holds back, when it buffers
	// lineOpen is set while stderr's last line is unfinished, read by the
	// goroutine that reports a signal.
	lineOpen atomic.Bool
}

// System returns the process's own streams, inspecting the environment once.
// When stdout is not a terminal it is buffered, so output made of many
// small writes (a name per line) costs a few system calls rather than one
// per write; the caller must Flush before exiting. A terminal is left
// unbuffered, so whatever is written shows at once.
func System() *IOStreams {
	s := &IOStreams{
		In:        os.Stdin,
		Out:       os.Stdout,
		ErrOut:    os.Stderr,
		stdinTTY:  isTerminal(os.Stdin),
		stdoutTTY: isTerminal(os.Stdout),
		stderrTTY: isTerminal(os.Stderr),
		noColor:   os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb",
	}
	// Set at all, even to nothing, CI means no person to ask.
	_, s.ci = os.LookupEnv("CI")
	if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 0 {
		s.columns = c
	}
	if !s.stdoutTTY {
		w := bufio.NewWriterSize(os.Stdout, 64<<10)
		s.Out, s.flush = w, w.Flush
	}
	return s
}

// Flush writes out whatever stdout holds back. It does nothing when stdout
// is not buffered.
func (s *IOStreams) Flush() error {
	if s.flush == nil {
		return nil
	}
	return s.flush()
}

func isTerminal(f *os.File) bool {
	fd := f.Fd()
	return isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd)
}

// Test returns streams backed by buffers: stdin, stdout, stderr, none a
// terminal.
func Test() (*IOStreams, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
	in, out, errOut := &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// TerminalWidth returns the width output is fitted to: COLUMNS when it is
// set to a number (a terminal or not, so that piped output can be fitted
// too), else the width of the terminal on stdout, or 0 when stdout is not a
// terminal.
func (s *IOStreams) TerminalWidth() int { return s.widthOf(s.width, s.stdoutTTY, s.Out) }

// ErrWidth returns the width of the terminal on stderr, where progress is
// drawn: COLUMNS when it is set to a number, else the terminal's, or 0
// when stderr is not a terminal.
func (s *IOStreams) ErrWidth() int { return s.widthOf(s.errWidth, s.stderrTTY, s.ErrOut) }

// widthOf is the width of a stream: fixed when set (by a test), else
// COLUMNS when it is a number, else the terminal's when the stream is one
// (tty), else 0.
func (s *IOStreams) widthOf(fixed int, tty bool, w io.Writer) int {
	if fixed != 0 {
		return fixed
	}
	if s.columns > 0 {
		return s.columns
	}
	if !tty {
		return 0
	}
	if f, ok := w.(*os.File); ok {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			return w
		}
	}
	return 0
}

// SetErrWidth fixes the width of the terminal on stderr (for tests).
func (s *IOStreams) SetErrWidth(w int) { s.errWidth = w }

// SetWidth fixes the terminal width (for tests).
func (s *IOStreams) SetWidth(w int) { s.width = w }

// IsStdinTTY reports whether standard input is a terminal.
func (s *IOStreams) IsStdinTTY() bool { return s.stdinTTY }

// IsStdoutTTY reports whether standard output is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// IsStderrTTY reports whether standard error is a terminal.
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// SetStdinTTY overrides terminal detection of standard input (for tests).
func (s *IOStreams) SetStdinTTY(v bool) { s.stdinTTY = v }

// SetStdoutTTY overrides terminal detection of standard output (for tests).
func (s *IOStreams) SetStdoutTTY(v bool) { s.stdoutTTY = v }

// SetStderrTTY overrides terminal detection of standard error (for tests).
func (s *IOStreams) SetStderrTTY(v bool) { s.stderrTTY = v }

// SetNoColor overrides the NO_COLOR/TERM=dumb detection (for tests).
func (s *IOStreams) SetNoColor(v bool) { s.noColor = v }

// SetCI overrides the CI detection (for tests).
func (s *IOStreams) SetCI(v bool) { s.ci = v }

// ColorEnabled reports whether standard output may carry escape codes: it
// must be a terminal, NO_COLOR must be unset and TERM must not be dumb.
func (s *IOStreams) ColorEnabled() bool { return s.stdoutTTY && !s.noColor }

// SetLineOpen records whether the last line written to stderr is left
// unfinished: a question waiting for its answer, or a progress counter
// redrawn in place.
func (s *IOStreams) SetLineOpen(v bool) { s.lineOpen.Store(v) }

// EndLine ends the unfinished line on stderr, if any, so that what is
// written next (the error of a command a signal stopped at a question or
// under a counter) starts a line of its own. It is safe to call from
// another goroutine.
func (s *IOStreams) EndLine() {
	if s.lineOpen.Swap(false) {
		fmt.Fprintln(s.ErrOut)
	}
}

// DiscardTypedAhead drops what was typed at the terminal on stdin before
// a question was put, so that a key pressed for something else (a "y"
// typed ahead, a pasted block) cannot answer it.
func (s *IOStreams) DiscardTypedAhead() {
	if f, ok := s.In.(*os.File); ok && s.stdinTTY {
		discardTypedAhead(f)
	}
}

// CanPrompt reports whether the user can be asked a question: stdin and
// stdout are terminals and CI is not set.
func (s *IOStreams) CanPrompt() bool { return s.stdinTTY && s.stdoutTTY && !s.ci }
