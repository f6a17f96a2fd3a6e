//go:build linux

package early

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"maps"
	"net"
	"os"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"
)

// server is a stand-in for PostgreSQL on a loopback port: it records what
// the client sends on each connection.
type server struct {
	ln    net.Listener
	conns chan net.Conn
}

func newServer(t *testing.T) *server {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback: %v", err)
	}
	s := &server{ln: ln, conns: make(chan net.Conn, 4)}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.conns <- c
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return s
}

func (s *server) url() string {
	return "postgres://alice@" + s.ln.Addr().String() + "/reg?sslmode=disable"
}

func (s *server) accept(t *testing.T) net.Conn {
	t.Helper()
	select {
	case c := <-s.conns:
		t.Cleanup(func() { c.Close() })
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("no connection came")
		return nil
	}
}

// startup reads a start-up message.
func startup(t *testing.T, c net.Conn) map[string]string {
	t.Helper()
	var n [4]byte
	if _, err := io.ReadFull(c, n[:]); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, binary.BigEndian.Uint32(n[:]))
	copy(b, n[:])
	if _, err := io.ReadFull(c, b[4:]); err != nil {
		t.Fatal(err)
	}
	v, p, ok := Decode(b)
	if !ok || v != protocol30 {
		t.Fatalf("not a start-up message: %q", b)
	}
	return p
}

func msg(typ byte, body ...byte) []byte {
	b := []byte{typ, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(b[1:], uint32(4+len(body)))
	return append(b, body...)
}

func taken(t *testing.T, want map[string]string) (net.Conn, func(map[string]string) (bool, bool)) {
	s := newServer(t)
	Start([]string{"--store", s.url(), "automation-profile", "show", "acme/x"}, env())
	t.Cleanup(Release)
	c := s.accept(t)
	if got := startup(t, c); !reflect.DeepEqual(got, want) {
		t.Fatalf("start-up sent early: %v, want %v", got, want)
	}
	return c, func(p map[string]string) (got, sent bool) {
		fd, sent, _, _ := Take(context.Background(), "tcp", s.ln.Addr().String(), protocol30, p)
		if fd >= 0 {
			syscall.Close(fd)
		}
		return fd >= 0, sent
	}
}

func TestTakeOnlyTheSameStart(t *testing.T) {
	p := maps.Clone(defaults)
	p["user"], p["database"] = "alice", "reg"
	t.Run("same", func(t *testing.T) {
		_, take := taken(t, p)
		if got, sent := take(maps.Clone(p)); !got || !sent {
			t.Fatalf("the same start was not taken: %v %v", got, sent)
		}
		if got, _ := take(p); got {
			t.Fatal("taken twice")
		}
	})
	for _, change := range []map[string]string{
		{"search_path": "other"}, {"user": "bob"}, {"lock_timeout": "1"}, {"extra": "1"},
	} {
		t.Run("another", func(t *testing.T) {
			c, take := taken(t, p)
			q := maps.Clone(p)
			maps.Copy(q, change)
			if got, _ := take(q); got {
				t.Fatalf("a start with %v was taken for one with %v", p, q)
			}
			// The early connection is closed: the server reads its end.
			if _, err := c.Read(make([]byte, 1)); err != io.EOF {
				t.Fatalf("the early connection was not ended: %v", err)
			}
		})
	}
}

func TestTakeChecksTheAddress(t *testing.T) {
	s := newServer(t)
	Start([]string{"--store", s.url(), "plan", "list"}, env())
	defer Release()
	c := s.accept(t)
	startup(t, c)
	if fd, _, _, _ := Take(context.Background(), "tcp", "127.0.0.1:1", protocol30, defaults); fd >= 0 {
		t.Fatal("taken for another address")
	}
	if _, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("the early connection was not ended: %v", err)
	}
}

