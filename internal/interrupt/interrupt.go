// Package interrupt makes SIGINT, SIGTERM and SIGHUP end agents with its documented
// exit code, 130 (or 2 for a hook, whose caller must block the tool call
// rather than take an interrupted check for an answer), from as early in
// the program as Go allows: left to their default action, they would kill
// the process and its caller would see 143 or 130 depending on when the
// signal came.
//
// The signals are taken over in this package's initialisation, which Go
// runs as soon as os/signal is initialised (packages are initialised after
// their imports, in the order of their import paths): part-way through the
// initialisation of the libraries agents is built on. A signal before then
// kills the process (the hook snippet turns that into a block). From then
// on the signals are first ignored, which costs a system call each, and
// caught once a goroutine of this package has put the handler in place
// (Ready), while the program goes on starting: putting it in place makes
// Go start two threads and wait on them, which cost a decision a sixth of
// its time when the program waited too. A signal in that gap, under a
// millisecond on an idle machine, is dropped: the command goes on as if it
// had not come, and ends as it would have (a hook still answers, or blocks
// at its deadline). Nothing that waits is left without the handler: asking
// for Context's Done waits for it first.
//
// Once caught, a signal ends the process at once, as its default action
// would (reads change nothing, and every write is atomic and survives
// being cut off at any point), in the way main has said (SetExit; a signal
// that comes before main has said waits for it, a second at most),
// unless something waits on Context's Done (a
// change waiting for the store lock): that is cancelled instead, so it can
// say it was interrupted, and the process ends with the same code when the
// command returns. A second signal ends it at once in any case.
//
// It is the one place besides cmd/agents that ends the process: a signal
// is not an error a command returns.
package interrupt

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Exit codes of an interrupted process.
const (
	// CodeInterrupted is the documented exit code of an interrupted
	// command.
	CodeInterrupted = 130
	// CodeHook is the exit code of an interrupted hook: with --hook, every
	// outcome that is not a decision exits 2, which an agent takes as
	// "blocked".
	CodeHook = 2
)

// ExitCode returns the code a process run with args ends with when it is
// interrupted: CodeHook when the arguments ask for a hook's answer
// (--hook or --hook=AGENT, anywhere: a "--" may be a flag's value, and
// taking a hook for a plain command would let it end non-blocking), else
// CodeInterrupted.
func ExitCode(args []string) int {
	for _, a := range args {
		if a == "--hook" || strings.HasPrefix(a, "--hook=") {
			return CodeHook
		}
	}
	return CodeInterrupted
}

// Catcher turns SIGINT, SIGTERM and SIGHUP into an exit with a fixed code, or into
// the cancellation of its context when something waits on it.
type Catcher struct {
	ready   chan struct{} // closed once the handler is in place
	ctx     context.Context
	cancel  context.CancelFunc
	code    int
	signals chan os.Signal
	waiting atomic.Bool // something called Done
	caught  atomic.Bool // a signal came
	exit    atomic.Pointer[func(int)]
	exitSet chan struct{} // closed once exit is set
	setOnce sync.Once
	stop    sync.Once
}

// caught are the signals a Catcher turns into an exit.
var caught = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// notify puts the handler in place; tests hold it back to look into the
// gap before it.
var notify = signal.Notify

// New starts catching SIGINT, SIGTERM and SIGHUP for a process that ends
// with code when interrupted, calling exit to end it; with exit nil, a
// signal waits for SetExit (see end). It returns at once,
// with the signals ignored until the handler is in place (Ready). A
// process has one Catcher: New ignores the signals for every one made
// before. A hook (code CodeHook) also ignores SIGPIPE: an agent that stops
// reading its answer then makes the write fail, and the hook exit 2, where
// the signal's default action would end it with 141, which the agent takes
// as "go ahead".
func New(code int, exit func(int)) *Catcher {
	ctx, cancel := context.WithCancel(context.Background())
	c := &Catcher{ready: make(chan struct{}), ctx: ctx, cancel: cancel, code: code, signals: make(chan os.Signal, 2), exitSet: make(chan struct{})}
	if exit != nil {
		c.SetExit(exit)
	}
	if code == CodeHook {
		signal.Ignore(syscall.SIGPIPE)
	}
	signal.Ignore(caught...)
	go c.catch(notify)
	return c
}

// catch puts the handler in place with notify and acts on the first
// signal.
func (c *Catcher) catch(notify func(chan<- os.Signal, ...os.Signal)) {
	notify(c.signals, caught...)
	close(c.ready)
	c.watch()
}

// Ready is closed once the signals are caught; before, they are ignored.
func (c *Catcher) Ready() <-chan struct{} { return c.ready }

func (c *Catcher) watch() {
	sig, ok := <-c.signals
	if !ok {
		return
	}
	c.caught.Store(true)
	if c.waiting.Load() {
		c.cancel()
		if sig, ok = <-c.signals; !ok {
			return
		}
	}
	if c.code == CodeHook {
		// The agent shows a hook's stderr when it blocks a call.
		fmt.Fprintf(os.Stderr, "agents: error: the hook was stopped (%s) before it decided, so the tool call is blocked\n", sig)
	}
	// The exit says why first, which may wait on a full pipe: a second
	// signal ends the process at once all the same.
	go c.end()
	if _, ok := <-c.signals; ok {
		os.Exit(c.code)
	}
}

// unsetLimit is how long a signal waits for SetExit before the process
// ends without it.
const unsetLimit = time.Second

// end ends the process as SetExit said. A signal can come after the
// handler is in place and before main has said how the process ends (the
// libraries agents is built on are still being initialised): it waits for
// that, a moment at most, so that even an interrupted start says so in
// the command's format rather than ending silently. A program that never
// says (a test binary) ends after unsetLimit with a plain line.
func (c *Catcher) end() {
	select {
	case <-c.exitSet:
	case <-time.After(unsetLimit):
		fmt.Fprintln(os.Stderr, "agents: error: interrupted by a signal before the command finished")
		os.Exit(c.code)
	}
	(*c.exit.Load())(c.code)
}

// process is the catcher of this process, started before main, which says
// how the process ends with SetExit.
var process = New(ExitCode(os.Args[1:]), nil)

// SetExit replaces how the process ends when a signal comes: exit is
// called with the code, and must end the process. A signal that came
// before the first SetExit is acted on now.
func (c *Catcher) SetExit(exit func(int)) {
	c.exit.Store(&exit)
	c.setOnce.Do(func() { close(c.exitSet) })
}

// Process returns the catcher started when the program began.
func Process() *Catcher { return process }

// Context returns the context a signal cancels: its Done channel, once
// asked for, turns a signal from an exit into a cancellation.
func (c *Catcher) Context() context.Context { return waitingContext{c.ctx, c} }

// Caught reports whether a signal came.
func (c *Catcher) Caught() bool { return c.caught.Load() }

// Code is the exit code of the process when a signal came.
func (c *Catcher) Code() int { return c.code }

// Stop stops catching signals, once the handler is in place; from then on
// they have their default action.
func (c *Catcher) Stop() {
	c.stop.Do(func() {
		<-c.ready
		signal.Stop(c.signals)
		close(c.signals)
	})
}

// waitingContext is the catcher's context, noting who waits on it.
type waitingContext struct {
	context.Context
	c *Catcher
}

// Done implements context.Context. Whoever asks for it will wait on it, so
// it first waits for the handler to be in place (a signal is then caught,
// not dropped, however long the wait), and a signal from now on cancels
// the context rather than ending the process.
func (w waitingContext) Done() <-chan struct{} {
	<-w.c.ready
	w.c.waiting.Store(true)
	return w.Context.Done()
}
