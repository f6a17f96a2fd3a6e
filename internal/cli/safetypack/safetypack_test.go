package safetypack

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/registry"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/profiles"
)

type harness struct {
	deps   *cmdutil.Deps
	out    *bytes.Buffer
	errOut *bytes.Buffer
	env    map[string]string
}

func newHarness(t *testing.T, format string) *harness {
	t.Helper()
	ios, _, out, errOut := iostreams.Test()
	h := &harness{out: out, errOut: errOut, env: map[string]string{}}
	h.deps = &cmdutil.Deps{
		IO:        ios,
		Builtins:  profiles.Builtin,
		Getenv:    func(k string) string { return h.env[k] },
		Config:    cmdutil.Config{Home: t.TempDir(), Format: format},
		OpenStore: func(cmdutil.Config) (store.Store, error) { return store.NewMemory(), nil },
	}
	return h
}

// run executes the command group with args, as the root command would
// after resolving configuration.
func (h *harness) run(args ...string) error {
	h.deps.SetConfig(h.deps.Config) // each run is a new invocation
	defer h.deps.UI().Flush()       // the registry's warnings, as cli.Run prints them
	cmd := NewCmd(h.deps)
	cmd.SetArgs(args)
	cmd.SetOut(h.out)
	cmd.SetErr(h.errOut)
	cmd.SilenceErrors = true
	cmd.SilenceUsage = true
	return cmd.Execute()
}

func (h *harness) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(h.out.Bytes(), v); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, h.out)
	}
}