func TestReleaseSaysGoodbye(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer []byte
		want   string
	}{
		// AuthenticationOk, a ParameterStatus, ReadyForQuery: Terminate.
		{"session started", append(append(msg('R', 0, 0, 0, 0), msg('S', 'a', 0, 'b', 0)...), msg('Z', 'I')...), "X\x00\x00\x00\x04"},
		// A password is asked for: nothing is sent.
		{"password asked", msg('R', 0, 0, 0, 5, 1, 2, 3, 4), ""},
		{"error", msg('E', 'S', 'F', 0, 0), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t)
			Start([]string{"--store", s.url(), "plan", "list"}, env())
			c := s.accept(t)
			startup(t, c)
			if _, err := c.Write(tc.answer); err != nil {
				t.Fatal(err)
			}
			Release()
			got, err := io.ReadAll(c)
			if err != nil {
				t.Fatalf("the connection ended with %v, not an orderly close (a reset is logged by the server)", err)
			}
			if string(got) != tc.want {
				t.Fatalf("sent %q at the end, want %q", got, tc.want)
			}
		})
	}
}

func TestReleaseWithoutAnswerEnds(t *testing.T) {
	s := newServer(t)
	Start([]string{"--store", s.url(), "plan", "list"}, env())
	c := s.accept(t)
	startup(t, c)
	start := time.Now()
	Release()
	if d := time.Since(start); d < releaseWait/2 || d > 10*releaseWait {
		t.Errorf("Release waited %v for an answer that never came, want about %v", d, releaseWait)
	}
	if got, err := io.ReadAll(c); err != nil || len(got) != 0 {
		t.Fatalf("got %q, %v after the start-up message", got, err)
	}
}

func TestNothingStartedWithoutAServer(t *testing.T) {
	s := newServer(t)
	addr := s.ln.Addr().String()
	s.ln.Close()
	Start([]string{"--store", "postgres://alice@" + addr + "/reg?sslmode=disable", "plan", "list"}, env())
	defer Release()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if fd, _, _, _ := Take(ctx, "tcp", addr, protocol30, defaults); fd >= 0 {
		t.Fatal("a connection to a closed port was handed over")
	}
}

func TestDialOnlyHandsOverTheConnection(t *testing.T) {
	s := newServer(t)
	u := strings.Replace(s.url(), "sslmode=disable", "sslmode=prefer", 1)
	Start([]string{"--store", u, "plan", "list"}, env())
	defer Release()
	c := s.accept(t)
	fd, sent, _, _ := Take(context.Background(), "tcp", s.ln.Addr().String(), protocol30, defaults)
	if fd < 0 || sent {
		t.Fatalf("Take = %v, sent %v; want the connection, nothing sent", fd, sent)
	}
	f := os.NewFile(uintptr(fd), "early")
	defer f.Close()
	if _, err := f.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 5)
	if _, err := io.ReadFull(c, got); err != nil || string(got) != "hello" {
		t.Fatalf("server read %q, %v: the connection handed over is not the one it accepted", got, err)
	}
}

// TestCommandLine: the arguments read from /proc are os.Args.
func TestCommandLine(t *testing.T) {
	got, ok := commandLine()
	if !ok || !reflect.DeepEqual(got, os.Args) {
		t.Fatalf("commandLine() = %q, %v; os.Args = %q", got, ok, os.Args)
	}
}

// query reads a simple Query message and returns its text.
func query(t *testing.T, c net.Conn) string {
	t.Helper()
	var h [5]byte
	if _, err := io.ReadFull(c, h[:]); err != nil {
		t.Fatal(err)
	}
	if h[0] != 'Q' {
		t.Fatalf("message %q, want a Query", h[0])
	}
	b := make([]byte, binary.BigEndian.Uint32(h[1:])-4)
	if _, err := io.ReadFull(c, b); err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 || b[len(b)-1] != 0 {
		t.Fatalf("query %q not NUL-terminated", b)
	}
	return string(b[:len(b)-1])
}

