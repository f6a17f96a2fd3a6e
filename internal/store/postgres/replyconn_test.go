package postgres

import (
	"errors"
	"net"
	"os"
	"testing"
	"time"
)

// A server that lets the reply timeout pass without a word has gone
// silent: the driver's attempt to drain or close the exchange afterwards
// fails at once instead of waiting as long again (which doubled the wait
// of a lookup), even when bytes arrive late.
func TestReplyConnGoesSilent(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	c := &replyConn{Conn: client, wait: 20 * time.Millisecond}
	buf := make([]byte, 8)
	if _, err := c.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("first read from a silent server: %v, want the deadline", err)
	}
	go func() { _, _ = server.Write([]byte("late")) }()
	if n, err := c.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) || n != 0 {
		t.Errorf("read after the server went silent: %d bytes, %v; want the deadline at once", n, err)
	}
	if _, err := c.Write([]byte("x")); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("write after the server went silent: %v", err)
	}
}

// A deadline the driver sets (to cancel a call when its context ends)
// passing is the driver's business: the connection is not marked silent.
func TestReplyConnDriverDeadline(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	c := &replyConn{Conn: client, wait: time.Hour}
	if err := c.SetReadDeadline(time.Now().Add(10 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := c.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read past the driver's deadline: %v", err)
	}
	if err := c.SetReadDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = server.Write([]byte("ok")) }()
	if n, err := c.Read(buf); err != nil || string(buf[:n]) != "ok" {
		t.Errorf("read after the driver's own deadline: %q, %v", buf[:n], err)
	}
}

// Only a URL that asks for TLS whatever the server offers turns a server
// without TLS into a TLS setting to change (exit 3); with prefer (the
// default) or allow a plain connection is tried too, and its failure is an
// outage like any other.
func TestTLSRequired(t *testing.T) {
	for mode, want := range map[string]bool{
		"":                               false,
		"disable":                        false,
		"allow":                          false,
		"prefer":                         false,
		"require":                        true,
		"verify-full&sslrootcert=system": true,
	} {
		url := "postgres://u@127.0.0.1:1/db"
		if mode != "" {
			url += "?sslmode=" + mode
		}
		s, err := Open(url, Options{})
		if err != nil {
			t.Fatalf("Open(%s): %v", url, err)
		}
		if got := s.tlsRequired(); got != want {
			t.Errorf("sslmode %q: tlsRequired = %v, want %v", mode, got, want)
		}
	}
}
