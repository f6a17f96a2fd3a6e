package safetypack

import (
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
)

// withPredicates returns the JSON of a valid pack with boundary_predicates
// and boundary_enforcement set to the given raw JSON values (omitted when
// "").
func withPredicates(t *testing.T, preds, modes string) []byte {
	t.Helper()
	m := packJSON(t, validPack("acme_lockdown_v1"))
	b := string(encodeJSON(t, m))
	extra := ""
	if preds != "" {
		extra += `,"boundary_predicates":` + preds
	}
	if modes != "" {
		extra += `,"boundary_enforcement":` + modes
	}
	i := strings.LastIndex(b, "}")
	return []byte(b[:i] + extra + "}")
}

func TestParsePackPredicates(t *testing.T) {
	data := withPredicates(t, `{"no_friday_deploys": "profile.auto_apply >= 0.5"}`, `{"no_friday_deploys": "warn"}`)
	p, err := ParsePack(data, "acme_lockdown_v1.json")
	if err != nil {
		t.Fatal(err)
	}
	if p.BoundaryPredicates["no_friday_deploys"] != "profile.auto_apply >= 0.5" || p.ModeOf("no_friday_deploys") != ModeWarn {
		t.Errorf("predicates %v, modes %v", p.BoundaryPredicates, p.BoundaryEnforcement)
	}
	// The file ratify writes keeps both, and parses to the same content.
	enc := string(p.Encode())
	if !strings.Contains(enc, `"boundary_predicates": {`) || !strings.Contains(enc, `"no_friday_deploys": "warn"`) {
		t.Errorf("encoding lost the predicates:\n%s", enc)
	}
	q, err := ParsePack(p.Encode(), "again.json")
	if err != nil || q.ContentSHA256() != p.ContentSHA256() {
		t.Fatalf("round trip: %v", err)
	}
	// A clone judges the same.
	if c := p.Clone(); c.Judge(ctxOf(testProfile("full-auto", 0, true, false))).Judgements[0].Upheld {
		t.Error("a clone upheld a violated boundary")
	}
}

// TestParsePackPredicateProblems: each case is refused as malformed (exit
// 6), with a problem at the path named.
func TestParsePackPredicateProblems(t *testing.T) {
	for _, tc := range []struct {
		name, preds, modes, path, want string
	}{
		{"shipped boundary", `{"no_identity_override": "true"}`, "", "boundary_predicates.no_identity_override", "boundary of the shipped pack"},
		{"unlisted boundary", `{"no_mondays": "true"}`, "", "boundary_predicates.no_mondays", `"no_mondays" is not in boundary_ids`},
		{"not a string", `{"no_friday_deploys": true}`, "", "boundary_predicates.no_friday_deploys", "must be a string"},
		{"not an object", `["true"]`, "", "boundary_predicates", "must be a JSON object"},
		{"does not compile", `{"no_friday_deploys": "profile.auto_apply >="}`, "", "boundary_predicates.no_friday_deploys", "does not compile"},
		{"unknown field", `{"no_friday_deploys": "profile.auto_aply >= 0.5"}`, "", "boundary_predicates.no_friday_deploys", "profile has no field auto_aply"},
		{"not boolean", `{"no_friday_deploys": "profile.auto_apply"}`, "", "boundary_predicates.no_friday_deploys", "expected bool"},
		{"blank", `{"no_friday_deploys": " "}`, "", "boundary_predicates.no_friday_deploys", "must not be blank"},
		{"duplicate", `{"no_friday_deploys": "true", "no_friday_deploys": "false"}`, "", "boundary_predicates.no_friday_deploys", "duplicate key"},
		{"bad mode", `{"no_friday_deploys": "true"}`, `{"no_friday_deploys": "block"}`, "boundary_enforcement.no_friday_deploys", `must be one of enforce, warn, audit, got "block"`},
		{"mode for shipped", `{"no_friday_deploys": "true"}`, `{"no_hot_path_repair": "warn"}`, "boundary_enforcement.no_hot_path_repair", `"no_hot_path_repair" is a boundary of the shipped pack, which agents judges itself; it has no predicate, and a mode may only be given to a boundary with one`},
		{"mode for unlisted", `{"no_friday_deploys": "true"}`, `{"no_mondays": "warn"}`, "boundary_enforcement.no_mondays", "not in boundary_ids"},
		{"mode without predicate", "", `{"no_friday_deploys": "audit"}`, "boundary_enforcement.no_friday_deploys", "has no predicate"},
		{"mode not string", `{"no_friday_deploys": "true"}`, `{"no_friday_deploys": 1}`, "boundary_enforcement.no_friday_deploys", "must be a string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePack(withPredicates(t, tc.preds, tc.modes), "acme_lockdown_v1.json")
			wantKind(t, err, errs.KindSafetyPack, tc.want)
			var e *errs.Error
			if errorsAs(err, &e) {
				found := false
				for _, p := range e.Problems {
					found = found || (p.Path == tc.path && strings.Contains(p.Message, tc.want))
				}
				if !found {
					t.Errorf("no problem at %s saying %q: %v", tc.path, tc.want, e.Problems)
				}
			}
		})
	}
}

