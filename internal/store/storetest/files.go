package storetest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsctl/agents/internal/profile"
)

// WriteProfileFile writes p into the file store rooted at home as the store
// writes it (profiles/<namespace>/<name>.yaml, in its canonical YAML), but
// without history, and returns the file's path: for tests and benchmarks
// that need a store of many profiles, or a file to tamper with, fast.
func WriteProfileFile(t testing.TB, home string, p *profile.AutomationProfile) string {
	t.Helper()
	data, _, err := profile.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, "profiles", filepath.FromSlash(p.Name)+".yaml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