// installPack writes a ratified pack stricter than the shipped one into
// the home and configures it.
func (h *harness) installPack(t *testing.T, id string) string {
	t.Helper()
	shipped, err := sp.LoadShipped(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	p := shipped.Pack.Clone()
	p.PackID, p.Version, p.MasteryReportSHA256 = id, "1.0.0", ""
	p.BoundaryIDs = append(p.BoundaryIDs, "no_friday_deploys")
	p.BoundaryDescriptions["no_friday_deploys"] = "Nothing ships on a Friday."
	path := filepath.Join(h.deps.Config.Home, "packs", "safety", id+".json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, p.Encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := sp.RatifyFile(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(h.deps.Config.Home, "config.yaml"), []byte("format: json\nsafety_pack: "+id+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestShowShippedJSON(t *testing.T) {
	h := newHarness(t, "json")
	if err := h.run("show"); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	h.decode(t, &got)
	keys := []string{"pack_id", "version", "description", "schema_version", "mastery_report_sha256", "boundary_ids", "boundary_descriptions", "boundary_predicates", "boundary_enforcement", "ratified", "source", "level", "system_pack"}
	for _, k := range keys {
		if _, ok := got[k]; !ok {
			t.Errorf("show -f json lacks %q", k)
		}
	}
	if len(got) != len(keys) {
		t.Errorf("show -f json has %d keys, want %d: %v", len(got), len(keys), got)
	}
	if got["pack_id"] != "core_safety_axes_v1" || got["ratified"] != true || got["source"] != "embedded" || got["level"] != "shipped" || got["system_pack"] != nil {
		t.Errorf("show = %v", got)
	}
	if h.errOut.Len() != 0 {
		t.Errorf("stderr = %q, want nothing", h.errOut)
	}
	// Key order is the pack's own, then how it was loaded.
	if i, j := bytes.Index(h.out.Bytes(), []byte(`"boundary_descriptions"`)), bytes.Index(h.out.Bytes(), []byte(`"ratified"`)); i < 0 || j < i {
		t.Error("ratified does not follow the pack's own fields")
	}
}

func TestShowEveryFormat(t *testing.T) {
	for _, f := range []string{"json", "yaml", "plain", "table", "rich"} {
		t.Run(f, func(t *testing.T) {
			h := newHarness(t, f)
			if err := h.run("show"); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(h.out.String(), "no_identity_override") || !strings.Contains(h.out.String(), "core_safety_axes_v1") {
				t.Errorf("show -f %s lacks the pack:\n%s", f, h.out)
			}
		})
	}
}

func TestShowConfiguredAndTampered(t *testing.T) {
	h := newHarness(t, "json")
	path := h.installPack(t, "acme_safety_v1")
	if err := h.run("show"); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	h.decode(t, &got)
	if got["pack_id"] != "acme_safety_v1" || got["source"] != path || got["ratified"] != true {
		t.Errorf("show = %v", got)
	}

	data, _ := os.ReadFile(path)
	_ = os.WriteFile(path, bytes.Replace(data, []byte("Nothing ships"), []byte("Little ships"), 1), 0o644)
	h.out.Reset()
	err := h.run("show")
	if errs.KindOf(err) != errs.KindSafetyPack || !strings.Contains(err.Error(), "content has changed") {
		t.Fatalf("tampered pack: err = %v", err)
	}
	if h.out.Len() != 0 {
		t.Errorf("a refused pack printed data: %s", h.out)
	}

	// The override lets it load, says so, and show reports it unratified.
	h.env[cmdutil.EnvAllowUnratified] = "1"
	if err := h.run("show"); err != nil {
		t.Fatalf("override: %v", err)
	}
	h.decode(t, &got)
	if got["ratified"] != false {
		t.Errorf("ratified = %v under the override, want false", got["ratified"])
	}
	if !strings.Contains(h.errOut.String(), cmdutil.EnvAllowUnratified+"=1") || !strings.Contains(h.errOut.String(), "loaded without a valid seal") {
		t.Errorf("stderr does not announce the override:\n%s", h.errOut)
	}

	// verify still refuses under the override.
	h.out.Reset()
	if err := h.run("verify"); errs.KindOf(err) != errs.KindSafetyPack {
		t.Errorf("verify under the override: %v, want a safety-pack error", err)
	}

	// Any other value is not the override.
	h.env[cmdutil.EnvAllowUnratified] = "true"
	h.errOut.Reset()
	if err := h.run("show"); errs.KindOf(err) != errs.KindSafetyPack {
		t.Errorf("%s=true bypassed the seal: %v", cmdutil.EnvAllowUnratified, err)
	}
	if !strings.Contains(h.errOut.String(), "is ignored") {
		t.Errorf("stderr = %q, want a note that the value is ignored", h.errOut)
	}
}

func TestOverrideWarnsEveryTime(t *testing.T) {
	h := newHarness(t, "json")
	h.env[cmdutil.EnvAllowUnratified] = "1"
	for i := range 2 {
		h.errOut.Reset()
		if err := h.run("show"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(h.errOut.String(), "seals are not enforced") {
			t.Errorf("run %d: no warning on stderr", i+1)
		}
	}
}

func TestRatifyAndVerifyFile(t *testing.T) {
	h := newHarness(t, "json")
	// The configured pack is broken: ratify and verify of a file must not
	// care.
	if err := os.WriteFile(filepath.Join(h.deps.Config.Home, "config.yaml"), []byte("safety_pack: missing_v1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	shipped, _ := sp.LoadShipped(nil, false)
	p := shipped.Pack.Clone()
	p.PackID, p.MasteryReportSHA256 = "draft_v1", ""
	path := filepath.Join(t.TempDir(), "draft_v1.json")
	_ = os.WriteFile(path, p.Encode(), 0o644)

	if err := h.run("verify", path); errs.KindOf(err) != errs.KindSafetyPack || !strings.Contains(err.Error(), "failed verification") {
		t.Fatalf("verify of an unratified file: %v", err)
	}
	h.out.Reset()
	if err := h.run("ratify", path); err != nil {
		t.Fatalf("ratify: %v", err)
	}
	var r map[string]any
	h.decode(t, &r)
	if r["pack_id"] != "draft_v1" || r["pack_written"] != true || r["report_written"] != true {
		t.Errorf("ratify = %v", r)
	}
	h.out.Reset()
	if err := h.run("ratify", path); err != nil {
		t.Fatal(err)
	}
	h.decode(t, &r)
	if r["pack_written"] != false || r["report_written"] != false {
		t.Errorf("second ratify = %v, want nothing written", r)
	}
	h.out.Reset()
	if err := h.run("verify", path); err != nil {
		t.Fatalf("verify after ratify: %v", err)
	}
	var v map[string]any
	h.decode(t, &v)
	if v["verified"] != true || v["pack_id"] != "draft_v1" || v["source"] != path {
		t.Errorf("verify = %v", v)
	}
	if err := h.run("show"); errs.KindOf(err) != errs.KindSafetyPack {
		t.Errorf("show with a missing configured pack: %v, want a refusal", err)
	}
}

func TestRatifyWarnsAboutLooserPack(t *testing.T) {
	h := newHarness(t, "json")
	p := &sp.Pack{PackID: "thin_v1", Version: "1.0.0", Description: "Thin.", SchemaVersion: sp.SchemaVersion,
		BoundaryIDs: []string{sp.NoHotPathRepair}, BoundaryDescriptions: map[string]string{sp.NoHotPathRepair: "x"}}
	path := filepath.Join(t.TempDir(), "thin_v1.json")
	_ = os.WriteFile(path, p.Encode(), 0o644)
	if err := h.run("ratify", path); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.errOut.String(), "will be refused if configured") || !strings.Contains(h.errOut.String(), sp.NoFabricatedSource) {
		t.Errorf("stderr = %q, want a warning naming the missing boundaries", h.errOut)
	}
}

func TestRatifyVerifyErrors(t *testing.T) {
	h := newHarness(t, "json")
	missing := filepath.Join(t.TempDir(), "none_v1.json")
	if err := h.run("ratify", missing); errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("ratify missing: %v", err)
	}
	if err := h.run("verify", missing); errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("verify missing: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad_v1.json")
	_ = os.WriteFile(bad, []byte(`{"pack_id": "bad_v1"}`), 0o644)
	if err := h.run("ratify", bad); errs.KindOf(err) != errs.KindSafetyPack {
		t.Errorf("ratify malformed: %v", err)
	}
	if err := h.run("ratify"); err == nil {
		t.Error("ratify without a file succeeded")
	}
	if err := h.run("verify", "a", "b"); err == nil {
		t.Error("verify with two files succeeded")
	}
}

type verdict struct {
	PackID  string `json:"pack_id"`
	Results []struct {
		BoundaryID       string   `json:"boundary_id"`
		Upheld           bool     `json:"upheld"`
		Reason           string   `json:"reason"`
		RuntimeCheckable bool     `json:"runtime_checkable"`
		Evidence         []string `json:"evidence"`
	} `json:"results"`
	Upheld                bool     `json:"upheld"`
	ViolatedBoundaries    []string `json:"violated_boundaries"`
	RuntimeCheckableCount int      `json:"runtime_checkable_count"`
}

func TestCheckCurrentState(t *testing.T) {
	h := newHarness(t, "json")
	if err := h.run("check"); err != nil {
		t.Fatal(err)
	}
	var v verdict
	h.decode(t, &v)
	if v.PackID != "core_safety_axes_v1" || !v.Upheld || v.RuntimeCheckableCount != 1 || v.ViolatedBoundaries == nil {
		t.Errorf("verdict = %+v", v)
	}
	for _, r := range v.Results {
		if r.BoundaryID == sp.NoIdentityOverride {
			if !r.RuntimeCheckable || !r.Upheld || len(r.Evidence) != 2 || r.Evidence[0][len("before: "):] != r.Evidence[1][len("after: "):] {
				t.Errorf("identity result = %+v", r)
			}
		}
	}
}

// TestIdentityDetectsAnAlteredBuiltin: a built-in file whose content differs
// from what is served changes the "before" hash, so the check reports a
// violation.
func TestCheckContextFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		_ = os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	violating := write("bad.json", `{"field_state": {"versor_condition": 0.01}, "cited_source_shas": ["a", "b"], "allowed_source_shas": ["a"], "last_refusal_was_typed": false}`)
	clean := write("good.json", `{"last_refusal_was_typed": true}`)

	h := newHarness(t, "json")
	if err := h.run("check", "--context", violating); err != nil {
		t.Fatalf("observational check returned %v", err)
	}
	var v verdict
	h.decode(t, &v)
	want := []string{sp.NoFabricatedSource, sp.NoSilentCorrection, sp.PreserveVersorClosure}
	if v.Upheld || !slices.Equal(v.ViolatedBoundaries, want) || v.RuntimeCheckableCount != 3 {
		t.Errorf("verdict = %+v", v)
	}
	for _, r := range v.Results {
		if r.BoundaryID == sp.NoIdentityOverride && r.RuntimeCheckable {
			t.Error("with --context only, the built-in identity check still ran")
		}
	}

	h.out.Reset()
	err := h.run("check", "--context", violating, "--enforce")
	if errs.KindOf(err) != errs.KindSafetyPack || !strings.Contains(err.Error(), "no_fabricated_source, no_silent_correction, preserve_versor_closure") {
		t.Errorf("--enforce: %v", err)
	}
	if !strings.Contains(h.out.String(), `"violated_boundaries"`) {
		t.Error("--enforce did not print the verdict before failing")
	}

	h.out.Reset()
	if err := h.run("check", "--context", clean, "--enforce"); err != nil {
		t.Errorf("--enforce on a clean context: %v", err)
	}

	if err := h.run("check", "--context", filepath.Join(dir, "none.json")); errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("missing context: %v", err)
	}
	bad := write("unknown.json", `{"versor_condition": 1}`)
	if err := h.run("check", "--context", bad); errs.KindOf(err) != errs.KindInvalid {
		t.Errorf("unknown key: %v", err)
	}
	if err := h.run("check", "extra"); err == nil {
		t.Error("check with an argument succeeded")
	}
}

func TestCheckEveryFormat(t *testing.T) {
	ctx := filepath.Join(t.TempDir(), "ctx.json")
	_ = os.WriteFile(ctx, []byte(`{"last_refusal_was_typed": false, "identity_manifold_hash_before": "h\u001b[31m", "identity_manifold_hash_after": "h"}`), 0o644)
	for _, f := range []string{"json", "yaml", "plain", "table", "rich"} {
		t.Run(f, func(t *testing.T) {
			h := newHarness(t, f)
			if err := h.run("check", "--context", ctx); err != nil {
				t.Fatal(err)
			}
			out := h.out.String()
			if !strings.Contains(out, sp.NoSilentCorrection) {
				t.Errorf("output lacks the violated boundary:\n%s", out)
			}
			if f != "json" && f != "yaml" && strings.Contains(out, "\x1b") {
				t.Errorf("-f %s wrote a raw escape character", f)
			}
		})
	}
}

func TestCheckUsesPluggedBuilders(t *testing.T) {
	h := newHarness(t, "json")
	typed := false
	opts := &checkOptions{Run: h.deps.Run(), evidence: []registry.Evidence{
		{Name: "one", Build: func(*registry.Registry) (*sp.Context, error) { return &sp.Context{LastRefusalWasTyped: &typed}, nil }},
		{Name: "two", Build: func(*registry.Registry) (*sp.Context, error) {
			return &sp.Context{CitedSourceSHAs: []string{"x"}, AllowedSourceSHAs: []string{"x"}}, nil
		}},
	}}
	if err := checkRun(opts); err != nil {
		t.Fatal(err)
	}
	var v verdict
	h.decode(t, &v)
	if v.RuntimeCheckableCount != 2 || !slices.Equal(v.ViolatedBoundaries, []string{sp.NoSilentCorrection}) {
		t.Errorf("verdict = %+v", v)
	}
}
