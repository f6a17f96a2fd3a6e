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
// them; one whose statements differ, or that sends them once the answer
// is too old, sends its own and reads only their answer.
func TestStartedConnTakesTheAnswerAhead(t *testing.T) {
	ahead := []byte("P-the-lookup-S")
	for _, tc := range []struct {
		name     string
		sends    []byte
		age      time.Duration // of what went ahead, when the driver sends
		wantSent string
		want     []byte
	}{
		{"the same", ahead, 0, "", cat(startAnswer, driverReply)},
		{"others", []byte("P-another-S"), 0, "P-another-S", cat(startAnswer, driverReply)},
		{"the same, too late", ahead, 2 * maxAheadAge, string(ahead), cat(startAnswer, driverReply)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, server := net.Pipe()
			defer client.Close()
			stream := cat(startAnswer, driverReply)
			if tc.wantSent != "" {
				// What went ahead is answered first, then the driver's.
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
			c := &startedConn{Conn: client, ahead: ahead, aheadAt: time.Now().Add(-tc.age), skipped: true}
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
// statements ahead, the driver reads the start's messages unchanged, and
// then the stream with the answer to what went ahead left out: never a
// byte that was not sent, nor bytes in another order.
func FuzzStartedConn(f *testing.F) {
	f.Add(cat(startAnswer, warmAnswer, driverReply), 3)
	f.Add(cat(startAnswer, driverReply), 1)
	f.Add(pgMsg('R', 0, 0, 0, 5, 1, 2, 3, 4), 7)
	f.Fuzz(func(t *testing.T, stream []byte, size int) {
		if size <= 0 || size > 64 || len(stream) > 4096 {
			return
		}
		got, _ := readThrough(t, []byte("Q..."), stream, size, 16)
		rest := stream
		for _, b := range got {
			i := bytes.IndexByte(rest, b)
			if i < 0 {
				t.Fatalf("read %q from %q: not the stream with parts left out", got, stream)
			}
			rest = rest[i+1:]
		}
		if z := bytes.Index(stream, pgMsg('Z', 'I')); z >= 0 && bytes.HasPrefix(stream, cat(pgMsg('R', 0, 0, 0, 0), pgMsg('Z', 'I'))) && !bytes.HasPrefix(got, stream[:z+6]) {
			t.Fatalf("read %q from %q: the start's messages changed", got, stream)
		}
	})
}

// TestStartedConnPassesTheEndOfTheSession: while the answer to what went
// ahead is dropped, a setting the server reports and an error that ends
// the session still reach the driver; the answer's own errors do not.
func TestStartedConnPassesTheEndOfTheSession(t *testing.T) {
	status := pgMsg('S', 'a', 0, 'c', 0)
	shutdown := pgMsg('E', []byte("SFATAL\x00VFATAL\x00C57P01\x00Mterminating connection due to administrator command\x00\x00")...)
	notice := pgMsg('N', []byte("SNOTICE\x00Mx\x00\x00")...)
	stream := cat(startAnswer, pgMsg('T', 0, 0), notice, status, pgMsg('E', []byte("SERROR\x00VERROR\x00C42P01\x00Mno table\x00\x00")...), shutdown)
	got, err := readThrough(t, []byte("Q..."), stream, 4, 64)
	if want := cat(startAnswer, status, shutdown); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("read %q, %v\nwant %q", got, err, want)
	}
}