func TestAheadSentAndTaken(t *testing.T) {
	s := newServer(t)
	Start([]string{"--store", s.url(), "plan", "show", "p1"}, env("HOME", t.TempDir()))
	t.Cleanup(Release)
	c := s.accept(t)
	startup(t, c)
	if got, want := query(t, c), Warmup(DefaultSchema, []string{"plans", "profiles"}); got != want {
		t.Fatalf("warm-up %q, want %q", got, want)
	}
	fd, sent, ahead, _ := Take(context.Background(), "tcp", s.ln.Addr().String(), protocol30, defaults)
	if fd < 0 || !sent || !bytes.Equal(ahead, EncodeQuery(Warmup(DefaultSchema, []string{"plans", "profiles"}))) {
		t.Fatalf("Take = %d, sent %v, ahead %q; want the connection, both sent", fd, sent, ahead)
	}
	syscall.Close(fd)
}

// TestReleaseReadsTheWarmupAnswer: an early connection nobody took reads
// the answer to what it sent ahead too (an error in it included) before it says
// goodbye, so that it closes with nothing unread.
func TestReleaseReadsTheWarmupAnswer(t *testing.T) {
	started := append(append(msg('R', 0, 0, 0, 0), msg('S', 'a', 0, 'b', 0)...), msg('Z', 'I')...)
	for _, tc := range []struct {
		name    string
		answers [][]byte
		want    string
	}{
		{"answered", [][]byte{started, append(append(msg('T', 0, 0), msg('C', 'S', 0)...), msg('Z', 'I')...)}, "X\x00\x00\x00\x04"},
		{"the warm-up failed", [][]byte{started, append(msg('E', 'S', 'E', 0, 0), msg('Z', 'I')...)}, "X\x00\x00\x00\x04"},
		{"no answer to the warm-up", [][]byte{started}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t)
			Start([]string{"--store", s.url(), "plan", "list"}, env("HOME", t.TempDir()))
			c := s.accept(t)
			startup(t, c)
			query(t, c) // the warm-up
			for _, a := range tc.answers {
				if _, err := c.Write(a); err != nil {
					t.Fatal(err)
				}
			}
			Release()
			got, _ := io.ReadAll(c)
			if string(got) != tc.want {
				t.Fatalf("sent %q at the end, want %q", got, tc.want)
			}
		})
	}
}

// TestAnsweredWaitsOnAHighDescriptor: answered waits with select on a
// descriptor past the first word of the set (whose words are 32 bits wide
// on some platforms), and sees the answer come.
func TestAnsweredWaitsOnAHighDescriptor(t *testing.T) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fds[1])
	const high = 100
	if err := syscall.Dup3(fds[0], high, syscall.O_CLOEXEC); err != nil {
		t.Skipf("dup3: %v", err)
	}
	syscall.Close(fds[0])
	if err := syscall.SetNonblock(high, true); err != nil {
		t.Fatal(err)
	}
	c := &conn{fd: high, sent: true}
	defer c.close()
	go func() {
		time.Sleep(100 * time.Millisecond)
		syscall.Write(fds[1], append(msg('R', 0, 0, 0, 0), msg('Z', 'I')...))
	}()
	start := time.Now()
	if !c.answered(time.Now().Add(5 * time.Second)) {
		t.Fatalf("no answer seen after %v", time.Since(start))
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("the answer was seen only after %v: select watched another descriptor", d)
	}
}

// TestRefusedConnectionSaysGoodbye: an early connection Take refuses for
// another start is ended as Release ends an unused one: the server's
// answer is read and a Terminate sent, so the server logs no lost client.
func TestRefusedConnectionSaysGoodbye(t *testing.T) {
	c, take := taken(t, defaults)
	if _, err := c.Write(append(msg('R', 0, 0, 0, 0), msg('Z', 'I')...)); err != nil {
		t.Fatal(err)
	}
	if got, _ := take(with(map[string]string{"lock_timeout": "5000"})); got {
		t.Fatal("taken for another start")
	}
	Release() // waits for the connection to be ended
	got, err := io.ReadAll(c)
	if err != nil || string(got) != "X\x00\x00\x00\x04" {
		t.Fatalf("the server read %q, %v; want a Terminate and the end", got, err)
	}
}
