//go:build linux

package early

import (
	"context"
	"syscall"
	"time"
)

func init() {
	if args, ok := commandLine(); ok && len(args) > 0 {
		Start(args[1:], func(k string) string {
			v, _ := syscall.Getenv(k)
			return v
		})
	}
}

// commandLine reads the process's arguments from /proc/self/cmdline, as
// os.Args holds them (the package cannot wait for package os); ok is false
// when they cannot be read.
func commandLine() (args []string, ok bool) {
	fd, err := syscall.Open("/proc/self/cmdline", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	var b []byte
	chunk := make([]byte, 4096)
	for {
		n, err := syscall.Read(fd, chunk)
		switch {
		case n > 0:
			b = append(b, chunk[:n]...)
			continue
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, false
		}
		break
	}
	// Each argument ends with a NUL.
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != 0 {
			i++
		}
		if i == len(b) {
			return nil, false // not as the kernel writes it
		}
		args = append(args, string(b[:i]))
		b = b[i+1:]
	}
	return args, true
}

// maxAnswer bounds a message of the server's that Release reads: a row
// of a document sent ahead holds at most the largest object the store
// keeps (store.MaxObjectSize, 16 MiB).
const maxAnswer = 17 << 20

// fdSet adds fd to the set s, whose words are as wide as the platform's
// (64 bits, or 32 on 386 and arm).
func fdSet(s *syscall.FdSet, fd int) {
	bits := syscall.FD_SETSIZE / len(s.Bits)
	s.Bits[fd/bits] |= 1 << (uint(fd) % uint(bits))
}

// absent reports whether no file is at path.
func absent(path string) bool {
	var st syscall.Stat_t
	return syscall.Stat(path, &st) == syscall.ENOENT
}

// terminate sends the Terminate message that ends a session.
func (c *conn) terminate() {
	_, _ = syscall.Write(c.fd, []byte{'X', 0, 0, 0, 4})
}

// answered reads the server's answer to the start-up message until
// ReadyForQuery, and then, if statements went ahead, its answer to them
// up to the next ReadyForQuery, and reports whether they came: false for
// a request for a password (nothing is sent, and the server takes the end
// quietly), an error before the session started, an end, or no answer by
// the deadline. An error in the answer to what went ahead is that
// statement's own and ends nothing.
func (c *conn) answered(deadline time.Time) bool {
	var buf []byte
	chunk := make([]byte, 4096)
	ready := 0
	for {
		for len(buf) >= 5 {
			typ, n := buf[0], int(be32(buf[1:5]))
			if n < 4 || n > maxAnswer {
				return false
			}
			if len(buf) < 1+n {
				break
			}
			switch {
			case typ == 'Z':
				ready++
				if ready == 1 && !c.ahead || ready == 2 {
					return true
				}
			case ready > 0:
			case typ == 'E', typ == 'R' && (n < 8 || be32(buf[5:9]) != 0):
				return false // an error, or a request for a password
			}
			buf = buf[1+n:]
		}
		n, err := syscall.Read(c.fd, chunk)
		switch {
		case n > 0:
			buf = append(buf, chunk[:n]...)
			continue
		case err == syscall.EINTR:
			continue
		case err != syscall.EAGAIN:
			return false // the end, or a failure
		}
		left := time.Until(deadline)
		if left <= 0 || c.fd >= syscall.FD_SETSIZE {
			return false
		}
		var r syscall.FdSet
		fdSet(&r, c.fd)
		tv := syscall.NsecToTimeval(left.Nanoseconds())
		if _, err := syscall.Select(c.fd+1, &r, nil, nil, &tv); err != nil && err != syscall.EINTR {
			return false
		}
	}
}

func (c *conn) close() {
	if c.fd >= 0 {
		syscall.Close(c.fd)
		c.fd = -1
	}
}

// dial starts a connection without waiting for it, and sends the start-up
// message when it is already made; nil when it failed at once.
func dial(g Guess) *conn {
	ip, port, err := splitAddress(g.Address)
	if err != nil {
		return nil
	}
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	c := &conn{guess: g, fd: fd}
	err = syscall.Connect(fd, &syscall.SockaddrInet4{Port: port, Addr: ip})
	if err != nil && err != syscall.EINPROGRESS {
		c.close()
		return nil
	}
	_ = syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1)
	if g.Params == nil || !connected(fd) {
		return c
	}
	msg := Encode(protocol30, g.Params)
	msg = append(msg, g.Ahead...)
	if n, err := syscall.Write(fd, msg); err != nil || n != len(msg) {
		// A fresh socket takes messages this small whole; anything else
		// leaves the server with part of one.
		c.close()
		return nil
	}
	c.sent, c.ahead, c.aheadAt = true, g.Ahead != nil, time.Now()
	return c
}

// connected reports whether fd's connection is made: it has a peer.
func connected(fd int) bool {
	_, err := syscall.Getpeername(fd)
	return err == nil
}

// waitConnected waits, until ctx is done, for fd's connection to be made,
// and reports whether it was.
func waitConnected(ctx context.Context, fd int) bool {
	for {
		if connected(fd) {
			return true
		}
		if soErr, err := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_ERROR); err != nil || soErr != 0 {
			return false // refused, unreachable, timed out
		}
		wait := 50 * time.Millisecond
		if d, ok := ctx.Deadline(); ok {
			wait = min(wait, time.Until(d))
		}
		if wait <= 0 || ctx.Err() != nil || fd >= syscall.FD_SETSIZE {
			return false
		}
		var w syscall.FdSet
		fdSet(&w, fd)
		tv := syscall.NsecToTimeval(wait.Nanoseconds())
		if _, err := syscall.Select(fd+1, nil, &w, nil, &tv); err != nil && err != syscall.EINTR {
			return false
		}
	}
}
