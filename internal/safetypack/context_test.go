package safetypack

import (
	"slices"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
)

func TestParseContext(t *testing.T) {
	c, err := ParseContext([]byte(`{
  "field_state": {"versor_condition": 2.5e-7},
  "cited_source_shas": ["a", "b"],
  "allowed_source_shas": [],
  "last_refusal_was_typed": false,
  "identity_manifold_hash_before": "h1",
  "identity_manifold_hash_after": null
}`), "ctx.json")
	if err != nil {
		t.Fatal(err)
	}
	if c.FieldState == nil || *c.FieldState.VersorCondition != 2.5e-7 {
		t.Errorf("field_state = %+v", c.FieldState)
	}
	if !slices.Equal(c.CitedSourceSHAs, []string{"a", "b"}) || c.AllowedSourceSHAs == nil || len(c.AllowedSourceSHAs) != 0 {
		t.Errorf("shas = %v / %v", c.CitedSourceSHAs, c.AllowedSourceSHAs)
	}
	if c.LastRefusalWasTyped == nil || *c.LastRefusalWasTyped {
		t.Errorf("last_refusal_was_typed = %v", c.LastRefusalWasTyped)
	}
	if c.IdentityManifoldHashBefore == nil || *c.IdentityManifoldHashBefore != "h1" || c.IdentityManifoldHashAfter != nil {
		t.Errorf("hashes = %v %v", c.IdentityManifoldHashBefore, c.IdentityManifoldHashAfter)
	}

	empty, err := ParseContext([]byte(`{}`), "ctx.json")
	if err != nil || empty.FieldState != nil || empty.CitedSourceSHAs != nil || empty.LastRefusalWasTyped != nil {
		t.Errorf("empty context = %+v, %v", empty, err)
	}
}

func TestParseContextInvalid(t *testing.T) {
	for name, tt := range map[string]struct{ raw, want string }{
		"unknown key":        {`{"cited_sources": []}`, `unknown key "cited_sources" (did you mean "cited_source_shas"?)`},
		"unknown nested key": {`{"field_state": {"versor": 1}}`, `field_state.versor: unknown key "versor"`},
		"duplicate key":      {`{"last_refusal_was_typed": true, "last_refusal_was_typed": false}`, "duplicate key"},
		"string bool":        {`{"last_refusal_was_typed": "yes"}`, "must be true or false, got a string"},
		"number hash":        {`{"identity_manifold_hash_before": 1}`, "must be a string, got a number"},
		"blank hash":         {`{"identity_manifold_hash_after": " "}`, "must not be blank"},
		"string versor":      {`{"field_state": {"versor_condition": "0"}}`, "must be a number, got a string"},
		"negative versor":    {`{"field_state": {"versor_condition": -1}}`, "must not be negative"},
		"huge versor":        {`{"field_state": {"versor_condition": 1e999}}`, "must be a finite number"},
		"field state list":   {`{"field_state": []}`, "must be a JSON object, got an array"},
		"sha list string":    {`{"cited_source_shas": "a"}`, "must be a list of strings, got a string"},
		"sha not string":     {`{"allowed_source_shas": ["a", 2]}`, "allowed_source_shas[1]: must be a string"},
		"blank sha":          {`{"allowed_source_shas": [""]}`, "allowed_source_shas[0]: must not be blank"},
		"not an object":      {`[]`, "must be a JSON object"},
		"empty":              {``, "file is empty"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseContext([]byte(tt.raw), "ctx.json")
			wantKind(t, err, errs.KindInvalid, "ctx.json", tt.want)
		})
	}
}

func TestContextMerge(t *testing.T) {
	a := &Context{LastRefusalWasTyped: boolp(true), CitedSourceSHAs: []string{"x"}}
	b := &Context{LastRefusalWasTyped: boolp(false), IdentityManifoldHashBefore: strp("h")}
	m := a.Merge(b)
	if *m.LastRefusalWasTyped || !slices.Equal(m.CitedSourceSHAs, []string{"x"}) || *m.IdentityManifoldHashBefore != "h" {
		t.Errorf("merged = %+v", m)
	}
	if !*a.LastRefusalWasTyped || a.IdentityManifoldHashBefore != nil {
		t.Error("Merge changed its receiver")
	}
	if got := (*Context)(nil).Merge(nil); got == nil {
		t.Error("nil merge returned nil")
	}
}
