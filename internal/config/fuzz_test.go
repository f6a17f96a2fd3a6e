package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

// FuzzDecodeGlobal: config.yaml declares what a hook may assume (a
// sandbox, checkpoints, tool classes) and which projects it trusts, so a
// file the decoder accepts must hold only what it can mean: every problem
// is invalid input, and nothing half-read is returned as valid.
func FuzzDecodeGlobal(f *testing.F) {
	f.Add([]byte("automation_profile: acme/strict\nsafety_pack: acme_safety_v1\nformat: json\nlock_timeout: 30s\n"))
	f.Add([]byte("hooks:\n  sandboxed: true\n  claude-code:\n    tools:\n      Bash: {write: true, unsafe: false}\ntrusted_projects:\n  - \"/home/dev/shop\"\n"))
	f.Add([]byte("hooks:\n  sandboxed: yes\n"))
	f.Add([]byte("trusted_projects: [relative/dir]\n"))
	f.Add([]byte("trusted_projects:\n  - folder: \"/home/dev/shop\"\n    sha256: \"8e2cee2b4e2ed765e05cfa582395375836d65e5330ffcde719170914fa05576e\"\n  - {folder: /x, sha256: \"\"}\n  - {folder: /y}\n"))
	f.Add([]byte("safety_profile:\n  require_sandbox: false\n  max_retries_per_step: 101\n"))
	f.Add([]byte("hooks: {codex: {tools: {\" Bash\": {write: true}}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := DecodeGlobal(data, "config.yaml")
		if err != nil {
			if !errs.Is(err, errs.KindInvalid) {
				t.Fatalf("error of kind %v, want invalid input: %v", errs.KindOf(err), err)
			}
			return
		}
		if g.AutomationProfile != nil && profile.CheckProfileName(*g.AutomationProfile) != "" {
			t.Fatalf("accepted profile name %q", *g.AutomationProfile)
		}
		for _, p := range g.TrustedProjects {
			if !filepath.IsAbs(p) || filepath.Clean(p) != p {
				t.Fatalf("accepted trusted project %q", p)
			}
		}
		for agent, tools := range g.Hooks.Tools {
			for name := range tools {
				if name == "" || strings.TrimSpace(name) != name {
					t.Fatalf("accepted tool name %q for %s", name, agent)
				}
			}
		}
	})
}

// FuzzDecodeProject: a project's agents.yaml may set only the two policy
// keys; whatever else it holds is refused.
func FuzzDecodeProject(f *testing.F) {
	f.Add([]byte("automation_profile: full-auto\n"))
	f.Add([]byte("safety_profile:\n  allow_unsafe_tools: true\n"))
	f.Add([]byte("hooks:\n  sandboxed: true\n"))
	f.Add([]byte("trusted_projects: [/]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodeProject(data, "agents.yaml")
		if err != nil {
			if !errs.Is(err, errs.KindInvalid) {
				t.Fatalf("error of kind %v, want invalid input: %v", errs.KindOf(err), err)
			}
			return
		}
		if p.AutomationProfile != nil && profile.CheckProfileName(*p.AutomationProfile) != "" {
			t.Fatalf("accepted profile name %q", *p.AutomationProfile)
		}
	})
}
