package plan

import (
	"bytes"
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

func TestNewIDSortsByTime(t *testing.T) {
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var ids []string
	seen := map[string]bool{}
	for i := range 200 {
		// Several plans per millisecond, and times far apart.
		at := base.Add(time.Duration(i/4) * time.Millisecond).Add(time.Duration(i/50) * 24 * time.Hour)
		id, err := NewID(at, nil)
		if err != nil {
			t.Fatal(err)
		}
		if why := CheckID(id); why != "" {
			t.Fatalf("NewID gave %q, which CheckID refuses: %s", id, why)
		}
		if seen[id] {
			t.Fatalf("duplicate id %s", id)
		}
		seen[id] = true
		got, ok := IDTime(id)
		if !ok || !got.Equal(at.Truncate(time.Millisecond)) {
			t.Fatalf("IDTime(%s) = %v, want %v", id, got, at)
		}
		ids = append(ids, id)
	}
	sorted := append([]string(nil), ids...)
	sort.Strings(sorted)
	for i := range ids {
		a, _ := IDTime(ids[i])
		b, _ := IDTime(sorted[i])
		if !a.Equal(b) {
			t.Fatalf("sorting ids does not sort their times: %s (%v) at %d, %s (%v) sorted", ids[i], a, i, sorted[i], b)
		}
	}
}

func TestNewIDRandomPart(t *testing.T) {
	at := time.UnixMilli(0)
	zero, err := NewID(at, bytes.NewReader(make([]byte, 10)))
	if err != nil || zero != strings.Repeat("0", 26) {
		t.Errorf("zero id = %q, %v", zero, err)
	}
	ones, err := NewID(at, bytes.NewReader(bytes.Repeat([]byte{0xff}, 10)))
	if err != nil || ones != strings.Repeat("0", 10)+strings.Repeat("z", 16) {
		t.Errorf("all-ones id = %q, %v", ones, err)
	}
	if _, err := NewID(at, bytes.NewReader([]byte{1})); err == nil {
		t.Error("a short random source was accepted")
	}
	if _, err := NewID(time.UnixMilli(-1), nil); err == nil {
		t.Error("a time before 1970 was accepted")
	}
}

func TestCheckID(t *testing.T) {
	good, _ := NewID(time.Now(), nil)
	bad := []string{"", "x", good + "0", good[:25], strings.ToUpper(good), good[:25] + "i", good[:25] + "l",
		good[:25] + "o", good[:25] + "u", "../" + good[3:], good[:12] + "/" + good[13:], "8" + good[1:], good[:25] + "\x00"}
	for _, id := range bad {
		if CheckID(id) == "" {
			t.Errorf("CheckID(%q) accepted it", id)
		}
		if err := ValidateID(id); !errs.Is(err, errs.KindInvalid) {
			t.Errorf("ValidateID(%q) = %v", id, err)
		}
	}
	if CheckID(good) != "" {
		t.Errorf("CheckID refuses %q", good)
	}
}

func sample(t testing.TB) *Plan {
	t.Helper()
	id, _ := NewID(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), bytes.NewReader(bytes.Repeat([]byte{7}, 10)))
	at, _ := IDTime(id)
	own := profile.DefaultSafetyProfile()
	own.AllowedSkillCategories = []string{"deploy"}
	name, src := "cautious", "local/deploy"
	from := "cautious"
	return &Plan{
		ID: id, Action: "local/deploy", CreatedAt: at,
		AutomationProfile: AutomationRef{Name: "cautious", Provenance: LevelAction, SHA256: strings.Repeat("a", 64)},
		SafetyProfile: SafetyRef{Provenance: LevelAction, Source: SourceComposed, FromProfile: &from,
			SafetyProfile: profile.DefaultSafetyProfile(), SHA256: strings.Repeat("b", 64)},
		Levels: []Setting{
			{Level: LevelPlan, SafetyProfile: nil},
			{Level: LevelAction, AutomationProfile: &name, Source: &src},
			{Level: LevelProject},
			{Level: LevelGlobal},
		},
		ResolvedAt: at, ProjectDir: "/p",
	}
}

