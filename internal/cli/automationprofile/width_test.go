package automationprofile

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/registry"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/render/rendertest"
	"github.com/agentsctl/agents/internal/schema"
	"github.com/agentsctl/agents/profiles"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/widths")

func builtins(t *testing.T) []*profile.AutomationProfile {
	t.Helper()
	ps, err := registry.New(registry.Funcs{FS: profiles.Builtin}).Builtins()
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestViewsFitEveryWidth draws the views of this package at each common
// terminal width; see rendertest.Check.
func TestViewsFitEveryWidth(t *testing.T) {
	bs := builtins(t)
	custom := bs[3].Clone()
	custom.Name = "acme-platform/guarded-releases"
	custom.Guards = &profile.AutomationGuard{ToolDenylist: []string{"shell_exec", "file_delete", "network_fetch"}}
	other := bs[1].Clone()
	other.Name = "acme/strict"

	matrix := newDiffView(bs, matrixDiffFields(), false)
	matrix.builtin = true
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	doc, err := schema.Bundle(schema.Profile)
	if err != nil {
		t.Fatal(err)
	}
	fields, err := schemaFields(doc)
	if err != nil {
		t.Fatal(err)
	}
	views := []struct {
		name    string
		view    render.View
		formats []string
	}{
		{"diff-builtin", matrix, nil},
		{"diff-two", newDiffView([]*profile.AutomationProfile{bs[3], other}, allDiffFields(), false), nil},
		{"diff-custom-only-differences", newDiffView([]*profile.AutomationProfile{bs[0], other, custom, bs[7]}, allDiffFields(), true), nil},
		{"history", render.HistoryView{Name: "acme/strict", Versions: []profile.Version{
			{Digest: strings.Repeat("3f", 32), Time: &at, Event: "put"},
			{Digest: strings.Repeat("a9", 32), Time: &at, Event: "put", Current: true},
		}}, nil},
		{"migrate-summary", migrateSummary{[]*migration{
			{File: "profiles/legacy/acme-old-strict-profile.yaml", Name: "acme/old-strict", Legacy: true, Written: true},
			{File: "strict.yaml", Name: "acme/strict"},
		}}, nil},
		{"schema", schemaView{doc: doc, fields: fields}, []string{"table"}},
	}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			rendertest.Check(t, filepath.Join("testdata", "widths"), v.name, v.view, *update, v.formats...)
		})
	}
}
