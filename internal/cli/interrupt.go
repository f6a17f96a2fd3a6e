package cli

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
)

// interruptContext is a context that SIGINT and SIGTERM cancel, whose
// signal handling is set up only when something first waits on Done: a
// mutation waiting for the store lock, say. Setting it up starts goroutines
// that block on signals and so costs each process a thread, a measurable
// part of a command that agent hooks run on every tool call. Until then a
// signal has its default effect and ends the process at once, which is
// what an interrupt should do to a command that is not waiting for
// anything: reads change nothing, and writes are atomic and survive being
// killed at any point.
type interruptContext struct {
	context.Context // the parent: deadline and values

	once  sync.Once
	inner atomic.Pointer[context.Context] // set once Done is called
	stop  context.CancelFunc
}

func newInterruptContext(parent context.Context) *interruptContext {
	return &interruptContext{Context: parent}
}

// Done implements context.Context, installing the signal handling.
func (c *interruptContext) Done() <-chan struct{} {
	c.once.Do(func() {
		ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
		c.stop = stop
		c.inner.Store(&ctx)
	})
	if p := c.inner.Load(); p != nil {
		return (*p).Done()
	}
	return c.Context.Done() // stopped before anything waited
}

// Err implements context.Context. Before Done is called no signal can
// have been caught, so only the parent can have ended.
func (c *interruptContext) Err() error {
	if p := c.inner.Load(); p != nil {
		return (*p).Err()
	}
	return c.Context.Err()
}

// Stop removes the signal handling, if it was installed.
func (c *interruptContext) Stop() {
	c.once.Do(func() {}) // no handler from now on
	if c.stop != nil {
		c.stop()
	}
}
