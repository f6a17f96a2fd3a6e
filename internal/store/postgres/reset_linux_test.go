//go:build linux

package postgres

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/store/postgres/early"
)

// TestEarlyConnectionResetIsNotTaken: an early connection the server reset
// before the store took it has no peer, and the driver would send its
// cancel request to a nil address (a crash, in a goroutine of its own):
// the store dials anew instead.
func TestEarlyConnectionResetIsNotTaken(t *testing.T) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback: %v", err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	url := "postgres://alice@" + l.Addr().String() + "/reg?sslmode=disable"
	early.Start([]string{"--store", url, "automation-profile", "show", "acme/x"}, func(string) string { return "" })
	defer early.Release()
	first := <-accepted
	var n [4]byte
	if _, err := io.ReadFull(first, n[:]); err != nil {
		t.Fatal(err)
	}
	io.CopyN(io.Discard, first, int64(binary.BigEndian.Uint32(n[:]))-4)
	// A reset: close with linger 0.
	first.(*net.TCPConn).SetLinger(0)
	first.Close()
	time.Sleep(50 * time.Millisecond)

	s, err := Open(url, Options{LockTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := early.Handed()
	done := make(chan error, 1)
	go func() {
		_, err := s.Profiles().Get(context.Background(), "acme/x")
		done <- err
	}()
	select {
	case second := <-accepted:
		second.Close() // the store's own connection; refused
	case <-time.After(10 * time.Second):
		t.Fatal("the store did not dial anew")
	}
	if err := <-done; err == nil {
		t.Fatal("a read from a server that closed every connection succeeded")
	}
	if early.Handed() != before+1 {
		t.Fatalf("the early connection was not offered to the store (%d)", early.Handed()-before)
	}
	// The driver's cancel request, if any, runs in the background: give
	// it the time to crash the test, as it did when the reset connection
	// was taken.
	time.Sleep(200 * time.Millisecond)
}
