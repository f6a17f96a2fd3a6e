package safetypack

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/jsonread"
)

// FieldState is the measured state of a caller's field.
type FieldState struct {
	// VersorCondition is the closure residual; nil when not measured.
	VersorCondition *float64 `json:"versor_condition"`
}

// Context is the evidence a SafetyCheck judges. Every field is optional:
// nil means the caller did not supply it, and a boundary whose evidence is
// absent is reported as upheld but not runtime-checkable (absence of
// evidence is not evidence of a violation). An empty, non-nil list is
// supplied and empty.
type Context struct {
	FieldState                 *FieldState `json:"field_state"`
	CitedSourceSHAs            []string    `json:"cited_source_shas"`
	AllowedSourceSHAs          []string    `json:"allowed_source_shas"`
	LastRefusalWasTyped        *bool       `json:"last_refusal_was_typed"`
	IdentityManifoldHashBefore *string     `json:"identity_manifold_hash_before"`
	IdentityManifoldHashAfter  *string     `json:"identity_manifold_hash_after"`
}

var contextKeys = []string{"field_state", "cited_source_shas", "allowed_source_shas", "last_refusal_was_typed", "identity_manifold_hash_before", "identity_manifold_hash_after"}

// Clone returns a deep copy of c, so a predicate cannot change what the
// next one sees.
func (c *Context) Clone() *Context {
	if c == nil {
		return &Context{}
	}
	out := &Context{
		CitedSourceSHAs:            slices.Clone(c.CitedSourceSHAs),
		AllowedSourceSHAs:          slices.Clone(c.AllowedSourceSHAs),
		LastRefusalWasTyped:        clonePtr(c.LastRefusalWasTyped),
		IdentityManifoldHashBefore: clonePtr(c.IdentityManifoldHashBefore),
		IdentityManifoldHashAfter:  clonePtr(c.IdentityManifoldHashAfter),
	}
	if c.FieldState != nil {
		out.FieldState = &FieldState{VersorCondition: clonePtr(c.FieldState.VersorCondition)}
	}
	return out
}

// Merge returns c with every field that o supplies taken from o. Context
// builders for different sources of state are combined with it.
func (c *Context) Merge(o *Context) *Context {
	out := c.Clone()
	if o == nil {
		return out
	}
	o = o.Clone()
	out.FieldState = cmp.Or(o.FieldState, out.FieldState)
	if o.CitedSourceSHAs != nil {
		out.CitedSourceSHAs = o.CitedSourceSHAs
	}
	if o.AllowedSourceSHAs != nil {
		out.AllowedSourceSHAs = o.AllowedSourceSHAs
	}
	out.LastRefusalWasTyped = cmp.Or(o.LastRefusalWasTyped, out.LastRefusalWasTyped)
	out.IdentityManifoldHashBefore = cmp.Or(o.IdentityManifoldHashBefore, out.IdentityManifoldHashBefore)
	out.IdentityManifoldHashAfter = cmp.Or(o.IdentityManifoldHashAfter, out.IdentityManifoldHashAfter)
	return out
}

// clonePtr returns a pointer to a copy of *p, or nil.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	return ptr(*p)
}

func ptr[T any](v T) *T { return &v }

// ParseContext reads a context document: a JSON object with the fields of
// Context, each optional and null meaning absent. Unknown and duplicate
// keys, wrong types, blank digests and a negative or non-finite
// versor_condition are invalid input; every problem is collected.
func ParseContext(data []byte, file string) (*Context, error) {
	d := newDoc(data, file)
	c := d.parseContext()
	if len(d.problems) > 0 {
		return nil, errs.InvalidProblems(file, d.sorted())
	}
	return c, nil
}

func isNull(raw []byte) bool { return string(raw) == "null" }

func (d *doc) parseContext() *Context {
	c := &Context{}
	ok := d.members(contextKeys, func(m member) {
		if isNull(m.value) {
			return
		}
		switch m.key {
		case "field_state":
			c.FieldState = d.fieldState(m)
		case "cited_source_shas":
			c.CitedSourceSHAs = d.digests(m)
		case "allowed_source_shas":
			c.AllowedSourceSHAs = d.digests(m)
		case "last_refusal_was_typed":
			var b bool
			if string(m.value) != "true" && string(m.value) != "false" {
				d.problem(m.key, m.line, "must be true or false, got %s", jsonread.KindOfRaw(m.value))
				return
			}
			_ = json.Unmarshal(m.value, &b)
			c.LastRefusalWasTyped = &b
		case "identity_manifold_hash_before", "identity_manifold_hash_after":
			s, ok := d.str(m, m.key)
			if !ok {
				return
			}
			if strings.TrimSpace(s) == "" {
				d.problem(m.key, m.line, "must not be blank")
				return
			}
			if m.key == "identity_manifold_hash_before" {
				c.IdentityManifoldHashBefore = &s
			} else {
				c.IdentityManifoldHashAfter = &s
			}
		}
	})
	if !ok {
		return nil
	}
	return c
}

func (d *doc) fieldState(m member) *FieldState {
	members, ok := d.object(m.value, m.start, "field_state")
	if !ok {
		return nil
	}
	fs := &FieldState{}
	for _, fm := range members {
		path := "field_state." + fm.key
		if fm.key != "versor_condition" {
			d.unknownKey(path, fm.line, fm.key, []string{"versor_condition"})
			continue
		}
		if isNull(fm.value) {
			continue
		}
		if len(fm.value) == 0 || strings.ContainsRune(`{["tfn`, rune(fm.value[0])) {
			d.problem(path, fm.line, "must be a number, got %s", jsonread.KindOfRaw(fm.value))
			continue
		}
		var f float64
		if err := json.Unmarshal(fm.value, &f); err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			d.problem(path, fm.line, "must be a finite number, got %s", fm.value)
			continue
		}
		if f < 0 {
			d.problem(path, fm.line, "must not be negative, got %s", fm.value)
			continue
		}
		fs.VersorCondition = &f
	}
	return fs
}

// digests reads a list of content digests; order and duplicates do not
// matter to the check, blanks are invalid.
func (d *doc) digests(m member) []string {
	if len(m.value) == 0 || m.value[0] != '[' {
		d.problem(m.key, m.line, "must be a list of strings, got %s", jsonread.KindOfRaw(m.value))
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(m.value, &items); err != nil {
		d.problem(m.key, m.line, "must be a list of strings: %v", err)
		return nil
	}
	out := make([]string, 0, len(items))
	for i, raw := range items {
		if s, ok := d.listString(fmt.Sprintf("%s[%d]", m.key, i), m.line, raw); ok {
			out = append(out, s)
		}
	}
	return out
}
