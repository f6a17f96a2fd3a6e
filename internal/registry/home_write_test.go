package registry

import (
	"os"
	"os/user"
	"strings"

	"path/filepath"
	"testing"

	"github.com/agentsctl/agents/internal/hook"
)

// inHome is the hook's check of a write into the agents home.
func inHome(paths []string, cwd string, dirs []string, home string) string {
	return writeTargets{paths: paths, cwd: cwd, dirs: dirs}.first(inHomeOf(home))
}

// inHome finds a write into the agents home however the path is written:
// relative to the agent's folder, through "..", or through a link to it.
func TestInHome(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	work := filepath.Join(root, "work")
	for _, d := range []string{home, work} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(home, filepath.Join(work, "cfg")); err != nil {
		t.Fatal(err)
	}
	// Links whose targets do not exist yet: a write through one creates
	// the file in the home.
	for name, target := range map[string]string{
		"NOTES.md":  "../home/config.yaml",
		"abs.md":    filepath.Join(home, "profiles", "acme", "x.yaml"),
		"chain.md":  "NOTES.md",
		"loop.md":   "loop2.md",
		"loop2.md":  "loop.md",
		"inside.md": "../work/elsewhere.md",
	} {
		if err := os.Symlink(target, filepath.Join(work, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		paths []string
		in    bool
	}{
		{[]string{filepath.Join(home, "config.yaml")}, true},
		{[]string{home}, true},
		{[]string{"../home/profiles/acme/x.yaml"}, true},
		{[]string{"cfg/config.yaml"}, true},
		{[]string{"cfg/new/deeper/file"}, true},
		{[]string{"notes.txt", filepath.Join(home, "plans", "p.yaml")}, true},
		{[]string{"notes.txt"}, false},
		{[]string{"NOTES.md"}, true},
		{[]string{filepath.Join(work, "abs.md")}, true},
		{[]string{"chain.md"}, true},
		{[]string{"loop.md"}, true}, // where a loop leads cannot be told
		{[]string{"inside.md"}, false},
		{[]string{"cfg/../work/x"}, false},
		// cfg/.. is the home's parent, not work: the kernel follows the
		// link before it goes up.
		{[]string{"cfg/../home/config.yaml"}, true},
		{[]string{filepath.Join(work, "cfg") + "/../home/profiles/acme/x.yaml"}, true},
		{[]string{filepath.Join(root, "homework", "x")}, false},
		{[]string{""}, false},
		{nil, false},
	} {
		got := inHome(tt.paths, work, nil, home)
		if (got != "") != tt.in {
			t.Errorf("inHome(%q) = %q, want in the home: %v", tt.paths, got, tt.in)
		}
	}
	// A folder the tool's input names is another place a relative path
	// may be read from (Codex's shell runs apply_patch in its workdir).
	for _, tt := range []struct {
		dirs []string
		in   bool
	}{
		{[]string{home}, true},
		{[]string{"cfg"}, true}, // relative to cwd, through the link
		{[]string{"../home"}, true},
		{[]string{root}, false},
		{[]string{""}, false},
	} {
		if got := inHome([]string{"config.yaml"}, work, tt.dirs, home); (got != "") != tt.in {
			t.Errorf("inHome(config.yaml, dirs %q) = %q, want in the home: %v", tt.dirs, got, tt.in)
		}
	}
	// "~/" as Codex reads it: the user's home folder.
	t.Setenv("HOME", root)
	if got := inHome([]string{"~/home/config.yaml"}, work, nil, home); got == "" {
		t.Error("~/home/config.yaml, with HOME above the agents home: not found in it")
	}
	if got := inHome([]string{"~/work/notes.txt"}, work, nil, home); got != "" {
		t.Errorf("~/work/notes.txt is outside the home: %q", got)
	}
	// Without cwd, a relative path is read from the working folder, as
	// the agent's own tool would read it.
	t.Chdir(home)
	if got := inHome([]string{"config.yaml"}, "", nil, home); got == "" {
		t.Error("a relative path without cwd, from the home: not found in it")
	}
	// A working folder that is gone cannot show the file is outside the
	// home: it counts as in it.
	gone := filepath.Join(root, "gone")
	if err := os.Mkdir(gone, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Chdir(gone)
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	if wd, err := os.Getwd(); err == nil {
		t.Skipf("the working folder still reads as %s once removed", wd)
	}
	if got := inHome([]string{"notes.txt"}, "", nil, home); got == "" {
		t.Error("a relative path from a working folder that is gone counts as outside the home")
	}
}

// isAgentSettings matches the files the agents' hooks are installed in,
// and nothing else in their folders.
func TestIsAgentSettings(t *testing.T) {
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"/home/dev/.claude/settings.json", true},
		{"/home/dev/shop/.claude/settings.local.json", true},
		{"/home/dev/.codex/hooks.json", true},
		{"/home/dev/.codex/config.toml", true},
		{"/home/dev/shop/.gemini/settings.json", true},
		{"/home/dev/shop/.Claude/Settings.json", true},
		{"/home/dev/.claude/commands/review.md", false},
		{"/home/dev/.claude/settings.json.bak", false},
		{"/home/dev/shop/settings.json", false},
		{"/home/dev/.gemini/config.toml", false},
		{"/home/dev/.codex/settings.json", false},
	} {
		if got := isAgentSettings(tt.path); got != tt.want {
			t.Errorf("isAgentSettings(%s) = %v, want %v", tt.path, got, tt.want)
		}
	}
	// Through a link: the file a write lands in is what counts.
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, ".claude", "settings.json"), filepath.Join(root, "notes.md")); err != nil {
		t.Fatal(err)
	}
	w := writeTargets{paths: []string{"notes.md"}, cwd: root}
	if got := w.first(isAgentSettings); got == "" {
		t.Error("a write through a link to .claude/settings.json is not found")
	}
	w = writeTargets{paths: []string{"other.md"}, cwd: root}
	if got := w.first(isAgentSettings); got != "" {
		t.Errorf("a plain file matched: %s", got)
	}
	// Without cwd, the settings are looked for from the working folder,
	// as relative paths are read from it.
	if err := os.Mkdir(filepath.Join(root, "dots"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "dots"), filepath.Join(root, ".gemini")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	f := newFixture(t)
	d, err := f.r.DecideHook(HookCall{
		Agent: hook.GeminiCLI, Under: Under{Profile: "full-auto"},
		Call: hook.Call{Tool: "write_file", Paths: []string{filepath.Join(root, "dots", "settings.json")}},
	})
	if err != nil || d.Answer.Rule != RuleAgentSettings {
		t.Errorf("a write to where the working folder's .gemini/settings.json leads, without cwd: %+v, %v", d.Answer, err)
	}
}

