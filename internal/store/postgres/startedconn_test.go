package postgres

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

func pgMsg(typ byte, body ...byte) []byte {
	b := []byte{typ, 0, 0, 0, 0}
	binary.BigEndian.PutUint32(b[1:], uint32(4+len(body)))
	return append(b, body...)
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

var (
	startAnswer = cat(pgMsg('R', 0, 0, 0, 0), pgMsg('S', 'a', 0, 'b', 0), pgMsg('K', 0, 0, 0, 1, 0, 0, 0, 2), pgMsg('Z', 'I'))
	warmAnswer  = cat(pgMsg('T', 0, 0), pgMsg('D', 0, 0), pgMsg('C', 'S', 0), pgMsg('E', 'S', 'E', 0, 0), pgMsg('Z', 'I'))
	driverReply = cat(pgMsg('1'), pgMsg('2'), pgMsg('D', 0, 1, 0, 0, 0, 1, 'x'), pgMsg('C', 'S', 0), pgMsg('Z', 'I'))
)

// readThrough sends stream to a startedConn in pieces of size bytes and
// returns all the driver reads through it, with reads of readSize bytes;
// ahead is what went ahead, and the driver sends nothing.
func readThrough(t *testing.T, ahead []byte, stream []byte, size, readSize int) ([]byte, error) {
	t.Helper()
	client, server := net.Pipe()
	defer client.Close()
	go func() {
		defer server.Close()
		for len(stream) > 0 {
			n := min(size, len(stream))
			if _, err := server.Write(stream[:n]); err != nil {
				return
			}
			stream = stream[n:]
		}
	}()
	c := &startedConn{Conn: client, ahead: ahead, skipped: true}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	var got []byte
	buf := make([]byte, readSize)
	for {
		n, err := c.Read(buf)
		got = append(got, buf[:n]...)
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
	}
}

// TestStartedConnDropsTheAnswerAhead: through a connection on which a
// warm-up query went ahead, the driver reads the start's answer and then
// its own statements' answers, never the warm-up's, however the bytes
// arrive and whatever it reads them with.
func TestStartedConnDropsTheAnswerAhead(t *testing.T) {
	stream := cat(startAnswer, warmAnswer, driverReply)
	want := cat(startAnswer, driverReply)
	for _, size := range []int{1, 2, 3, 5, 7, 13, len(stream)} {
		for _, readSize := range []int{1, 4, 5, 64, 8192} {
			got, err := readThrough(t, []byte("Q..."), stream, size, readSize)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("pieces of %d, reads of %d: read %q, %v\nwant %q", size, readSize, got, err, want)
			}
		}
	}
	// Without a warm-up, everything passes.
	if got, err := readThrough(t, nil, stream, 3, 64); err != nil || !bytes.Equal(got, stream) {
		t.Fatalf("nothing ahead: read %q, %v", got, err)
	}
}

