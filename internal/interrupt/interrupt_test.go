//go:build unix

package interrupt

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain keeps the process's own catcher, started when the test binary
// began, from ending it when a test signals itself.
func TestMain(m *testing.M) {
	process.SetExit(func(int) {})
	<-process.Ready()
	os.Exit(m.Run())
}

func TestExitCode(t *testing.T) {
	for args, want := range map[string]int{
		"":                                      CodeInterrupted,
		"automation-profile list":               CodeInterrupted,
		"automation-profile check-guard --hook": CodeHook,
		"automation-profile check-guard --hook=claude-code": CodeHook,
		// A "--" may be a flag's value (--category --): a hook is a hook
		// wherever --hook stands.
		"automation-profile check-guard -- --hook":                    CodeHook,
		"automation-profile check-guard x --category -- --hook codex": CodeHook,
		"automation-profile check-guard --hooks":                      CodeInterrupted,
	} {
		if got := ExitCode(strings.Fields(args)); got != want {
			t.Errorf("ExitCode(%q) = %d, want %d", args, got, want)
		}
	}
}

// catch starts a catcher whose exits are sent on the returned channel,
// and waits until it catches.
func catch(t *testing.T, code int) (*Catcher, chan int) {
	t.Helper()
	exits := make(chan int, 2)
	c := New(code, func(code int) { exits <- code })
	t.Cleanup(c.Stop)
	select {
	case <-c.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("the handler was not in place after 10s")
	}
	return c, exits
}

// TestSignalBeforeTheHandlerIsDropped holds the handler back: a signal
// then neither kills the process nor counts as caught, nothing waiting on
// the context goes on before the handler is in place, and a signal after
// it is caught.
func TestSignalBeforeTheHandlerIsDropped(t *testing.T) {
	release := make(chan struct{})
	notify = func(c chan<- os.Signal, sig ...os.Signal) {
		<-release
		signal.Notify(c, sig...)
	}
	t.Cleanup(func() { notify = signal.Notify })
	exits := make(chan int, 2)
	c := New(130, func(code int) { exits <- code })
	t.Cleanup(c.Stop)
	letGo := sync.OnceFunc(func() { close(release) })
	t.Cleanup(letGo) // before Stop, which waits for the handler

	for _, sig := range caught {
		if !signal.Ignored(sig) {
			t.Errorf("%v is not ignored before the handler is in place", sig)
		}
	}
	signalSelf(t, syscall.SIGTERM) // the default action would end the test binary here
	gotDone, waited := make(chan struct{}), make(chan struct{})
	go func() {
		done := c.Context().Done()
		close(gotDone)
		<-done
		close(waited)
	}()
	time.Sleep(100 * time.Millisecond)
	select {
	case <-c.Ready():
		t.Fatal("Ready before the handler was in place")
	case <-gotDone:
		t.Fatal("Done returned before the handler was in place")
	case code := <-exits:
		t.Fatalf("exit %d for a signal before the handler was in place", code)
	default:
	}
	if c.Caught() {
		t.Error("Caught() is true for a signal before the handler was in place")
	}

	letGo()
	<-c.Ready()
	// The waiter asked for Done before the handler was in place; it is a
	// waiter once Done has returned to it, which the scheduler may put
	// after Ready: a signal between the two ends the process, as it would
	// with no one waiting.
	<-gotDone
	signalSelf(t, syscall.SIGTERM)
	select {
	case <-waited:
	case code := <-exits:
		t.Fatalf("exited %d instead of cancelling the waiter", code)
	case <-time.After(10 * time.Second):
		t.Fatal("a signal after the handler was in place was not caught")
	}
	if !c.Caught() {
		t.Error("Caught() is false after a signal")
	}
}

// wantExit waits for the exit with code, failing with missing when none
// comes.
func wantExit(t *testing.T, exits <-chan int, code int, missing string) {
	t.Helper()
	select {
	case got := <-exits:
		if got != code {
			t.Errorf("exit %d, want %d", got, code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal(missing)
	}
}

func signalSelf(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
		t.Fatal(err)
	}
}

func TestSignalWithNobodyWaitingEndsTheProcess(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			c, exits := catch(t, 130)
			signalSelf(t, sig)
			wantExit(t, exits, 130, "the signal did not end the process")
			if !c.Caught() {
				t.Error("Caught() is false after a signal")
			}
		})
	}
}

// TestSignalBeforeSetExitWaitsForIt: a signal that comes before the
// program has said how it ends is acted on once it has, not dropped and
// not ended on silently.
func TestSignalBeforeSetExitWaitsForIt(t *testing.T) {
	c := New(130, nil)
	t.Cleanup(c.Stop)
	<-c.Ready()
	signalSelf(t, syscall.SIGTERM)
	deadline := time.Now().Add(10 * time.Second)
	for !c.Caught() {
		if time.Now().After(deadline) {
			t.Fatal("the signal was not caught")
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // a moment for a wrong exit to happen
	exits := make(chan int, 2)
	c.SetExit(func(code int) { exits <- code })
	wantExit(t, exits, 130, "the signal that came before SetExit was not acted on after it")
}

func TestSignalWhileWaitingCancels(t *testing.T) {
	c, exits := catch(t, 2)
	ctx := c.Context()
	done := ctx.Done()
	signalSelf(t, syscall.SIGTERM)
	select {
	case <-done:
	case code := <-exits:
		t.Fatalf("exited %d instead of cancelling the waiter", code)
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not end the context")
	}
	if !errors.Is(ctx.Err(), context.Canceled) || !c.Caught() || c.Code() != 2 {
		t.Errorf("Err() = %v, Caught() = %v, Code() = %d", ctx.Err(), c.Caught(), c.Code())
	}
	// A second signal ends the process, waiter or not.
	signalSelf(t, syscall.SIGINT)
	wantExit(t, exits, 2, "a second signal did not end the process")
}

func TestNoSignalNoCancel(t *testing.T) {
	c, _ := catch(t, 130)
	if c.Context().Err() != nil || c.Caught() {
		t.Error("cancelled without a signal")
	}
	c.Stop()
	c.Stop() // twice is harmless
}
