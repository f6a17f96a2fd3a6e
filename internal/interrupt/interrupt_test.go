//go:build unix

package interrupt

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain keeps the process's own catcher, started when the test binary
// began, from ending it when a test signals itself.
func TestMain(m *testing.M) {
	noop := func(int) {}
	process.exit.Store(&noop)
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

// catch starts a catcher whose exits are sent on the returned channel.
func catch(t *testing.T, code int) (*Catcher, chan int) {
	t.Helper()
	exits := make(chan int, 2)
	c := New(code, func(code int) { exits <- code })
	t.Cleanup(c.Stop)
	return c, exits
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
			select {
			case code := <-exits:
				if code != 130 {
					t.Errorf("exit %d", code)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the signal did not end the process")
			}
			if !c.Caught() {
				t.Error("Caught() is false after a signal")
			}
		})
	}
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
	select {
	case code := <-exits:
		if code != 2 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a second signal did not end the process")
	}
}

func TestNoSignalNoCancel(t *testing.T) {
	c, _ := catch(t, 130)
	if c.Context().Err() != nil || c.Caught() {
		t.Error("cancelled without a signal")
	}
	c.Stop()
	c.Stop() // twice is harmless
}
