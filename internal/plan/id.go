package plan

import (
	"crypto/rand"
	"encoding/binary"
	"io"
	"time"

	"github.com/agentsctl/agents/internal/errs"
)

// IDLength is the length of a plan id.
const IDLength = 26

// alphabet is Crockford's base 32 in lower case: no i, l, o or u, so an id
// read aloud or retyped is hard to get wrong, and no letter case, so ids
// never collide on a case-insensitive file system.
const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// NewID returns a new plan id for a plan created at t: 26 characters, the
// first ten the milliseconds since the Unix epoch and the other sixteen 80
// random bits (the layout of a ULID, in lower case). Ids sort as their
// creation times do, to the millisecond, and two plans made in the same
// millisecond differ in their random part. random is crypto/rand's reader
// when nil.
func NewID(t time.Time, random io.Reader) (string, error) {
	if random == nil {
		random = rand.Reader
	}
	ms := t.UnixMilli()
	if ms < 0 || ms >= 1<<48 {
		return "", errs.New(errs.KindInternal, "the clock reads %s, outside the range plan ids can hold", t.Format(time.RFC3339))
	}
	var r [10]byte
	if _, err := io.ReadFull(random, r[:]); err != nil {
		return "", errs.Wrap(errs.KindInternal, err, "cannot read random bytes for a plan id")
	}
	var id [IDLength]byte
	for i := 9; i >= 0; i-- {
		id[i] = alphabet[ms&31]
		ms >>= 5
	}
	// 80 random bits as 16 characters of 5 bits each.
	hi := uint64(binary.BigEndian.Uint16(r[:2]))
	lo := binary.BigEndian.Uint64(r[2:])
	for i := IDLength - 1; i >= 10; i-- {
		id[i] = alphabet[lo&31]
		lo = lo>>5 | (hi&31)<<59
		hi >>= 5
	}
	return string(id[:]), nil
}

// CheckID returns why id is not a plan id, or "" when it is. Ids become
// file names, so nothing but the id alphabet is allowed.
func CheckID(id string) string {
	if len(id) != IDLength {
		return "must be 26 characters of the plan id alphabet (0-9 and lower-case letters except i, l, o, u)"
	}
	for i := 0; i < len(id); i++ {
		if indexOf(id[i]) < 0 {
			return "must be 26 characters of the plan id alphabet (0-9 and lower-case letters except i, l, o, u)"
		}
	}
	if id[0] > '7' {
		return "is out of range: its time part is too large"
	}
	return ""
}

// IsIDPrefix reports whether s is made of the plan id alphabet alone, so
// that it may be the start of an id.
func IsIDPrefix(s string) bool {
	for i := 0; i < len(s); i++ {
		if indexOf(s[i]) < 0 {
			return false
		}
	}
	return true
}

// ValidateID returns an invalid-input error unless id is a plan id.
func ValidateID(id string) error {
	if why := CheckID(id); why != "" {
		return errs.Invalid("invalid plan id %q: %s", id, why).About(errs.AboutPlan, id)
	}
	return nil
}

func indexOf(c byte) int {
	for i := 0; i < len(alphabet); i++ {
		if alphabet[i] == c {
			return i
		}
	}
	return -1
}
