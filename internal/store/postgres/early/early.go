// Package early starts the connection to a PostgreSQL store while the
// process is still starting, so that the server's part of a new
// connection (forking a backend and starting it, about 1.5 ms on a
// loopback) runs beside the rest of the process's start instead of after
// it.
//
// Its init reads the store URL from the command line's --store or, outside
// a hook, from AGENTS_STORE, and when the URL names a server by an IPv4
// address it starts connecting to it, without waiting. When the URL says
// all that the start-up message holds (user, database, sslmode=disable,
// nothing from the libpq environment), it also sends that message, with
// the settings the store would send by default. This is done on Linux
// only; elsewhere the store connects when it is first used.
//
// Nothing is taken on trust: the store asks for the connection with the
// address it is about to dial and the exact start-up parameters it is
// about to send (Take), and gets it only when both are the same; otherwise
// the early connection is closed and the store connects as it would have.
// A guess that turns out wrong costs a backend that exits unused, never a
// different answer.
//
// The package imports only packages that a Go program initializes first
// (sync, syscall, time, context, strconv, errors: not os, strings or
// unicode, which wait for many others), so its init runs early in the
// process's start; it reads the command line from /proc/self/cmdline and
// the environment through syscall.
package early

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"
)

// Defaults of the store and the command line, defined here because this
// package cannot import either (its init must run before their imports
// are initialized); postgres.DefaultSchema and the others are these.
const (
	DefaultSchema         = "agents"
	DefaultAppName        = "agents"
	DefaultLockTimeout    = 10 * time.Second
	DefaultConnectTimeout = 3 * time.Second
	ReplyTimeoutFactor    = 10
)

// protocol30 is the protocol version a start-up message asks for by
// default (3.0).
const protocol30 = 3 << 16

// Guess is what the early connection was made with.
type Guess struct {
	// Network and Address are what was dialed, as net.Dial names them.
	Network, Address string
	// Params is the start-up message sent, or nil when none was.
	Params map[string]string
	// Ahead is what was sent right behind the start-up message (a
	// lookup, or a warm-up query; see ahead.go), or nil.
	Ahead []byte
}

// conn is the early connection: its guess, its socket, whether the
// start-up message went out on it, and whether what goes ahead did.
type conn struct {
	guess   Guess
	fd      int
	sent    bool
	ahead   bool
	aheadAt time.Time // when what goes ahead went
}

var (
	mu        sync.Mutex
	pending   *conn
	handed    int // connections Take handed over
	sentAhead int // of them, those that sent statements ahead
)

// Handed returns how many early connections Take has handed over in this
// process (for tests: a guess that never matches is correct, only slow).
func Handed() int {
	mu.Lock()
	defer mu.Unlock()
	return handed
}

// SentAhead returns how many of the connections Take handed over had sent
// statements ahead.
func SentAhead() int {
	mu.Lock()
	defer mu.Unlock()
	return sentAhead
}

// Plan returns what Start does for args and getenv: where it connects
// and what it sends, and ok false when it does nothing.
func Plan(args []string, getenv func(string) string) (g Guess, ok bool) {
	return guessFrom(args, getenv)
}

// Start connects to the store args and getenv name, when the URL allows it
// (see the package comment), and sends the start-up message if the
// connection is made at once (as on a loopback). Nothing waits: a
// connection still being made is finished, or dropped, by Take. Start
// replaces any early connection not yet taken.
func Start(args []string, getenv func(string) string) {
	g, ok := guessFrom(args, getenv)
	mu.Lock()
	defer mu.Unlock()
	if pending != nil {
		pending.close()
		pending = nil
	}
	if !ok {
		return
	}
	if c := dial(g); c != nil {
		pending = c
	}
}

