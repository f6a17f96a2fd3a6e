package config

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/errs"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDecodeGlobal(t *testing.T) {
	g, err := DecodeGlobal([]byte(`# every key
automation_profile: acme/strict
safety_profile:
  require_human_approval: true
  allowed_skill_categories: [code, ' code ', docs]
safety_pack: acme_safety_v1
format: json
lock_timeout: 30s
`), "config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if g.AutomationProfile == nil || *g.AutomationProfile != "acme/strict" || g.SafetyPack != "acme_safety_v1" ||
		g.Format != "json" || g.LockTimeout != "30s" || g.File != "config.yaml" {
		t.Errorf("global = %+v", g)
	}
	s := g.SafetyProfile
	if s == nil || !s.RequireHumanApproval || !s.RequireSandbox || strings.Join(s.AllowedSkillCategories, ",") != "code,docs" {
		t.Errorf("safety profile = %+v", s)
	}
	// A number of seconds is a lock timeout too, as the root command reads it.
	g, err = DecodeGlobal([]byte("lock_timeout: 5\n"), "config.yaml")
	if err != nil || g.LockTimeout != "5s" {
		t.Errorf("lock_timeout 5 = %q, %v", g.LockTimeout, err)
	}
}

func TestDecodeGlobalRefuses(t *testing.T) {
	tests := []struct{ doc, path, msg string }{
		{"automation_profil: ci\n", "automation_profil", `did you mean "automation_profile"`},
		{"safety_pak: acme_v1\n", "safety_pak", `did you mean "safety_pack"`},
		{"automation_profile: CI\n", "automation_profile", "namespace/name"},
		{"automation_profile: true\n", "automation_profile", "must be a string"},
		{"safety_profile: [a]\n", "safety_profile", "must be a mapping"},
		{"automation_profile:\n", "automation_profile", "got null; remove the key"},
		{"automation_profile: ~\n", "automation_profile", "got null; remove the key"},
		{"safety_profile: null\n", "safety_profile", "got null; remove the key"},
		{"safety_profile:\n  require_sandbox: \"yes\"\n", "safety_profile.require_sandbox", "true or false"},
		{"safety_profile:\n  max_cost_per_plan: .nan\n", "safety_profile.max_cost_per_plan", "finite"},
		{"safety_pack: 7\n", "safety_pack", "must be a string naming a pack id, got integer 7"},
		{"safety_pack: ../x_v1\n", "safety_pack", "path separator"},
		{"safety_pack: acme\n", "safety_pack", "must have the form"},
		{"format: 3\n", "format", "must be a string"},
		{"lock_timeout: soon\n", "lock_timeout", "duration"},
		{"lock_timeout: -1\n", "lock_timeout", "negative"},
		{"lock_timeout: 18446744074\n", "lock_timeout", "over the maximum of 24h"},
		{"lock_timeout: 86400.5\n", "lock_timeout", "over the maximum of 24h"},
		{"lock_timeout: 25h\n", "lock_timeout", "over the maximum of 24h"},
		{"format: json\nformat: yaml\n", "format", "duplicate key"},
		// An empty store: or hooks section, as a file cut short after the
		// key leaves it, would hand decisions to the home's file store,
		// or drop a reclassification that made a tool stricter.
		{"store:\n", "store", "got null; remove the key"},
		{"store: ~\n", "store", "got null; remove the key"},
		{"store: \"\"\n", "store", "is empty"},
		{"hooks:\n", "hooks", "got null"},
		{"hooks:\n  claude-code:\n", "hooks.claude-code", "got null"},
		{"hooks:\n  claude-code:\n    tools:\n", "hooks.claude-code.tools", "got null"},
		{"- a\n", "", "must be a mapping"},
	}
	for _, tt := range tests {
		_, err := DecodeGlobal([]byte(tt.doc), "config.yaml")
		var e *errs.Error
		if !errs.Is(err, errs.KindInvalid) || !asError(err, &e) || len(e.Problems) == 0 {
			t.Errorf("%q: err = %v, want invalid input", tt.doc, err)
			continue
		}
		p := e.Problems[0]
		if p.Path != tt.path || !strings.Contains(p.Message, tt.msg) || p.File != "config.yaml" {
			t.Errorf("%q: problem = %+v, want %s: %s", tt.doc, p, tt.path, tt.msg)
		}
	}
}

