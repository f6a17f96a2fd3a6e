package render_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/render/rendertest"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/schema"
	"github.com/agentsctl/agents/internal/version"
	"github.com/agentsctl/agents/profiles"
)

func ptrTo[T any](v T) *T { return &v }

// shippedBuiltins are the eight built-in profiles as agents ships them.
func shippedBuiltins(t *testing.T) []*profile.AutomationProfile {
	t.Helper()
	var out []*profile.AutomationProfile
	for _, name := range profile.BuiltinNames {
		p := profiles.Decoded(name)
		if p == nil {
			t.Fatalf("no built-in %s", name)
		}
		out = append(out, p)
	}
	return out
}

// TestCommandViewsFitEveryWidth draws the views of the profile diff,
// history, migrate, schema, validate, safety-pack and version commands at each
// common terminal width; see rendertest.Check.
func TestCommandViewsFitEveryWidth(t *testing.T) {
	bs := shippedBuiltins(t)
	custom := bs[3].Clone()
	custom.Name = "acme-platform/guarded-releases"
	custom.Guards = &profile.AutomationGuard{ToolDenylist: []string{"shell_exec", "file_delete", "network_fetch"}}
	other := bs[1].Clone()
	other.Name = "acme/strict"
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	doc, err := schema.Bundle(schema.Profile)
	if err != nil {
		t.Fatal(err)
	}
	schemaView, err := render.NewSchemaView(doc)
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := sp.LoadShipped(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	hash := strings.Repeat("5e", 32)
	check := sp.NewSafetyCheck()
	current := check.Check(&sp.Context{IdentityManifoldHashBefore: &hash, IdentityManifoldHashAfter: &hash}, shipped.Pack)
	violated := check.Check(&sp.Context{
		FieldState:                 &sp.FieldState{VersorCondition: ptrTo(0.5)},
		CitedSourceSHAs:            []string{strings.Repeat("ab", 32), strings.Repeat("cd", 32)},
		AllowedSourceSHAs:          []string{strings.Repeat("ab", 32)},
		LastRefusalWasTyped:        ptrTo(true),
		IdentityManifoldHashBefore: &hash, IdentityManifoldHashAfter: &hash,
	}, shipped.Pack)
	views := []struct {
		name    string
		view    render.View
		formats []string
	}{
		{"diff-builtin", render.NewDiffView(bs, true, false), nil},
		{"diff-two", render.NewDiffView([]*profile.AutomationProfile{bs[3], other}, false, false), nil},
		{"diff-custom-only-differences", render.NewDiffView([]*profile.AutomationProfile{bs[0], other, custom, bs[7]}, false, true), nil},
		{"history", render.HistoryView{Name: "acme/strict", Versions: []profile.Version{
			{Digest: strings.Repeat("3f", 32), Time: &at, Event: "put"},
			{Digest: strings.Repeat("a9", 32), Time: &at, Event: "put", Current: true},
		}}, nil},
		{"migrate-summary", render.MigrateSummary{Migrations: []render.Migration{
			{File: "profiles/legacy/acme-old-strict-profile.yaml", Name: "acme/old-strict", Legacy: true, Written: true},
			{File: "strict.yaml", Name: "acme/strict"},
		}}, nil},
		{"schema", schemaView, []string{"table"}},
		{"validate", render.ValidateView{Reports: []render.FileReport{
			{File: "profiles/strict.yaml", Valid: true},
			{File: "/home/someone/projects/website/profiles/guarded-release.yaml", Outcome: render.OutcomeInvalid, Problems: []errs.Problem{
				{File: "guarded-release.yaml", Path: "auto_aply", Line: 2, Message: `unknown field "auto_aply" (did you mean "auto_apply"?)`},
				{File: "guarded-release.yaml", Path: "safety.max_retries_per_step", Line: 14, Message: "must be between 0 and 100, got 101"},
			}},
			{File: "missing.yaml", Outcome: render.OutcomeMissing, Problems: []errs.Problem{{File: "missing.yaml", Message: "file not found: missing.yaml"}}},
		}}, nil},
		{"show", render.PackView{Loaded: shipped}, nil},
		{"verify", render.VerifyView{Loaded: shipped, InForce: true}, nil},
		{"check-current", render.VerdictView{Verdict: current}, nil},
		{"check-violated", render.VerdictView{Verdict: violated}, nil},
		{"version", render.VersionView{Info: version.Info{Version: "v1.2.0", Commit: "1a2b3c4", Date: "2026-03-01T10:00:00Z", Go: "go1.26.0", Platform: "linux/amd64"}}, nil},
	}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			rendertest.Check(t, filepath.Join("testdata", "widths"), v.name, v.view, *update, v.formats...)
			// A column says what it holds: a header cell is never empty
			// (a stacked row shows it beside each value).
			for _, tbl := range v.view.Tables() {
				for i, h := range tbl.Header {
					if strings.TrimSpace(h) == "" {
						t.Errorf("table %q: header cell %d is empty: %q", tbl.Title, i, tbl.Header)
					}
				}
			}
		})
	}
}
