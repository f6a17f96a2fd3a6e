package store

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/agentsctl/agents/internal/profile"
)

// profileCodec keeps decoded profiles in the derived cache in a compact
// binary form that reads back in well under a microsecond, against the tens
// of microseconds YAML costs. Its version must change whenever the encoding
// or AutomationProfile changes (a test fails until it does), or whenever
// the decoder starts judging stored files differently.
var profileCodec = &cacheCodec[*profile.AutomationProfile]{
	version: 1,
	append:  appendProfile,
	read:    readProfile,
}

func appendProfile(b []byte, p *profile.AutomationProfile) []byte {
	b = appendString(b, p.Name)
	b = appendString(b, p.Description)
	b = appendString(b, p.SchemaVersion)
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

func readProfile(r *cacheReader) (*profile.AutomationProfile, error) {
	p := &profile.AutomationProfile{
		Name:          r.string(),
		Description:   r.string(),
		SchemaVersion: r.string(),
	}
	for _, g := range profile.Gates {
		g.Set(p, math.Float64frombits(r.uint64()))
	}
	f := r.byte()
	p.Safety = profile.SafetyProfile{
		RequireSandbox:         f&1 != 0,
		RequireCheckpoints:     f&2 != 0,
		AllowUnsafeTools:       f&4 != 0,
		RequireHumanApproval:   f&8 != 0,
		AllowedSkillCategories: r.strings(),
		MaxCostPerPlan:         r.floatPtr(),
		MaxTotalCost:           r.floatPtr(),
		MaxRetriesPerStep:      int(r.varint()),
	}
	if r.byte() == 1 {
		g := &profile.AutomationGuard{}
		if r.byte() == 1 {
			n := int(r.varint())
			g.MaxToolCallsPerStep = &n
		}
		g.MaxTotalCost = r.floatPtr()
		g.ToolAllowlist = r.strings()
		g.ToolDenylist = r.strings()
		f := r.byte()
		g.RequireApprovalForWrites = f&1 != 0
		g.RequireApprovalForApply = f&2 != 0
		p.Guards = g
	}
	if r.err != nil || len(r.b) != 0 {
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

func appendString(b []byte, s string) []byte {
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
		b = appendString(b, s)
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