func TestLockTimeoutLimits(t *testing.T) {
	for _, doc := range []string{"lock_timeout: 86400\n", "lock_timeout: 24h\n", "lock_timeout: 0\n"} {
		if _, err := DecodeGlobal([]byte(doc), "config.yaml"); err != nil {
			t.Errorf("%q: %v", doc, err)
		}
	}
	if d, why := SecondsDuration(1.5); why != "" || d != 1500*time.Millisecond {
		t.Errorf("1.5 seconds = %v, %q", d, why)
	}
	if got := FormatDuration(MaxLockTimeout); got != "24h" {
		t.Errorf("FormatDuration(24h) = %q", got)
	}
}

func asError(err error, e **errs.Error) bool {
	x, ok := err.(*errs.Error)
	*e = x
	return ok
}

// An empty file, or one of comments alone, is refused like every empty
// file agents reads, with a hint; a file with no settings but a null is
// not empty.
func TestEmptyConfigurations(t *testing.T) {
	for _, doc := range []string{"", "\n\n", "# only a comment\n", "---\n# nothing\n", "\ufeff# bom\n"} {
		for _, decode := range []func() error{
			func() error { _, err := DecodeGlobal([]byte(doc), "config.yaml"); return err },
			func() error { _, err := DecodeProject([]byte(doc), "agents.yaml"); return err },
		} {
			var e *errs.Error
			err := decode()
			if !asError(err, &e) || e == nil || e.Kind != errs.KindInvalid ||
				!strings.Contains(e.Error(), "file is empty") || !strings.Contains(e.Hint, "remove it") {
				t.Errorf("%q decoded: %v, want an empty file refused with a hint", doc, err)
			}
		}
	}
	if out, changed, err := SetTrusted(nil, "config.yaml", "/p", "", true); err != nil || !changed || !strings.Contains(string(out), `folder: "/p"`) {
		t.Errorf("SetTrusted on no file = %q, %v, %v", out, changed, err)
	}
	if _, _, err := SetTrusted([]byte{}, "config.yaml", "/p", "", true); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("SetTrusted on an empty file: %v, want it refused", err)
	}
	// Null values are refused, each on its own, not taken as unset.
	_, err := DecodeProject([]byte("automation_profile: null\nsafety_profile: ~\n"), "agents.yaml")
	var e *errs.Error
	if !asError(err, &e) || len(e.Problems) != 2 {
		t.Errorf("nulls: %v, want both refused", err)
	}
}

// An agents.yaml whose key is left empty is refused, as config.yaml's is:
// taken as unset, it would hand the decision to a looser level above.
func TestDecodeProjectRefusesNull(t *testing.T) {
	for _, doc := range []string{"automation_profile:\n", "safety_profile: ~\n", "automation_profile: !!null x\n", "{}\n"} {
		_, err := DecodeProject([]byte(doc), "agents.yaml")
		var e *errs.Error
		if !asError(err, &e) || e.Kind != errs.KindInvalid || len(e.Problems) != 1 || !strings.Contains(e.Problems[0].Message, "null") && !strings.Contains(e.Problems[0].Message, "sets nothing") {
			t.Errorf("%q: err = %v, want one problem naming null, or nothing set", doc, err)
		}
	}
}

func TestDecodeProjectRefusesGlobalKeys(t *testing.T) {
	_, err := DecodeProject([]byte("automation_profile: ci\nsafety_pack: acme_v1\nformat: json\nlock_timeout: 1s\nautomaton_profile: x\n"), "agents.yaml")
	var e *errs.Error
	if !asError(err, &e) || e.Kind != errs.KindInvalid || len(e.Problems) != 4 {
		t.Fatalf("err = %v", err)
	}
	for i, key := range []string{"safety_pack", "format", "lock_timeout"} {
		if p := e.Problems[i]; p.Path != key || !strings.Contains(p.Message, "only in the global configuration") {
			t.Errorf("problem %d = %+v", i, p)
		}
	}
	if p := e.Problems[3]; !strings.Contains(p.Message, `did you mean "automation_profile"`) {
		t.Errorf("typo = %+v", p)
	}
}

