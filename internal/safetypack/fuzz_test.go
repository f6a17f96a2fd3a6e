package safetypack

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
)

// FuzzParsePack feeds arbitrary bytes to the pack parser. It must never
// panic; it must either return a pack or a KindSafetyPack error with at
// least one problem; and a pack it accepts must survive a round trip
// through the encoding ratify writes, with the same content hash.
func FuzzParsePack(f *testing.F) {
	f.Add(validPack("acme_safety_v1").Encode())
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"pack_id":"a_v1","pack_id":"a_v1"}`))
	lockdown := validPack("acme_lockdown_v1")
	lockdown.BoundaryPredicates = map[string]string{"no_friday_deploys": `!(safety.allow_unsafe_tools && !safety.require_sandbox) && profile.auto_apply >= 0.5`}
	lockdown.BoundaryEnforcement = map[string]Mode{"no_friday_deploys": ModeWarn}
	f.Add(lockdown.Encode())
	f.Fuzz(func(t *testing.T, data []byte) {
		// Larger inputs test the JSON library's speed, not the pack's rules.
		if len(data) > 8<<10 {
			t.Skip()
		}
		p, err := ParsePack(data, "fuzz.json")
		if err != nil {
			var e *errs.Error
			if !errors.As(err, &e) || e.Kind != errs.KindSafetyPack || len(e.Problems) == 0 {
				t.Fatalf("error is not a safety-pack error with problems: %#v", err)
			}
			if p != nil {
				t.Fatal("a pack returned with an error")
			}
			return
		}
		enc := p.Encode()
		q, err := ParsePack(enc, "again.json")
		if err != nil {
			t.Fatalf("re-parsing the encoding of an accepted pack: %v\n%s", err, enc)
		}
		if !bytes.Equal(q.Encode(), enc) {
			t.Fatal("encoding is not stable")
		}
		if q.ContentSHA256() != p.ContentSHA256() {
			t.Fatal("content hash changed through a round trip")
		}
		if len(p.BoundaryIDs) == 0 || CheckPackID(p.PackID) != "" || p.SchemaVersion != SchemaVersion {
			t.Fatalf("accepted a pack outside the bounds: %+v", p)
		}
		for _, id := range p.BoundaryIDs {
			if _, ok := p.BoundaryDescriptions[id]; !ok {
				t.Fatalf("accepted an undescribed boundary %q", id)
			}
		}
		for id := range p.BoundaryPredicates {
			if !p.HasBoundary(id) || slices.Contains(ShippedBoundaries, id) {
				t.Fatalf("accepted a predicate for boundary %q", id)
			}
			if _, err := p.program(id); err != nil {
				t.Fatalf("accepted a predicate that does not compile: %v", err)
			}
		}
		for id, m := range p.BoundaryEnforcement {
			if _, ok := p.BoundaryPredicates[id]; !ok || m.strictness() == 0 {
				t.Fatalf("accepted mode %q for boundary %q", m, id)
			}
		}
		// Judging never panics, whatever the predicates say.
		p.Judge(PolicyContext{})
	})
}
