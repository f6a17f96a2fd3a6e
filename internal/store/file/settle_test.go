package file

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/errs"
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

	holding, release, done := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		done <- s.mutate(ctx, func(*txn) error {
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
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
	holding, release = make(chan struct{}), make(chan struct{})
	go func() {
		done <- s.mutate(ctx, func(*txn) error {
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding
	err = short.Settle(ctx)
	close(release)
	<-done
	if !errs.Is(err, errs.KindLocked) {
		t.Fatalf("a writer past the lock timeout: %v, want the lock error", err)
	}
}