func TestEncodeDecode(t *testing.T) {
	p := sample(t)
	data, stored, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Decode(data, "p.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data2, _, err := Encode(again)
	if err != nil || !bytes.Equal(data, data2) {
		t.Fatalf("encoding is not a fixed point: %v\n%s\n%s", err, data, data2)
	}
	if stored.Own().Level != LevelPlan || stored.Levels[1].Source == nil || *stored.Levels[1].Source != "local/deploy" {
		t.Errorf("stored levels = %+v", stored.Levels)
	}
	if d := stored.Digests(); len(d) != 2 || d[0] != strings.Repeat("a", 64) {
		t.Errorf("digests = %v", d)
	}
}

// TestDecodeRefusesEdits checks that a plan edited by hand into something
// agents never writes is refused, naming the field.
func TestDecodeRefusesEdits(t *testing.T) {
	data, _, err := Encode(sample(t))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	tests := []struct{ from, to, path, msg string }{
		{"provenance: action\n  sha256", "provenance: nowhere\n  sha256", "automation_profile.provenance", "must be one of"},
		{"source: composed", "source: borrowed", "safety_profile.source", "must be one of"},
		{"aaaaaaaa", "AAAAAAAA", "automation_profile.sha256", "sha256"},
		{"level: project", "level: global", "levels[2].level", `must be "project"`},
		{"allow_unsafe_tools: false\n  require_human", "allow_unsafe_tools: yes\n  require_human", "safety_profile.allow_unsafe_tools", "true or false"},
		{"from_profile: cautious", "from_profile: null", "safety_profile.from_profile", "composed"},
		{"action: local/deploy", "action: deploy", "action", "namespace/name"},
		{"project_dir: /p", "project_dir: 7", "project_dir", "must be a string"},
		{"name: cautious", "name: Cautious", "automation_profile.name", "namespace/name"},
		{"created_at: ", "created_at: yesterday\nx: ", "created_at", "time"},
		{"resolved_at: ", "resolvd_at: ", "resolvd_at", `did you mean "resolved_at"`},
	}
	for _, tt := range tests {
		edited := strings.Replace(doc, tt.from, tt.to, 1)
		if edited == doc {
			t.Fatalf("edit %q not applied", tt.from)
		}
		_, err := Decode([]byte(edited), "p.yaml")
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != errs.KindInvalid {
			t.Errorf("%s: err = %v, want invalid", tt.path, err)
			continue
		}
		found := false
		for _, p := range e.Problems {
			if p.Path == tt.path && strings.Contains(p.Message, tt.msg) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: problems %v lack %q", tt.path, e.Problems, tt.msg)
		}
	}
	// Three levels instead of four.
	cut := strings.Replace(doc, "  - level: global\n    automation_profile: null\n    safety_profile: null\n    source: null\n", "", 1)
	if _, err := Decode([]byte(cut), "p.yaml"); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "4 levels") {
		t.Errorf("three levels: %v", err)
	}
	// Every field is required.
	cut = strings.Replace(doc, "project_dir: /p\n", "", 1)
	if _, err := Decode([]byte(cut), "p.yaml"); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "project_dir: is required") {
		t.Errorf("no project_dir: %v", err)
	}
}

func TestCloneIsDeep(t *testing.T) {
	p := sample(t)
	p.Levels[0].SafetyProfile = &profile.SafetyProfile{AllowedSkillCategories: []string{"a"}}
	c := p.Clone()
	*c.Levels[1].AutomationProfile = "full-auto"
	c.Levels[0].SafetyProfile.AllowedSkillCategories[0] = "b"
	*c.SafetyProfile.FromProfile = "x"
	if *p.Levels[1].AutomationProfile != "cautious" || p.Levels[0].SafetyProfile.AllowedSkillCategories[0] != "a" || *p.SafetyProfile.FromProfile != "cautious" {
		t.Error("changing a clone changed the original")
	}
	if own := (&Plan{}).Own(); own.Level != LevelPlan || !own.IsEmpty() {
		t.Errorf("Own of a plan without levels = %+v", own)
	}
}

// IDTime returns the creation time an id encodes, to the millisecond.
func IDTime(id string) (time.Time, bool) {
	if CheckID(id) != "" {
		return time.Time{}, false
	}
	var ms int64
	for i := 0; i < 10; i++ {
		ms = ms<<5 | int64(indexOf(id[i]))
	}
	return time.UnixMilli(ms).UTC(), true
}
