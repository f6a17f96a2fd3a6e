package cmdutil

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/iostreams"
)

// readerFunc is an io.Reader made of a function.
type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// A signal that ends the command while the question waits for its answer
// has its error start a line of its own, not follow "[y/N] "; once
// answered, the line is the terminal's, ended by the user's Enter.
func TestConfirmRemovalLeavesTheLineOpenWhileItWaits(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	ios.SetStdinTTY(true)
	ios.SetStdoutTTY(true)
	var atSignal string
	ios.In = readerFunc(func(p []byte) (int, error) {
		ios.EndLine() // what the signal's goroutine does
		atSignal = errOut.String()
		return copy(p, "n\n"), io.EOF
	})
	ok, err := (&Deps{IO: ios}).UI().ConfirmRemoval("profile", "acme/x", false)()
	if ok || err != nil {
		t.Fatalf("ConfirmRemoval = %v, %v; want false, nil", ok, err)
	}
	if want := "Remove profile acme/x? [y/N] \n"; atSignal != want {
		t.Errorf("stderr when the signal came %q, want %q", atSignal, want)
	}
	before := errOut.String()
	ios.EndLine()
	if errOut.String() != before {
		t.Errorf("after the answer, EndLine wrote %q", errOut.String()[len(before):])
	}
}

// A counter on screen is ended before the error of a signal; once
// cleared, there is nothing to end.
func TestProgressLeavesTheLineOpenWhileShown(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	ios.SetStderrTTY(true)
	c := &clock{t: time.Unix(0, 0)}
	p := (&Deps{IO: ios, Now: c.now}).UI().Progress("copying", 4)
	p.Set(1)
	before := errOut.String()
	ios.EndLine()
	if got := errOut.String()[len(before):]; got != "\n" {
		t.Errorf("EndLine under a counter wrote %q, want a line break", got)
	}
	p.Set(2)
	p.Done()
	before = errOut.String()
	ios.EndLine()
	if errOut.String() != before {
		t.Errorf("EndLine after Done wrote %q", errOut.String()[len(before):])
	}
}

// Reading "-" from a terminal says what it waits for, on stderr; from a
// pipe it says nothing, and --quiet silences it.
func TestReadInputFromATerminalSaysSo(t *testing.T) {
	for _, tt := range []struct {
		tty, quiet, says bool
	}{
		{true, false, true},
		{false, false, false},
		{true, true, false},
	} {
		ios, in, out, errOut := iostreams.Test()
		ios.SetStdinTTY(tt.tty)
		in.WriteString("name: acme/x\n")
		data, _, err := (&Deps{IO: ios, Config: Config{Quiet: tt.quiet}}).UI().ReadInput(Stdin)
		if err != nil || string(data) != "name: acme/x\n" {
			t.Fatalf("ReadInput = %q, %v", data, err)
		}
		if out.Len() != 0 {
			t.Errorf("stdout %q, want nothing", out.String())
		}
		if got := strings.Contains(errOut.String(), "from the terminal") && strings.Contains(errOut.String(), "Ctrl-"); got != tt.says {
			t.Errorf("tty %v, quiet %v: stderr %q", tt.tty, tt.quiet, errOut.String())
		}
	}
}
