//go:build unix

package cli

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"
)

func TestInterruptContextCatchesSignalsOnceWaitedOn(t *testing.T) {
	ctx := newInterruptContext(context.Background())
	defer ctx.Stop()
	if ctx.inner.Load() != nil || ctx.Err() != nil {
		t.Fatal("signal handling was set up before anything waited")
	}
	done := ctx.Done()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("SIGINT did not end the context")
	}
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("Err() = %v after SIGINT", ctx.Err())
	}
}

func TestInterruptContextFollowsItsParent(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	ctx := newInterruptContext(parent)
	cancel()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("Err() = %v before Done, with the parent cancelled", ctx.Err())
	}
	ctx.Stop()
	select {
	case <-ctx.Done():
	default:
		t.Error("Done after Stop is not the parent's")
	}
}
