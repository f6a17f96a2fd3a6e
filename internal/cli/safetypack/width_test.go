package safetypack

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/render/rendertest"
	sp "github.com/agentsctl/agents/internal/safetypack"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/widths")

func ptr[T any](v T) *T { return &v }

// TestViewsFitEveryWidth draws the views of this package at each common
// terminal width; see rendertest.Check.
func TestViewsFitEveryWidth(t *testing.T) {
	shipped, err := sp.LoadShipped(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	hash := strings.Repeat("5e", 32)
	check := sp.NewSafetyCheck()
	current := check.Check(&sp.Context{IdentityManifoldHashBefore: &hash, IdentityManifoldHashAfter: &hash}, shipped.Pack)
	violated := check.Check(&sp.Context{
		FieldState:                 &sp.FieldState{VersorCondition: ptr(0.5)},
		CitedSourceSHAs:            []string{strings.Repeat("ab", 32), strings.Repeat("cd", 32)},
		AllowedSourceSHAs:          []string{strings.Repeat("ab", 32)},
		LastRefusalWasTyped:        ptr(true),
		IdentityManifoldHashBefore: &hash, IdentityManifoldHashAfter: &hash,
	}, shipped.Pack)
	views := []struct {
		name string
		view render.View
	}{
		{"show", PackView{Loaded: shipped}},
		{"verify", VerifyView{Loaded: shipped, InForce: true}},
		{"check-current", VerdictView{Verdict: current}},
		{"check-violated", VerdictView{Verdict: violated}},
	}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			rendertest.Check(t, filepath.Join("testdata", "widths"), v.name, v.view, *update)
		})
	}
}