// Take returns the early connection's socket when it was made to network
// and address, and, if it sent the start-up message, when that message's
// protocol version and parameters are exactly version and params. sent
// says whether it did: the caller must then not send it again. ahead is
// what went out behind it (nil for nothing): the server's answer to it
// follows the ReadyForQuery that ends the start, and the caller reads it
// as its own when it sends the very same bytes first (it must then not
// send them), and drops it otherwise. aheadAt is when it went: the answer
// tells how the registry stood then. An early connection that does not match, or that fails, is
// closed, and -1 returned. Only the first call can return a connection;
// the caller owns the descriptor (os.NewFile and net.FileConn make a
// connection of it).
func Take(ctx context.Context, network, address string, version uint32, params map[string]string) (fd int, sent bool, ahead []byte, aheadAt time.Time) {
	mu.Lock()
	c := pending
	pending = nil
	mu.Unlock()
	if c == nil {
		return -1, false, nil, time.Time{}
	}
	if c.guess.Network != network || c.guess.Address != address ||
		c.sent && (version != protocol30 || !sameParams(c.guess.Params, params)) {
		// Another start than the store's (a lock timeout from
		// config.yaml, say): ended in the background as Release ends an
		// unused one, so that the server reads an orderly goodbye and
		// not a reset.
		ending.Add(1)
		go func() {
			defer ending.Done()
			c.end()
		}()
		return -1, false, nil, time.Time{}
	}
	if !c.sent && !waitConnected(ctx, c.fd) {
		c.close()
		return -1, false, nil, time.Time{}
	}
	fd, c.fd = c.fd, -1
	mu.Lock()
	handed++
	if c.ahead {
		ahead, aheadAt = c.guess.Ahead, c.aheadAt
		sentAhead++
	}
	mu.Unlock()
	return fd, c.sent, ahead, aheadAt
}

// Release ends the early connection if nobody took it: when the start-up
// message went out, it reads the server's answer, and the answer to what
// went ahead if something did (for at most releaseWait), and, if
// the session started, says goodbye with a Terminate message, as a client
// does; then it closes the socket with nothing left unread, so the server
// sees an orderly end and logs nothing.
func Release() {
	mu.Lock()
	c := pending
	pending = nil
	mu.Unlock()
	if c != nil {
		c.end()
	}
	ending.Wait()
}

// ending counts the early connections Take refused that are still being
// ended.
var ending sync.WaitGroup

// end ends an early connection nobody will use: it reads the server's
// answer when the start-up message went out, says goodbye if the session
// started, and closes the socket.
func (c *conn) end() {
	if c.sent && c.answered(time.Now().Add(releaseWait)) {
		c.terminate()
	}
	c.close()
}

// releaseWait bounds how long Release waits for the server's answer.
const releaseWait = 100 * time.Millisecond

// Encode is a start-up message: its length, the protocol version, then
// each parameter's name and value, NUL-terminated, and a final NUL.
// Parameters are written in a fixed order (sorted), which the server does
// not mind.
func Encode(version uint32, params map[string]string) []byte {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sortStrings(keys)
	b := make([]byte, 8, 64)
	putBE32(b[4:], version)
	for _, k := range keys {
		b = append(b, k...)
		b = append(b, 0)
		b = append(b, params[k]...)
		b = append(b, 0)
	}
	b = append(b, 0)
	putBE32(b, uint32(len(b)))
	return b
}

// Decode reads a start-up message as Encode writes it, in any parameter
// order; ok is false for anything else.
func Decode(b []byte) (version uint32, params map[string]string, ok bool) {
	if len(b) < 9 || int(be32(b)) != len(b) || b[len(b)-1] != 0 {
		return 0, nil, false
	}
	version = be32(b[4:])
	params = map[string]string{}
	rest := b[8 : len(b)-1]
	for len(rest) > 0 {
		k, r, found := cutNUL(rest)
		if !found || k == "" {
			return 0, nil, false
		}
		v, r2, found := cutNUL(r)
		if !found {
			return 0, nil, false
		}
		if _, dup := params[k]; dup {
			return 0, nil, false
		}
		params[k], rest = v, r2
	}
	return version, params, true
}

func cutNUL(b []byte) (string, []byte, bool) {
	for i, c := range b {
		if c == 0 {
			return string(b[:i]), b[i+1:], true
		}
	}
	return "", nil, false
}

func sameParams(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// sortStrings is an insertion sort: the package keeps to the packages
// initialized first, and a start-up message has a handful of parameters.
func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// splitAddress reads "a.b.c.d:port".
func splitAddress(addr string) ([4]byte, int, error) {
	var ip [4]byte
	host, port, found := cut(addr, ':')
	if !found {
		return ip, 0, errors.New("no port")
	}
	p, err := strconv.Atoi(port)
	if err != nil || p <= 0 || p > 65535 {
		return ip, 0, errors.New("bad port")
	}
	if countByte(host, '.') != 3 {
		return ip, 0, errors.New("not an IPv4 address")
	}
	for i := range ip {
		s, rest, _ := cut(host, '.')
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > 255 || len(s) > 1 && s[0] == '0' {
			return ip, 0, errors.New("not an IPv4 address")
		}
		ip[i], host = byte(n), rest
	}
	return ip, p, nil
}