// The settings files are found where they lead: a project's .claude that
// is a link to a dotfiles folder makes a write into that folder a write
// into the project's settings.
func TestAgentSettingsWhereTheyLead(t *testing.T) {
	root := t.TempDir()
	project, dots := filepath.Join(root, "project", "sub"), filepath.Join(root, "dots", "claude")
	for _, d := range []string{project, dots} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(dots, filepath.Join(root, "project", ".claude")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", t.TempDir())
	match := settingsOf(project, nil)
	for _, tt := range []struct {
		path string
		want bool
	}{
		{filepath.Join(dots, "settings.json"), true},
		{filepath.Join(dots, "settings.local.json"), true},
		{filepath.Join(dots, "commands.md"), false},
		{filepath.Join(root, "dots", "settings.json"), false},
	} {
		w := writeTargets{paths: []string{tt.path}, cwd: project}
		if got := w.first(match) != ""; got != tt.want {
			t.Errorf("a write to %s: matched %v, want %v", tt.path, got, tt.want)
		}
	}
}

// The settings files found elsewhere (a folder an environment variable
// moves an agent's settings to, an administrator's file) are matched as
// named, relative ones from the working folder, and where they lead.
func TestAgentSettingsElsewhere(t *testing.T) {
	root := t.TempDir()
	cfg, real := filepath.Join(root, "ccfg"), filepath.Join(root, "real")
	for _, d := range []string{cfg, real} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(real, "config.toml"), filepath.Join(root, "codex.toml")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", t.TempDir())
	match := settingsOf(root, []string{filepath.Join(cfg, "settings.json"), "codex.toml"})
	for _, tt := range []struct {
		path string
		want bool
	}{
		{filepath.Join(cfg, "settings.json"), true},
		{"ccfg/settings.json", true},
		{filepath.Join(root, "codex.toml"), true},
		{filepath.Join(real, "config.toml"), true},
		{filepath.Join(cfg, "notes.md"), false},
		{filepath.Join(real, "other.toml"), false},
	} {
		w := writeTargets{paths: []string{tt.path}, cwd: root}
		if got := w.first(match) != ""; got != tt.want {
			t.Errorf("a write to %s: matched %v, want %v", tt.path, got, tt.want)
		}
	}
}

// A write that names more files than were read is taken to name one in
// every place a rule guards: which it names cannot be told.
func TestWriteTargetsUntold(t *testing.T) {
	w := writeTargets{paths: []string{"/elsewhere/a"}, cwd: "/elsewhere", untold: true}
	if f := w.first(inHomeOf(t.TempDir())); f == "" {
		t.Errorf("untold targets: matched %q", f)
	}
	w.untold = false
	if f := w.first(inHomeOf(t.TempDir())); f != "" {
		t.Errorf("told targets elsewhere: matched %q", f)
	}
}

// Claude Code's settings files that could let an edit run without asking
// are found in the working folder's .claude and those above it, in the
// user's (moved or not), and one that cannot be read counts.
func TestClaudePermitsEdits(t *testing.T) {
	root := t.TempDir()
	work, cfg := filepath.Join(root, "project", "sub"), filepath.Join(root, "cfg")
	for _, d := range []string{work, cfg, filepath.Join(root, "project", ".claude")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	// The administrators' files are the test's, not the machine's.
	managed, managedDirs := hook.ClaudeManaged, hook.ClaudeManagedDirs
	hook.ClaudeManaged = []string{filepath.Join(root, "etc", "managed-settings.json")}
	hook.ClaudeManagedDirs = []string{filepath.Join(root, "etc", "managed-settings.d")}
	t.Cleanup(func() { hook.ClaudeManaged, hook.ClaudeManagedDirs = managed, managedDirs })
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if claudePermitsEdits(work, ClaudeSession{}) {
		t.Fatal("no settings at all: permits")
	}
	allow := `{"permissions":{"allow":["Edit"]}}`
	for _, tt := range []struct {
		file, configDir string
	}{
		{filepath.Join(root, "project", ".claude", "settings.local.json"), ""},
		{filepath.Join(home, ".claude", "settings.json"), ""},
		{filepath.Join(cfg, "settings.json"), cfg},
		{filepath.Join(root, "etc", "managed-settings.json"), ""},
		{filepath.Join(root, "etc", "managed-settings.d", "10-team.json"), ""},
	} {
		write(tt.file, allow)
		if !claudePermitsEdits(work, ClaudeSession{ConfigDir: tt.configDir}) {
			t.Errorf("%s allows edits: not seen", tt.file)
		}
		write(tt.file, `{"permissions":{"allow":["Read"]}}`)
		if claudePermitsEdits(work, ClaudeSession{ConfigDir: tt.configDir}) {
			t.Errorf("%s allows reads only: permits edits", tt.file)
		}
	}
	// The session's project folder is read, wherever the call works.
	proj := t.TempDir()
	write(filepath.Join(proj, ".claude", "settings.json"), allow)
	if !claudePermitsEdits(work, ClaudeSession{ProjectDir: proj}) {
		t.Error("the session's project allows edits: not seen")
	}
	// The user's moved settings replace ~/.claude's.
	write(filepath.Join(home, ".claude", "settings.json"), allow)
	if claudePermitsEdits(work, ClaudeSession{ConfigDir: cfg}) {
		t.Error("with the settings moved, ~/.claude's still counted")
	}
	// A settings file that is a folder cannot be read: it counts.
	if err := os.MkdirAll(filepath.Join(work, ".claude", "settings.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	if !claudePermitsEdits(work, ClaudeSession{ConfigDir: cfg}) {
		t.Error("an unreadable settings file: not counted")
	}
}

// A working folder reached through a link: the folders above where it
// leads are the project's too ("link/.." is the parent of the link's
// target), as they are for agents.yaml, so a settings file there that
// lets an edit run, or holds a PermissionRequest hook, counts whichever
// way the agent names its folder.
func TestClaudeSettingsThroughALinkedWorkingFolder(t *testing.T) {
	root := t.TempDir()
	work := filepath.Join(root, "project", "sub")
	if err := os.MkdirAll(filepath.Join(root, "project", ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(work, 0o700); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	link := filepath.Join(elsewhere, "l")
	if err := os.Symlink(work, link); err != nil {
		t.Skipf("cannot make links here: %v", err)
	}
	t.Setenv("HOME", t.TempDir())
	managed, managedDirs := hook.ClaudeManaged, hook.ClaudeManagedDirs
	hook.ClaudeManaged, hook.ClaudeManagedDirs = nil, nil
	t.Cleanup(func() { hook.ClaudeManaged, hook.ClaudeManagedDirs = managed, managedDirs })
	file := filepath.Join(root, "project", ".claude", "settings.json")
	for _, tt := range []struct {
		content string
		say     func(string) bool
	}{
		{`{"permissions":{"allow":["Edit"]}}`, func(cwd string) bool { return claudePermitsEdits(cwd, ClaudeSession{}) }},
		{`{"hooks":{"PermissionRequest":[{"matcher":"*","hooks":[{"type":"command","command":"true"}]}]}}`, func(cwd string) bool { return claudeAnswersAsks(cwd, ClaudeSession{}) != "" }},
	} {
		if err := os.WriteFile(file, []byte(tt.content), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, cwd := range []string{work, link, link + "/."} {
			if !tt.say(cwd) {
				t.Errorf("%s in %s, from %s: not seen", tt.content, file, cwd)
			}
		}
	}
}

// A file in Claude Code's managed-settings.d folder is an agent's
// settings file, whatever its name.
func TestManagedSettingsFolder(t *testing.T) {
	match := settingsOf(t.TempDir(), nil)
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"/etc/claude-code/managed-settings.d/50-x.json", true},
		{"/etc/claude-code/managed-settings.d", true},
		{"/etc/claude-code/other.json", false},
	} {
		w := writeTargets{paths: []string{tt.path}, cwd: "/"}
		if got := w.first(match) != ""; got != tt.want {
			t.Errorf("a write to %s: matched %v, want %v", tt.path, got, tt.want)
		}
	}
}

// A leading "~" that is not "~/" is read as a server may read it: the home
// of the user it names, or the user's own home with the "~" dropped. A
// part too long for any file is text, unless tidying it away names a file.
func TestWriteTargetsTildeAndLongParts(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	agents := filepath.Join(home, ".config", "agents")
	match := inHomeOf(agents)
	long := strings.Repeat("A", 300)
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"~.config/agents/config.yaml", true},
		{"~/.config/agents/config.yaml", true},
		{"~nosuchuser-agents/x", false},
		{long + " is a comment, not a path/x", false},
		{long + "/../.config/agents/config.yaml", true},
	} {
		w := writeTargets{paths: []string{tt.path}, cwd: home}
		if got := w.first(match) != ""; got != tt.want {
			t.Errorf("a write to %.40q: matched %v, want %v", tt.path, got, tt.want)
		}
	}
	if u, err := user.Current(); err == nil && u.Username != "" && u.HomeDir != "" {
		w := writeTargets{paths: []string{"~" + u.Username + "/x"}, cwd: home}
		if got := w.first(inHomeOf(u.HomeDir)); got == "" {
			t.Errorf("~%s/x is not read as in that user's home", u.Username)
		}
	}
}