func TestFindProject(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := FindProject(deep)
	if err != nil || (got != "" && !strings.HasPrefix(root, filepath.Dir(got))) {
		t.Fatalf("no agents.yaml: %q, %v", got, err)
	}
	write(t, filepath.Join(root, "a", "agents.yaml"), "automation_profile: ci\n")
	if got, err := FindProject(deep); err != nil || got != filepath.Join(root, "a", "agents.yaml") {
		t.Errorf("from a subfolder: %q, %v", got, err)
	}
	// The nearest wins.
	write(t, filepath.Join(root, "a", "b", "agents.yaml"), "automation_profile: manual\n")
	p, err := LoadProject(ProjectOptions{Dir: deep})
	if err != nil || p.File != filepath.Join(root, "a", "b", "agents.yaml") || *p.AutomationProfile != "manual" || p.Dir != deep {
		t.Errorf("nearest: %+v, %v", p, err)
	}
	// A folder called agents.yaml is not passed over for the file further
	// up: the project level it stands for is refused, not dropped.
	if err := os.MkdirAll(filepath.Join(deep, "agents.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := FindProject(deep); got != filepath.Join(deep, "agents.yaml") {
		t.Errorf("a folder named agents.yaml was passed over: %q", got)
	}
	if _, err := LoadProject(ProjectOptions{Dir: deep}); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a folder named agents.yaml: %v", err)
	}
	if _, err := FindProject(filepath.Join(root, "none")); !errs.Is(err, errs.KindNotFound) {
		t.Errorf("missing folder: %v", err)
	}
	if _, err := FindProject(filepath.Join(root, "a", "agents.yaml")); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("a file as the folder: %v", err)
	}
	// The search goes up from where the folder leads: through a link in
	// another project, and "link/.." is the parent of the link's target,
	// not the folder the link stands in.
	other := filepath.Join(root, "x", "sub")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "x", "agents.yaml"), "automation_profile: manual\n")
	if err := os.Symlink(other, filepath.Join(root, "a", "lnk")); err != nil {
		t.Fatal(err)
	}
	// Going up the path as written finds a/agents.yaml, from where it
	// leads x/agents.yaml: which applies cannot be told.
	for _, start := range []string{filepath.Join(root, "a", "lnk"), filepath.Join(root, "a", "lnk") + "/.."} {
		if got, err := FindProject(start); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "cannot be told") {
			t.Errorf("FindProject(%s) = %q, %v; want the two files refused", start, got, err)
		}
	}
	// LoadProject hands the folder on as given, not tidied as text (a
	// hook's cwd "lnk/.." is x, where the kernel takes it).
	if _, err := LoadProject(ProjectOptions{Dir: filepath.Join(root, "a", "lnk") + "/.."}); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "cannot be told") {
		t.Errorf("LoadProject(a/lnk/..) = %v; want the two files refused", err)
	}
	// A link within the project finds the same file either way.
	if err := os.Symlink(filepath.Join(root, "x", "sub"), filepath.Join(root, "x", "alias")); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(root, "x", "agents.yaml")
	if got, err := FindProject(filepath.Join(root, "x", "alias")); err != nil || got != want {
		t.Errorf("FindProject through a link within the project = %q, %v; want %s", got, err, want)
	}
}

func TestLoadProjectMalformedNamesFile(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "agents.yaml")
	write(t, file, "automation_profile: [ci\n")
	_, err := LoadProject(ProjectOptions{Dir: root})
	if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), file) {
		t.Errorf("err = %v, want invalid input naming %s", err, file)
	}
}

func TestLoadGlobal(t *testing.T) {
	home := t.TempDir()
	g, err := LoadGlobal(home)
	if err != nil || g.File != "" || g.AutomationProfile != nil {
		t.Fatalf("no config.yaml: %+v, %v", g, err)
	}
	write(t, GlobalPath(home), "automation_profile: ci\n")
	g, err = LoadGlobal(home)
	if err != nil || g.File != GlobalPath(home) || *g.AutomationProfile != "ci" {
		t.Errorf("config.yaml: %+v, %v", g, err)
	}
	write(t, GlobalPath(home), "safety_pack: 7\nformat: 1\n")
	_, err = LoadGlobal(home)
	ps := ProblemsAt(err, KeySafetyPack)
	if len(ps) != 1 || ps[0].Path != "safety_pack" {
		t.Errorf("ProblemsAt(safety_pack) = %v", ps)
	}
	if ps := ProblemsAt(err, "safety"); len(ps) != 0 {
		t.Errorf("ProblemsAt matched a prefix that is not a key: %v", ps)
	}
}