// TestParsePackBlankIDOneProblem: a blank id boundary_ids lists is one
// problem, there; a description, a predicate or a mode keyed by it is not
// reported again as naming an id boundary_ids does not list.
func TestParsePackBlankIDOneProblem(t *testing.T) {
	m := packJSON(t, validPack("acme_lockdown_v1"))
	m["boundary_ids"] = append(m["boundary_ids"].([]any), " ")
	m["boundary_descriptions"].(map[string]any)[" "] = "x"
	m["boundary_predicates"] = map[string]any{" ": "true"}
	m["boundary_enforcement"] = map[string]any{" ": "warn"}
	_, err := ParsePack(encodeJSON(t, m), "acme_lockdown_v1.json")
	wantKind(t, err, errs.KindSafetyPack, "must not be blank")
	var e *errs.Error
	if !errorsAs(err, &e) {
		t.Fatalf("not an *errs.Error: %v", err)
	}
	if len(e.Problems) != 1 || !strings.HasPrefix(e.Problems[0].Path, "boundary_ids[") || e.Problems[0].Message != "must not be blank" {
		t.Errorf("want only the blank id's problem, got %v", e.Problems)
	}

	// A blank key boundary_ids does not list is still one that is not in it.
	m = packJSON(t, validPack("acme_lockdown_v1"))
	m["boundary_descriptions"].(map[string]any)[" "] = "x"
	_, err = ParsePack(encodeJSON(t, m), "acme_lockdown_v1.json")
	wantKind(t, err, errs.KindSafetyPack, `describes " ", which is not in boundary_ids`)
}

// TestSealCoversPredicates: a pack without predicates seals exactly as
// before they existed (its sealed content has no such keys, an empty
// object included), and any change to a predicate or a mode changes the
// content the seal covers.
func TestSealCoversPredicates(t *testing.T) {
	plain := validPack("acme_lockdown_v1")
	content := string(plain.CanonicalContent())
	if strings.Contains(content, "boundary_predicates") || strings.Contains(content, "boundary_enforcement") {
		t.Errorf("a pack without predicates seals them: %s", content)
	}
	empty, err := ParsePack(withPredicates(t, `{}`, `{}`), "x.json")
	if err != nil {
		t.Fatal(err)
	}
	if empty.ContentSHA256() != plain.ContentSHA256() {
		t.Error("empty predicate objects change the seal of a pack without predicates")
	}

	parse := func(preds, modes string) string {
		p, err := ParsePack(withPredicates(t, preds, modes), "x.json")
		if err != nil {
			t.Fatal(err)
		}
		return p.ContentSHA256()
	}
	base := parse(`{"no_friday_deploys": "profile.auto_apply >= 0.5"}`, "")
	seen := map[string]string{plain.ContentSHA256(): "no predicates", base: "base"}
	for name, sum := range map[string]string{
		"changed predicate": parse(`{"no_friday_deploys": "profile.auto_apply >= 0.4"}`, ""),
		"explicit enforce":  parse(`{"no_friday_deploys": "profile.auto_apply >= 0.5"}`, `{"no_friday_deploys": "enforce"}`),
		"warn":              parse(`{"no_friday_deploys": "profile.auto_apply >= 0.5"}`, `{"no_friday_deploys": "warn"}`),
	} {
		if other, dup := seen[sum]; dup {
			t.Errorf("%s seals the same content as %s", name, other)
		}
		seen[sum] = name
	}

	// A ratified pack whose predicate is edited afterwards fails its seal.
	p, err := ParsePack(withPredicates(t, `{"no_friday_deploys": "profile.auto_apply >= 0.5"}`, ""), "x.json")
	if err != nil {
		t.Fatal(err)
	}
	sealed, report := Seal(p)
	sealed.BoundaryPredicates["no_friday_deploys"] = "true"
	if sealed.ContentSHA256() == report.PackSHA256 {
		t.Error("editing a predicate after ratification leaves the sealed content unchanged")
	}
}
