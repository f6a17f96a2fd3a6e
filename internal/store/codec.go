package store

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/agentsctl/agents/internal/profile"
)

// Codec is a versioned binary encoding of decoded documents: the file
// store keeps it in its derived cache, the PostgreSQL store beside each
// row. A reader uses an encoding only when it was written with the version
// it reads.
type Codec[T any] struct {
	version uint32
	append  func(b []byte, v T) []byte
	read    func(r *Reader) (T, error)
}

// Version changes whenever the encoding or the document type changes.
func (c *Codec[T]) Version() uint32 { return c.version }

// Append appends the encoding of v to b.
func (c *Codec[T]) Append(b []byte, v T) []byte { return c.append(b, v) }

// Read decodes one document encoded by Append; an error means the bytes
// are damaged or were written by another version.
func (c *Codec[T]) Read(b []byte) (T, error) { return c.read(NewReader(b)) }

// profileCodec keeps decoded profiles in the derived cache in a compact
// binary form that reads back in well under a microsecond, against the tens
// of microseconds YAML costs. Its version must change whenever the encoding
// or AutomationProfile changes (TestProfileCodecVersionPinsLayout fails
// until it does), or whenever the decoder starts judging stored files
// differently.
var profileCodec = &Codec[*profile.AutomationProfile]{
	version: 1,
	append:  appendProfile,
	read:    readProfile,
}

func appendProfile(b []byte, p *profile.AutomationProfile) []byte {
	b = AppendString(b, p.Name)
	b = AppendString(b, p.Description)
	b = AppendString(b, p.SchemaVersion)
	for _, g := range profile.Gates {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(g.Value(p)))
	}
	s := p.Safety
	b = append(b, flags(s.RequireSandbox, s.RequireCheckpoints, s.AllowUnsafeTools, s.RequireHumanApproval))
	b = appendStrings(b, s.AllowedSkillCategories)
	b = appendFloatPtr(b, s.MaxCostPerPlan)
	b = appendFloatPtr(b, s.MaxTotalCost)
	b = binary.AppendVarint(b, int64(s.MaxRetriesPerStep))
	g := p.Guards
	if g == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	if g.MaxToolCallsPerStep == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = binary.AppendVarint(b, int64(*g.MaxToolCallsPerStep))
	}
	b = appendFloatPtr(b, g.MaxTotalCost)
	b = appendStrings(b, g.ToolAllowlist)
	b = appendStrings(b, g.ToolDenylist)
	return append(b, flags(g.RequireApprovalForWrites, g.RequireApprovalForApply))
}

func readProfile(r *Reader) (*profile.AutomationProfile, error) {
	p := &profile.AutomationProfile{
		Name:          r.Str(),
		Description:   r.Str(),
		SchemaVersion: r.Str(),
	}
	for _, g := range profile.Gates {
		g.Set(p, math.Float64frombits(r.Uint64()))
	}
	f := r.Byte()
	p.Safety = profile.SafetyProfile{
		RequireSandbox:         f&1 != 0,
		RequireCheckpoints:     f&2 != 0,
		AllowUnsafeTools:       f&4 != 0,
		RequireHumanApproval:   f&8 != 0,
		AllowedSkillCategories: r.Strs(),
		MaxCostPerPlan:         r.floatPtr(),
		MaxTotalCost:           r.floatPtr(),
		MaxRetriesPerStep:      int(r.Varint()),
	}
	if r.Byte() == 1 {
		g := &profile.AutomationGuard{}
		if r.Byte() == 1 {
			n := int(r.Varint())
			g.MaxToolCallsPerStep = &n
		}
		g.MaxTotalCost = r.floatPtr()
		g.ToolAllowlist = r.Strs()
		g.ToolDenylist = r.Strs()
		f := r.Byte()
		g.RequireApprovalForWrites = f&1 != 0
		g.RequireApprovalForApply = f&2 != 0
		p.Guards = g
	}
	if r.Err() != nil || r.Len() != 0 {
		return nil, errors.New("damaged cache entry")
	}
	return p, nil
}

func flags(bits ...bool) byte {
	var f byte
	for i, b := range bits {
		if b {
			f |= 1 << i
		}
	}
	return f
}

// AppendString appends s as Reader.Str reads it: its length, then its
// bytes.
func AppendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendStrings keeps a nil list apart from an empty one: the profile
// format gives them different meanings (an absent allowlist against one
// that allows nothing).
func appendStrings(b []byte, list []string) []byte {
	if list == nil {
		return binary.AppendUvarint(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(list))+1)
	for _, s := range list {
		b = AppendString(b, s)
	}
	return b
}

func appendFloatPtr(b []byte, f *float64) []byte {
	if f == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(*f))
}

// Reader reads the fields of a binary encoding: a Codec's, and the file
// store's cache around it. The first error sticks: every later read
// returns zero values, and the caller checks Err once.
type Reader struct {
	b   []byte
	err error
}

// NewReader returns a reader of b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

var errShort = errors.New("encoding ends early")

// Err is the first error a read met.
func (r *Reader) Err() error { return r.err }

// Len is the number of bytes left to read.
func (r *Reader) Len() int { return len(r.b) }

// Bytes reads the next n bytes, without copying them.
func (r *Reader) Bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = errShort
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	b := r.Bytes(1)
	if b == nil {
		return 0
	}
	return b[0]
}

// Uint32 reads a little-endian uint32.
func (r *Reader) Uint32() uint32 {
	b := r.Bytes(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

// Uint64 reads a little-endian uint64.
func (r *Reader) Uint64() uint64 {
	b := r.Bytes(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// Uvarint reads an unsigned varint.
func (r *Reader) Uvarint() uint64 { return readVarint(r, binary.Uvarint) }

// Varint reads a signed varint.
func (r *Reader) Varint() int64 { return readVarint(r, binary.Varint) }

func readVarint[T uint64 | int64](r *Reader, read func([]byte) (T, int)) T {
	if r.err != nil {
		return 0
	}
	v, n := read(r.b)
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.b = r.b[n:]
	return v
}

// Str reads a string written by AppendString.
func (r *Reader) Str() string {
	n := r.Uvarint()
	if n > uint64(len(r.b)) {
		r.err = errShort
		return ""
	}
	return string(r.Bytes(int(n)))
}

// Strs reads a list written by appendStrings: nil stays nil.
func (r *Reader) Strs() []string {
	n := r.Uvarint()
	if n == 0 || n-1 > uint64(len(r.b)) {
		if n != 0 {
			r.err = errShort
		}
		return nil
	}
	list := make([]string, n-1)
	for i := range list {
		list[i] = r.Str()
	}
	return list
}

func (r *Reader) floatPtr() *float64 {
	if r.Byte() == 0 {
		return nil
	}
	f := math.Float64frombits(r.Uint64())
	return &f
}