// TestCheckSeesTheFileRead: the trust check must end its walk at the file
// that was read. A link replaced between the read and the check (another
// user racing a link on the way) leaves the check looking at another file,
// or at nothing: both are refusals, never a pass.
func TestCheckSeesTheFileRead(t *testing.T) {
	if !ownersKnown {
		t.Skip("no owners to check on this system")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	write(t, a, "automation_profile: manual\n")
	write(t, b, "automation_profile: full-auto\n")
	fiA, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	fiB, _ := os.Stat(b)
	same := func(e *errs.Error) *errs.Error { return e }
	if err := checkOwnership(a, "the file", same, fiA); err != nil {
		t.Errorf("the file read, checked: %v", err)
	}
	if err := checkOwnership(a, "the file", same, fiB); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "changed while it was being read") {
		t.Errorf("another file than the one read: %v", err)
	}
	if err := checkOwnership(filepath.Join(dir, "gone.yaml"), "the file", same, fiA); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("a file read that the check cannot find: %v", err)
	}
	if err := checkOwnership(filepath.Join(dir, "gone.yaml"), "the file", same, nil); err != nil {
		t.Errorf("a missing file not read yet, in a folder of the user's own: %v", err)
	}
	data, err := readTrusted(a, "the file", same)
	if err != nil || string(data) != "automation_profile: manual\n" {
		t.Errorf("readTrusted = %q, %v", data, err)
	}
}

// TestDanglingConfigLinkRefused: a config.yaml that is a link to nothing
// cannot be read, which is not the same as having none: what it would say
// (a stricter pack, say) is unknown, so it is an error, not an empty
// configuration.
func TestDanglingConfigLinkRefused(t *testing.T) {
	home := t.TempDir()
	if err := os.Symlink(filepath.Join(home, "gone.yaml"), GlobalPath(home)); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadGlobal(home); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "which does not exist") {
		t.Errorf("ReadGlobal through a dangling link = %v", err)
	}
	if data, err := ReadGlobal(t.TempDir()); data != nil || err != nil {
		t.Errorf("no config.yaml = %q, %v", data, err)
	}
}

// A folder on the way up that cannot be searched may hold the agents.yaml
// that applies: it is refused, never passed over for one further up (a
// hook would then decide under the parent project's profile).
func TestFindProjectRefusesWhatItCannotSearch(t *testing.T) {
	root := t.TempDir()
	secret := filepath.Join(root, "secret")
	if err := os.MkdirAll(secret, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ProjectFileName), []byte("automation_profile: full-auto\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := FindProject(secret); err != nil || got != filepath.Join(root, ProjectFileName) {
		t.Fatalf("FindProject = %q, %v, want the parent's file", got, err)
	}
	defer func(orig func(string) (fs.FileInfo, error)) { lstat = orig }(lstat)
	lstat = func(name string) (fs.FileInfo, error) {
		if filepath.Dir(name) == secret {
			return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrPermission}
		}
		return os.Lstat(name)
	}
	got, err := FindProject(secret)
	if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "permission denied") || got != "" {
		t.Errorf("FindProject through a folder it cannot search = %q, %v, want it refused", got, err)
	}
	// The same on the way up the folder as written, when it differs from
	// where the folder leads: "secret/lnk/.." is root as the kernel takes
	// it, and secret as written.
	other := filepath.Join(root, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, filepath.Join(secret, "lnk")); err != nil {
		t.Fatal(err)
	}
	got, err = FindProject(filepath.Join(secret, "lnk") + "/..")
	if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "permission denied") || got != "" {
		t.Errorf("FindProject with a folder it cannot search on the way up as written = %q, %v, want it refused", got, err)
	}
}

