package file

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store/storetest"
)

// Settle returns once no writer holds the store lock: at once with none
// (and with no lock file, which it does not create), after the writer
// with one, and with the lock error when the writer outlasts the lock
// timeout.
func TestSettleWaitsForTheWriter(t *testing.T) {
	ctx := context.Background()
	home := filepath.Join(t.TempDir(), "home")
	s, err := Open(home, Options{LockTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Settle(ctx); err != nil {
		t.Fatalf("no store yet: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(home, lockName)); !os.IsNotExist(err) {
		t.Fatalf("Settle created something: %v", err)
	}

	release, done := hold(s)
	settled := make(chan error)
	go func() { settled <- s.Settle(ctx) }()
	select {
	case err := <-settled:
		t.Fatalf("Settle returned while a writer held the lock: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-settled:
		if err != nil {
			t.Fatalf("Settle after the writer: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Settle still waiting after the writer let go")
	}

	short, err := Open(home, Options{LockTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	release, done = hold(s)
	err = short.Settle(ctx)
	close(release)
	<-done
	if !errs.Is(err, errs.KindLocked) {
		t.Fatalf("a writer past the lock timeout: %v, want the lock error", err)
	}
}

// hold starts a mutation of s that holds the lock until release is
// closed, and returns once it holds it; done gets the mutation's error.
func hold(s *Store) (release chan struct{}, done chan error) {
	holding := make(chan struct{})
	release, done = make(chan struct{}), make(chan error, 1)
	go func() {
		done <- s.mutate(context.Background(), func(*txn) error {
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
	return release, done
}

// doneWatcher is a context that notes whether Done was asked for, as the
// process's signal catcher does (package interrupt): asked for, a signal
// cancels the context rather than ending the process.
type doneWatcher struct {
	context.Context
	asked atomic.Bool
}

func (d *doneWatcher) Done() <-chan struct{} {
	d.asked.Store(true)
	return d.Context.Done()
}

// A change asks for its context's Done before it writes anything, even
// when the lock is free at once (and nothing waits for it): a signal then
// cancels the context instead of ending the process between the document
// and its history line, and a change cancelled before it writes stops.
func TestChangeIsNotCutOffBySignal(t *testing.T) {
	ctx := &doneWatcher{Context: context.Background()}
	var opts Options
	opts.LockTimeout = time.Second
	askedFirst := true
	SetBeforeRename(&opts, func(string, string) {
		if !ctx.asked.Load() {
			askedFirst = false
		}
	})
	s, err := Open(filepath.Join(t.TempDir(), "home"), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Profiles().Put(ctx, storetest.Profile(t, "acme/a", 1), false); err != nil {
		t.Fatal(err)
	}
	if !askedFirst {
		t.Error("the change wrote before asking for its context's Done: a signal would end the process mid-change")
	}

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Profiles().Put(cancelled, storetest.Profile(t, "acme/b", 1), false); !errs.Is(err, errs.KindInterrupted) {
		t.Fatalf("a change cancelled before it began: %v, want interrupted", err)
	}
	if _, err := s.Profiles().Get(context.Background(), "acme/b"); !errs.Is(err, errs.KindNotFound) {
		t.Errorf("a change cancelled before it began wrote its document: %v", err)
	}
}