// TestStartedConnTakesTheAnswerAhead: a driver whose first statements are
// those that went ahead does not send them again, and reads the answer to
// them; one whose statements differ sends its own and reads only their
// answer.
func TestStartedConnTakesTheAnswerAhead(t *testing.T) {
	ahead := []byte("P-the-lookup-S")
	for _, tc := range []struct {
		name     string
		sends    []byte
		wantSent string
		want     []byte
	}{
		{"the same", ahead, "", cat(startAnswer, driverReply)},
		{"others", []byte("P-another-S"), "P-another-S", cat(startAnswer, driverReply)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, server := net.Pipe()
			defer client.Close()
			stream := cat(startAnswer, driverReply)
			if !bytes.Equal(tc.sends, ahead) {
				stream = cat(startAnswer, warmAnswer, driverReply)
			}
			sent := make(chan []byte, 1)
			go func() {
				defer server.Close()
				server.Write(stream[:len(startAnswer)])
				_ = server.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
				buf := make([]byte, 64)
				n, _ := server.Read(buf)
				sent <- buf[:n]
				server.Write(stream[len(startAnswer):])
			}()
			c := &startedConn{Conn: client, ahead: ahead, skipped: true}
			_ = c.SetDeadline(time.Now().Add(10 * time.Second))
			got := make([]byte, len(startAnswer))
			if _, err := io.ReadFull(c, got); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Write(tc.sends); err != nil {
				t.Fatal(err)
			}
			rest, err := io.ReadAll(c)
			if err != nil {
				t.Fatal(err)
			}
			if got := <-sent; string(got) != tc.wantSent {
				t.Errorf("the server was sent %q, want %q", got, tc.wantSent)
			}
			if got = append(got, rest...); !bytes.Equal(got, tc.want) {
				t.Errorf("the driver read %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestStartedConnPassesAPasswordRequest: a request for a password, and
// all that follows it, reach the driver as they came, and the store is
// told, to connect again.
func TestStartedConnPassesAPasswordRequest(t *testing.T) {
	stream := cat(pgMsg('R', 0, 0, 0, 5, 1, 2, 3, 4), pgMsg('E', 'S', 'F', 0, 0), pgMsg('Z', 'I'))
	client, server := net.Pipe()
	defer client.Close()
	go func() {
		defer server.Close()
		server.Write(stream)
	}()
	asked := new(atomic.Bool)
	c := &startedConn{Conn: client, ahead: []byte("Q..."), skipped: true, passwordAsked: asked}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, err := io.ReadAll(c)
	if err != nil || !bytes.Equal(got, stream) || !asked.Load() {
		t.Fatalf("read %q, %v, password asked %v; want all of %q, and true", got, err, asked.Load(), stream)
	}
	if got, err := readThrough(t, []byte("Q..."), []byte{'X', 0x7f, 0xff, 0xff, 0xff, 0}, 9, 64); err == nil {
		t.Fatalf("a message of impossible length was passed on: %q", got)
	}
}

// TestPasswordRequestReachesTheStore: the driver answers the request for a
// password itself (with none to give), the server refuses it, and the
// connection's flag tells the store to connect again.
func TestPasswordRequestReachesTheStore(t *testing.T) {
	client, server := net.Pipe()
	defer server.Close()
	go func() {
		// The start-up message, then a request for a password; then the
		// refusal of whatever comes.
		buf := make([]byte, 1024)
		_, _ = server.Read(buf)
		_, _ = server.Write(pgMsg('R', 0, 0, 0, 3))
		_, _ = server.Read(buf)
		_, _ = server.Write(pgMsg('E', []byte("SFATAL\x00C28P01\x00Mpassword authentication failed\x00\x00")...))
	}()
	cfg, err := pgconn.ParseConfig("postgres://alice@127.0.0.1:1/reg?sslmode=disable&connect_timeout=5")
	if err != nil {
		t.Fatal(err)
	}
	asked := new(atomic.Bool)
	cfg.DialFunc = func(context.Context, string, string) (net.Conn, error) {
		return &startedConn{Conn: client, ahead: []byte("Q..."), skipped: true, passwordAsked: asked}, nil
	}
	_, err = pgconn.ConnectConfig(context.Background(), cfg)
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "28P01" || !asked.Load() {
		t.Fatalf("connect: %v, password asked %v; want the server's refusal, and true", err, asked.Load())
	}
}

// FuzzStartedConn: whatever a server sends on a connection with
// statements ahead, the driver reads a prefix of it (the start's
// messages) and then, once the answer ahead is dropped, the rest of it
// unchanged; nothing else, and never more than was sent.
func FuzzStartedConn(f *testing.F) {
	f.Add(cat(startAnswer, warmAnswer, driverReply), 3)
	f.Add(cat(startAnswer, driverReply), 1)
	f.Add(pgMsg('R', 0, 0, 0, 5, 1, 2, 3, 4), 7)
	f.Fuzz(func(t *testing.T, stream []byte, size int) {
		if size <= 0 || size > 64 || len(stream) > 4096 {
			return
		}
		got, err := readThrough(t, []byte("Q..."), stream, size, 16)
		if len(got) > len(stream) {
			t.Fatalf("read %d bytes of %d sent", len(got), len(stream))
		}
		k := 0
		for k < len(got) && got[k] == stream[k] {
			k++
		}
		if rest := got[k:]; err == nil && !bytes.HasSuffix(stream, rest) {
			t.Fatalf("read %q from %q: neither the start nor what follows the answer ahead", got, stream)
		}
	})
}