// TestSwappableHome: a home of the user's own, with no config.yaml, in a
// folder others may write to without the sticky bit, could be another
// folder put in the home's place (its own config.yaml renamed away with
// it): Absent doubts it. In a sticky folder, or one of the user's alone,
// it does not.
func TestSwappableHome(t *testing.T) {
	if !ownersKnown {
		t.Skip("no owners to check on this system")
	}
	shared := t.TempDir()
	home := filepath.Join(shared, "agents")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if g := Absent(home); g.Doubt != "" {
		t.Errorf("a home in a folder of the user's alone: %q", g.Doubt)
	}
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	g, err := LoadGlobal(home)
	if err != nil || !strings.Contains(g.Doubt, "the home stands under the folder "+shared+", which can be written by anyone") {
		t.Errorf("a home in a folder anyone can write = %+v, %v", g, err)
	}
	// Through a link, the folder the home is in counts, not the link's.
	link := filepath.Join(t.TempDir(), "agents")
	if err := os.Symlink(home, link); err != nil {
		t.Fatal(err)
	}
	if g := Absent(link); !strings.Contains(g.Doubt, "could have put another folder in the place of "+home) {
		t.Errorf("a home through a link, in a folder anyone can write: %q", g.Doubt)
	}
	// Further up: anyone may rename the folder the home is in.
	deeper := filepath.Join(shared, "sub", "agents")
	if err := os.MkdirAll(deeper, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(deeper), 0o755); err != nil {
		t.Fatal(err)
	}
	if g := Absent(deeper); !strings.Contains(g.Doubt, "could have put another folder in the place of "+filepath.Dir(deeper)) {
		t.Errorf("a home two folders under one anyone can write: %q", g.Doubt)
	}
	if err := os.Chmod(shared, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if g := Absent(home); g.Doubt != "" {
		t.Errorf("a home in a sticky folder: %q", g.Doubt)
	}
	if g := Absent(deeper); g.Doubt != "" {
		t.Errorf("a home under a sticky folder: %q", g.Doubt)
	}
	// Its config.yaml, the user's own, is read as it is: a folder put in
	// the home's place could not hold one of the user's.
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("automation_profile: manual\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if g, err := LoadGlobal(home); err != nil || g.Doubt != "" {
		t.Errorf("a home with its config.yaml in a folder anyone can write = %+v, %v", g, err)
	}
}

// TestMissingConfigInAnUntrustedHome: no config.yaml is no configuration,
// but in a home anyone (or another user) may write the missing file may
// have named a stricter pack or tool classes: Absent says so, for the
// registry to refuse decisions.
func TestMissingConfigInAnUntrustedHome(t *testing.T) {
	if !ownersKnown {
		t.Skip("no owners to check on this system")
	}
	home := t.TempDir()
	if g, err := LoadGlobal(home); err != nil || g.Doubt != "" {
		t.Fatalf("no config.yaml in the user's own home = %+v, %v", g, err)
	}
	if g := Absent(filepath.Join(home, "not-yet", "deeper")); g.Doubt != "" {
		t.Errorf("a home not made yet, in a folder of the user's own: %q", g.Doubt)
	}
	// In a folder another user owns: they could have moved the home
	// away. Making it ends the doubt.
	theirs := filepath.Join(t.TempDir(), "theirs")
	if err := os.Mkdir(theirs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, 65534, 65534); err == nil {
		if g := Absent(filepath.Join(theirs, ".config", "agents")); !strings.Contains(g.Doubt, "is owned by") || !strings.Contains(g.Doubt, "make it") {
			t.Errorf("a home missing under another user's folder: %q", g.Doubt)
		}
	}
	if err := os.Chmod(home, 0o777); err != nil {
		t.Fatal(err)
	}
	g, err := LoadGlobal(home)
	if err != nil || !strings.Contains(g.Doubt, "it is missing, and its folder "+home+" can be written by anyone") {
		t.Errorf("no config.yaml in a home anyone can write = %+v, %v", g, err)
	}
	// A home that is missing from a folder others may remove it from
	// (moved away, config.yaml and all): the same. Under a folder with
	// the sticky bit, only its owner could have: no doubt.
	if g := Absent(filepath.Join(home, "moved", "deeper")); !strings.Contains(g.Doubt, "as is its folder") {
		t.Errorf("a home missing from a folder anyone can write: %q", g.Doubt)
	}
	if err := os.Chmod(home, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if g := Absent(filepath.Join(home, "moved")); g.Doubt != "" {
		t.Errorf("a home missing from a sticky folder: %q", g.Doubt)
	}
	if err := os.Chmod(home, 0o777); err != nil {
		t.Fatal(err)
	}
	// Through a link to such a home, too.
	link := filepath.Join(t.TempDir(), "home")
	if err := os.Symlink(home, link); err != nil {
		t.Fatal(err)
	}
	if g := Absent(link); g.Doubt == "" {
		t.Error("no config.yaml, through a link to a home anyone can write: no doubt")
	}
}

// A home that is a file is named as such, not reported as a failure to
// open config.yaml inside it.
func TestHomeThatIsAFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "home")
	write(t, f, "")
	_, err := ReadGlobal(f)
	if !errs.Is(err, errs.KindUsage) || !strings.Contains(err.Error(), "the agents home "+f+" is not a folder") {
		t.Errorf("ReadGlobal of a file = %v", err)
	}
}
