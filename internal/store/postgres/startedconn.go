package postgres

import (
	"bytes"
	"encoding/binary"
	"errors"
	"maps"
	"net"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/store/postgres/early"
)

// startedConn is a connection whose start-up message was sent early: the
// driver's own is checked against it and not sent again.
//
// When statements went out behind it (ahead: a lookup, or a warm-up
// query), the server's answer to them comes after the ReadyForQuery that
// ends the start. If the driver's first message after the start is, byte
// for byte, what went ahead, it is not sent again and the driver reads
// that answer as its own, which it is. Otherwise the driver's message goes
// out and Read drops the answer to what went ahead, every message up to
// and including its ReadyForQuery, so the driver reads exactly what it
// would have read on a connection of its own.
type startedConn struct {
	net.Conn
	params  map[string]string
	skipped bool

	ahead   []byte    // what went ahead, until the driver's first message after the start
	aheadAt time.Time // when it went
	drop    bool      // the answer to what went ahead is still to be dropped
	ready   bool      // the start's ReadyForQuery has come
	in      []byte    // read from the server, not yet sifted
	out     []byte    // sifted, for the driver
	chunk   []byte

	// passwordAsked is set when the server asks for a password before
	// the start has ended: it reads what went ahead as the answer and
	// ends the session (package early sends statements ahead only when
	// no password can be given, so none is lost). Everything from then on
	// passes to the driver as it comes, and the store connects again.
	passwordAsked *atomic.Bool
}

// maxAheadAge is how old the answer to what went ahead may be when the
// driver asks the same: a process reaches its first lookup a few
// milliseconds after it starts (tens on a slow machine).
const maxAheadAge = 250 * time.Millisecond

// maxSifted bounds a message read before the driver's own answers begin:
// the start's messages are a few dozen bytes, and a row of a document
// sent ahead holds at most the largest object the store keeps.
const maxSifted = store.MaxObjectSize + 1<<16

func (c *startedConn) Write(b []byte) (int, error) {
	if !c.skipped {
		c.skipped = true
		v, params, ok := early.Decode(b)
		if !ok || v != pgproto3.ProtocolVersion30 || !maps.Equal(params, c.params) {
			// Not what was checked before it was sent: the server holds
			// another session's start, which must not be used.
			return 0, errors.New("the start-up message differs from the one sent early")
		}
		return len(b), nil
	}
	if c.ahead != nil {
		// The answer is taken while it is fresh: it tells how the
		// registry stood when it went, and a command that took longer to
		// ask (it waited for its input, say) must read the registry as it
		// is when it asks.
		same := bytes.Equal(b, c.ahead) && time.Since(c.aheadAt) <= maxAheadAge
		c.ahead = nil
		if same {
			answersTaken.Add(1)
			return len(b), nil
		}
		c.drop = true
	}
	return c.Conn.Write(b)
}

// answersTaken counts the connections whose answer to what went ahead the
// driver read as its own (for tests: the lookup sent ahead must be the
// store's, byte for byte, or it is only ever dropped).
var answersTaken atomic.Int64

// sifting reports whether Read must still look at each message: before
// the start has ended, whether something went ahead (its fate is decided
// only when the driver writes, after the start); after it, its answer is
// being dropped, or the driver has yet to write.
func (c *startedConn) sifting() bool {
	return c.drop || c.ahead != nil
}

func (c *startedConn) Read(p []byte) (int, error) {
	for {
		if len(c.out) > 0 {
			n := copy(p, c.out)
			c.out = c.out[n:]
			return n, nil
		}
		if !c.sifting() {
			if len(c.in) > 0 {
				n := copy(p, c.in)
				c.in = c.in[n:]
				return n, nil
			}
			return c.Conn.Read(p)
		}
		if c.ready && c.ahead != nil {
			// The driver reads before it has sent anything: whatever it
			// waits for, it is not the answer to what went ahead.
			c.ahead, c.drop = nil, true
		}
		if err := c.sift(); err != nil {
			return 0, err
		}
		if len(c.out) > 0 || !c.sifting() {
			continue
		}
		if c.chunk == nil {
			c.chunk = make([]byte, 4096)
		}
		n, err := c.Conn.Read(c.chunk)
		c.in = append(c.in, c.chunk[:n]...)
		if err != nil && n == 0 {
			return 0, err
		}
	}
}

// sift moves the whole messages read so far on: the start's to out, and
// the answer to what went ahead nowhere when it is to be dropped; it stops
// at a partial message, and where sifting ends.
func (c *startedConn) sift() error {
	for (!c.ready || c.drop) && c.sifting() && len(c.in) >= 5 {
		typ, n := c.in[0], int(binary.BigEndian.Uint32(c.in[1:5]))
		if n < 4 || n > maxSifted {
			return errors.New("a message of the server's could not be read")
		}
		if len(c.in) < 1+n {
			return nil
		}
		msg := c.in[:1+n]
		c.in = c.in[1+n:]
		switch {
		case !c.ready && typ == 'R' && (n < 8 || binary.BigEndian.Uint32(msg[5:9]) != 0):
			if c.passwordAsked != nil {
				c.passwordAsked.Store(true)
			}
			c.out = append(c.out, msg...)
			c.ready, c.ahead, c.drop = true, nil, false
		case !c.ready:
			c.out = append(c.out, msg...)
			c.ready = typ == 'Z'
		case typ == 'Z':
			c.drop = false
		case typ == 'S' || typ == 'E' && fatal(msg):
			// A setting the server reports, or the end of the session
			// (an administrator's shutdown, say), is the driver's to
			// know, whatever it is waiting for.
			c.out = append(c.out, msg...)
		}
	}
	return nil
}

// fatal reports whether the ErrorResponse msg ends the session: its
// severity is FATAL or PANIC.
func fatal(msg []byte) bool {
	fields := msg[5:]
	for len(fields) > 0 && fields[0] != 0 {
		code := fields[0]
		end := bytes.IndexByte(fields[1:], 0)
		if end < 0 {
			return false
		}
		value := string(fields[1 : 1+end])
		if (code == 'V' || code == 'S') && (value == "FATAL" || value == "PANIC") {
			return true
		}
		fields = fields[2+end:]
	}
	return false
}
