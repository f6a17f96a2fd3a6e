//go:build unix

package main

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/resolve"
)

// The special-file suite puts what is not a regular file (a FIFO, a socket,
// a folder, a link to a device) where agents expects one of its own files,
// and hard links where it changes files in place, and runs the commands
// that read or write them. Every run has a deadline: opening a FIFO for
// reading waits for a writer, so a command that opens one the ordinary way
// never returns. Each must be refused at once with its documented exit
// code and a message naming the file and what it is, change nothing in the
// home (or, where a link leads out, nothing outside it), and leave a store
// that still lists cleanly.

// runDeadline is how long any run of these suites may take.
const runDeadline = 20 * time.Second

// timed is one finished run and how long it took.
type timed struct {
	result
	took time.Duration
}

// runTimed runs the binary in home, in the working folder dir ("" keeps
// the test's), with extra environment, and fails the test when it has not
// ended by the deadline or ends in a way no command documents.
func runTimed(t *testing.T, home, dir string, env []string, args ...string) timed {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, agentsBinary(t), args...)
	cmd.Env = append(append(os.Environ(), "AGENTS_HOME="+home, "CI=true", "NO_COLOR=1"), env...)
	cmd.Dir = dir
	start := time.Now()
	r, err := runCmd(cmd)
	took := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("%v: still running after %s (hung)", args, runDeadline)
	}
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	if !slices.Contains(documentedExits, r.code) {
		t.Errorf("%v: exit %d is not a documented exit code", args, r.code)
	}
	if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
		t.Errorf("%v: crashed:\n%s", args, r.stderr)
	}
	return timed{r, took}
}

// specialHome is a store holding a profile (acme/x), an action
// (local/secure-deploy) and a plan made from it, with their history and
// cache, and the id of the plan.
func specialHome(t *testing.T) (home, planID string) {
	t.Helper()
	home = filepath.Join(t.TempDir(), "home")
	fx, _ := profileFile(t, t.TempDir(), "x.yaml", "name: acme/x\nauto_apply: 0.9\n")
	for _, args := range [][]string{
		{"automation-profile", "add", "-c", fx},
		{"action", "add", "-c", "../../examples/actions/secure-deploy.yaml"},
		{"automation-profile", "list"},
	} {
		if r := runTimed(t, home, "", nil, args...); r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
	}
	r := runTimed(t, home, t.TempDir(), nil, "plan", "use", "local/secure-deploy", "-f", "json")
	var p struct{ ID string }
	if err := json.Unmarshal([]byte(r.stdout), &p); r.code != 0 || err != nil || p.ID == "" {
		t.Fatalf("plan use: exit %d (%v): %s", r.code, err, r.stderr)
	}
	return home, p.ID
}

// placeSpecial replaces path with a file of the given kind: "FIFO",
// "socket" or "directory".
func placeSpecial(t *testing.T, path, kind string) {
	t.Helper()
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	switch kind {
	case "FIFO":
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Fatal(err)
		}
	case "socket":
		// A socket's path must be short: bind it in a short folder, then
		// move it into place.
		dir, err := os.MkdirTemp("", "s")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		l, err := net.Listen("unix", filepath.Join(dir, "s"))
		if err != nil {
			t.Fatal(err)
		}
		l.(*net.UnixListener).SetUnlinkOnClose(false)
		t.Cleanup(func() { l.Close() })
		if err := os.Rename(filepath.Join(dir, "s"), path); err != nil {
			t.Fatal(err)
		}
	case "directory":
		if err := os.Mkdir(path, 0o755); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("unknown kind %q", kind)
	}
}

// specialRun is a command and how it must answer a special file.
type specialRun struct {
	args []string
	code int
	want string // in the JSON error; "" for a run that succeeds
}

func TestHostileSpecialFiles(t *testing.T) {
	src := t.TempDir()
	fx, _ := profileFile(t, src, "x.yaml", "name: acme/x\nauto_apply: 0.5\n")
	fy, _ := profileFile(t, src, "y.yaml", "name: acme/y\nauto_apply: 0.5\n")
	pack, report := ratified(t, nil)
	tests := []struct {
		name  string
		rel   string // where the special file goes, relative to the home
		kinds []string
		setup func(t *testing.T, home string)
		runs  func(planID string) []specialRun
		// changes says the command may change the home: it replaces what
		// it found (the derived cache).
		changes bool
	}{
		{name: "config.yaml", rel: "config.yaml", kinds: []string{"FIFO", "socket", "directory"},
			runs: func(string) []specialRun {
				return []specialRun{
					{[]string{"version"}, 3, "config.yaml: is KIND"},
					{[]string{"automation-profile", "list"}, 3, "config.yaml: is KIND"},
					{[]string{"automation-profile", "add", "-c", fy}, 3, "config.yaml: is KIND"},
					{[]string{"safety-pack", "show"}, 3, "config.yaml: is KIND"},
				}
			}},
		{name: "profile file", rel: "profiles/acme/x.yaml", kinds: []string{"FIFO", "socket", "directory"},
			runs: func(string) []specialRun {
				return []specialRun{
					{[]string{"automation-profile", "show", "acme/x"}, 3, "x.yaml: is KIND"},
					{[]string{"automation-profile", "check-guard", "acme/x", "--tool", "t"}, 3, "x.yaml: is KIND"},
					{[]string{"automation-profile", "list"}, 0, ""},
					{[]string{"automation-profile", "add", "--update", "-c", fx}, 1, "x.yaml: it is KIND"},
					{[]string{"automation-profile", "remove", "acme/x", "--yes"}, 1, "x.yaml: it is KIND"},
				}
			}},
		{name: "action file", rel: "actions/local/secure-deploy.yaml", kinds: []string{"FIFO"},
			runs: func(string) []specialRun {
				return []specialRun{
					{[]string{"action", "show", "local/secure-deploy"}, 3, "secure-deploy.yaml: is a FIFO"},
					{[]string{"plan", "use", "local/secure-deploy"}, 3, "secure-deploy.yaml: is a FIFO"},
					{[]string{"action", "list"}, 0, ""},
				}
			}},
		{name: "plan file", rel: "plans/PLAN.yaml", kinds: []string{"FIFO"},
			runs: func(id string) []specialRun {
				return []specialRun{
					{[]string{"plan", "show", id}, 3, id + ".yaml: is a FIFO"},
					{[]string{"automation-profile", "check-guard", "--plan", id, "--tool", "t"}, 3, id + ".yaml: is a FIFO"},
					{[]string{"plan", "list"}, 0, ""},
				}
			}},
		{name: "lock", rel: ".lock", kinds: []string{"FIFO", "socket", "directory"},
			runs: func(string) []specialRun {
				return []specialRun{
					{[]string{"--lock-timeout", "1m", "automation-profile", "add", "--update", "-c", fx}, 1, ".lock is KIND"},
					{[]string{"--lock-timeout", "1m", "automation-profile", "remove", "acme/x", "--yes"}, 1, ".lock is KIND"},
				}
			}},
		{name: "listing cache", rel: ".cache/profiles.idx", kinds: []string{"FIFO", "socket"}, changes: true,
			runs: func(string) []specialRun {
				return []specialRun{{[]string{"automation-profile", "list"}, 0, ""}}
			}},
		{name: "history log", rel: "history/profiles/acme/x.log", kinds: []string{"FIFO", "directory"},
			runs: func(string) []specialRun {
				return []specialRun{
					{[]string{"automation-profile", "add", "--update", "-c", fx}, 1, "x.log: it is KIND"},
					{[]string{"automation-profile", "remove", "acme/x", "--yes"}, 1, "x.log: it is KIND"},
					{[]string{"automation-profile", "history", "acme/x"}, 3, "x.log: is KIND"},
				}
			}},
		{name: "configured pack", rel: "packs/safety/" + packID + ".json", kinds: []string{"FIFO"},
			setup: func(t *testing.T, home string) { configurePack(t, home, pack, report) },
			runs: func(id string) []specialRun {
				return []specialRun{
					{[]string{"safety-pack", "show"}, 6, packID + ".json is a FIFO"},
					{[]string{"safety-pack", "check"}, 6, packID + ".json is a FIFO"},
					{[]string{"plan", "show", id}, 6, packID + ".json is a FIFO"},
				}
			}},
		{name: "mastery report", rel: "packs/safety/" + packID + ".mastery_report.json", kinds: []string{"FIFO"},
			setup: func(t *testing.T, home string) { configurePack(t, home, pack, report) },
			runs: func(string) []specialRun {
				return []specialRun{
					{[]string{"safety-pack", "show"}, 6, "mastery_report.json is a FIFO"},
					{[]string{"plan", "use", "local/secure-deploy"}, 6, "mastery_report.json is a FIFO"},
				}
			}},
	}
	for _, tt := range tests {
		for _, kind := range tt.kinds {
			t.Run(tt.name+"/"+kind, func(t *testing.T) {
				home, planID := specialHome(t)
				if tt.setup != nil {
					tt.setup(t, home)
				}
				rel := strings.ReplaceAll(tt.rel, "PLAN", planID)
				placeSpecial(t, filepath.Join(home, rel), kind)
				for _, run := range tt.runs(planID) {
					before := storeHash(t, home)
					r := runTimed(t, home, "", nil, append(run.args, "-f", "json")...)
					t.Logf("%s %s: exit %d in %s: agents %s", tt.name, kind, r.code, r.took.Round(time.Millisecond), strings.Join(run.args, " "))
					if r.code != run.code {
						t.Errorf("%v: exit %d, want %d:\n%s", run.args, r.code, run.code, r.stderr)
						continue
					}
					if run.want != "" {
						je := errorOf(t, r.stderr)
						want := strings.ReplaceAll(run.want, "KIND", article(kind))
						if !strings.Contains(je.text(), want) || !strings.Contains(je.text(), filepath.Base(rel)) {
							t.Errorf("%v: the error does not say %q:\n%s", run.args, want, je.text())
						}
					}
					if !tt.changes {
						if after := storeHash(t, home); after != before {
							t.Errorf("%v: the home changed", run.args)
						}
					}
				}
				if tt.changes {
					if fi, err := os.Lstat(filepath.Join(home, rel)); err != nil || !fi.Mode().IsRegular() {
						t.Errorf("the %s was not replaced by a regular file: %v", tt.name, err)
					}
				}
			})
		}
	}
}

// storeHash is treeHash of a home without its derived cache, which a
// listing rewrites when it finds a file it cannot read.
func storeHash(t *testing.T, home string) string {
	t.Helper()
	parked := filepath.Join(filepath.Dir(home), "cache-parked")
	cache := filepath.Join(home, ".cache")
	if err := os.Rename(cache, parked); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	defer os.Rename(parked, cache)
	return treeHash(t, home)
}

// article returns the words the refusal uses for a kind of file.
func article(kind string) string {
	switch kind {
	case "directory":
		return "a directory"
	case "socket":
		return "a socket"
	}
	return "a " + kind
}

// TestHostileSpecialProjectFile puts a FIFO (and a socket) where a
// project's agents.yaml would be, in a folder above the working one: plan
// use and resolve, which look for it, must refuse it at once.
func TestHostileSpecialProjectFile(t *testing.T) {
	for _, kind := range []string{"FIFO", "socket"} {
		t.Run(kind, func(t *testing.T) {
			home, _ := specialHome(t)
			project := t.TempDir()
			work := filepath.Join(project, "sub", "dir")
			if err := os.MkdirAll(work, 0o755); err != nil {
				t.Fatal(err)
			}
			placeSpecial(t, filepath.Join(project, "agents.yaml"), kind)
			before := treeHash(t, home)
			for _, args := range [][]string{
				{"plan", "use", "local/secure-deploy"},
				{"automation-profile", "resolve"},
			} {
				r := runTimed(t, home, work, nil, append(args, "-f", "json")...)
				t.Logf("agents.yaml %s: exit %d in %s: agents %s", kind, r.code, r.took.Round(time.Millisecond), strings.Join(args, " "))
				if r.code != 3 {
					t.Errorf("%v: exit %d, want 3:\n%s", args, r.code, r.stderr)
					continue
				}
				if je := errorOf(t, r.stderr); !strings.Contains(je.text(), "agents.yaml: is "+article(kind)) {
					t.Errorf("%v: the error does not name agents.yaml as %s:\n%s", args, article(kind), je.text())
				}
			}
			if treeHash(t, home) != before {
				t.Error("the home changed")
			}
		})
	}
	// config.yaml as a link to a device: read as the link leads, and
	// refused for what it leads to.
	t.Run("config.yaml linked to a device", func(t *testing.T) {
		home, _ := specialHome(t)
		if err := os.Symlink("/dev/null", filepath.Join(home, "config.yaml")); err != nil {
			t.Fatal(err)
		}
		r := runTimed(t, home, "", nil, "automation-profile", "list", "-f", "json")
		if r.code != 3 || !strings.Contains(errorOf(t, r.stderr).text(), "is a character device") {
			t.Errorf("exit %d:\n%s", r.code, r.stderr)
		}
	})
}

// hashFile returns the sha256 of a file's content and its link count.
func hashFile(t *testing.T, path string) (string, uint64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256Hex(data), uint64(fi.Sys().(*syscall.Stat_t).Nlink)
}

// TestHostileHardLinks links files of the store to files outside it. A
// file the store replaces by rename (profiles, the cache) or only locks
// (.lock) keeps the outside file as it was; the journal is never written
// in place; a history log, which is appended to, is refused while it has
// another link. No byte outside the home changes in any case.
func TestHostileHardLinks(t *testing.T) {
	src := t.TempDir()
	fx, _ := profileFile(t, src, "x.yaml", "name: acme/x\nauto_apply: 0.25\n")
	// Another version of acme/x: an update with the stored content writes
	// nothing, and must write here.
	fx2, _ := profileFile(t, src, "x2.yaml", "name: acme/x\nauto_apply: 0.75\n")
	fy, _ := profileFile(t, src, "y.yaml", "name: acme/y\nauto_apply: 0.25\n")
	tests := []struct {
		name string
		rel  string
		runs []specialRun
	}{
		{name: "journal", rel: ".pending", runs: []specialRun{
			{[]string{"automation-profile", "add", "-c", fy}, 0, ""},
			{[]string{"automation-profile", "add", "--update", "-c", fx2}, 0, ""},
		}},
		{name: "history log", rel: "history/profiles/acme/x.log", runs: []specialRun{
			{[]string{"automation-profile", "add", "--update", "-c", fx2}, 1, "has 2 hard links"},
			{[]string{"automation-profile", "remove", "acme/x", "--yes"}, 1, "has 2 hard links"},
			{[]string{"automation-profile", "history", "acme/x"}, 0, ""},
		}},
		{name: "profile file", rel: "profiles/acme/x.yaml", runs: []specialRun{
			{[]string{"automation-profile", "add", "--update", "-c", fx2}, 0, ""},
			{[]string{"automation-profile", "remove", "acme/x", "--yes"}, 0, ""},
		}},
		{name: "lock", rel: ".lock", runs: []specialRun{
			{[]string{"automation-profile", "add", "--update", "-c", fx2}, 0, ""},
		}},
		{name: "listing cache", rel: ".cache/profiles.idx", runs: []specialRun{
			{[]string{"automation-profile", "add", "-c", fy}, 0, ""},
			{[]string{"automation-profile", "list"}, 0, ""},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := hostileHome(t)
			if r := runTimed(t, home, "", nil, "automation-profile", "add", "-c", fx); r.code != 0 {
				t.Fatalf("add: exit %d: %s", r.code, r.stderr)
			}
			if r := runTimed(t, home, "", nil, "automation-profile", "list"); r.code != 0 {
				t.Fatalf("list: exit %d: %s", r.code, r.stderr)
			}
			// The file outside holds what the store's file held (or a line
			// of its own), so only a byte-for-byte check can tell a write.
			link := filepath.Join(home, tt.rel)
			content := "outside, and must stay so\n"
			if data, err := os.ReadFile(link); err == nil && len(data) > 0 {
				content = string(data)
			}
			outside := filepath.Join(t.TempDir(), "outside")
			writeFile(t, outside, content)
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(link); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			if err := os.Link(outside, link); err != nil {
				t.Fatal(err)
			}
			sum, _ := hashFile(t, outside)
			for _, run := range tt.runs {
				homeBefore := treeHash(t, home)
				r := runTimed(t, home, "", nil, append(run.args, "-f", "json")...)
				t.Logf("hard-linked %s: exit %d in %s: agents %s", tt.name, r.code, r.took.Round(time.Millisecond), strings.Join(run.args, " "))
				if r.code != run.code {
					t.Errorf("%v: exit %d, want %d:\n%s", run.args, r.code, run.code, r.stderr)
				}
				if run.want != "" {
					if je := errorOf(t, r.stderr); !strings.Contains(je.text(), run.want) || !strings.Contains(je.text(), link) {
						t.Errorf("%v: the error does not say %q about %s:\n%s", run.args, run.want, link, je.text())
					}
					if treeHash(t, home) != homeBefore {
						t.Errorf("%v: a refusal changed the home", run.args)
					}
				}
				if got, _ := hashFile(t, outside); got != sum {
					t.Fatalf("%v: the file outside the home changed", run.args)
				}
			}
			listCleanly(t, home)
			if a := checkStoreFiles(t, home); a.tornLogs != 0 || len(a.temps) != 0 {
				t.Errorf("store left with %d torn logs and temporary files %v", a.tornLogs, a.temps)
			}
		})
	}
}

// TestHostilePackFolders links packs/ or packs/safety to a folder outside
// the home that holds a ratified pack: the pack in force is read only from
// the home's own folder, so the link is refused (exit 6) and nothing
// outside changes.
func TestHostilePackFolders(t *testing.T) {
	pack, report := ratified(t, nil)
	for _, rel := range []string{"packs", "packs/safety"} {
		t.Run(rel, func(t *testing.T) {
			home := hostileHome(t)
			outside := t.TempDir()
			dir := outside
			if rel == "packs" {
				dir = filepath.Join(outside, "safety")
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, packID+".json"), string(pack))
			writeFile(t, filepath.Join(dir, packID+".mastery_report.json"), string(report))
			if err := os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(home, rel)); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(home, "config.yaml"), "safety_pack: "+packID+"\n")
			before := treeHash(t, outside)
			for _, args := range [][]string{{"safety-pack", "show"}, {"safety-pack", "verify"}, {"safety-pack", "check"}} {
				r := runTimed(t, home, "", nil, append(args, "-f", "json")...)
				if r.code != 6 {
					t.Errorf("%v: exit %d, want 6:\n%s", args, r.code, r.stderr)
					continue
				}
				if je := errorOf(t, r.stderr); !strings.Contains(je.text(), filepath.Join(home, rel)+" is a symbolic link") {
					t.Errorf("%v: the error does not name the link:\n%s", args, je.text())
				}
			}
			if treeHash(t, outside) != before {
				t.Error("files outside the home changed")
			}
		})
	}
}

// TestHostileShippedPackID configures the shipped pack's id with a file of
// that name in the home, ratified with other descriptions: the shipped id
// always means the embedded pack, and the file is never read (not even a
// FIFO there makes the command wait).
func TestHostileShippedPackID(t *testing.T) {
	const shipped = "core_safety_axes_v1"
	data, err := os.ReadFile("../../packs/safety/" + shipped + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	descs := m["boundary_descriptions"].(map[string]any)
	for k := range descs {
		descs[k] = "anything goes"
	}
	data, _ = json.MarshalIndent(m, "", "  ")
	for _, kind := range []string{"ratified impostor", "FIFO"} {
		t.Run(kind, func(t *testing.T) {
			home := hostileHome(t)
			dir := filepath.Join(home, "packs", "safety")
			file := filepath.Join(dir, shipped+".json")
			if kind == "FIFO" {
				placeSpecial(t, file, "FIFO")
			} else {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, file, string(data))
				if r := runTimed(t, t.TempDir(), "", nil, "safety-pack", "ratify", file); r.code != 0 {
					t.Fatalf("ratify: exit %d: %s", r.code, r.stderr)
				}
			}
			writeFile(t, filepath.Join(home, "config.yaml"), "safety_pack: "+shipped+"\n")
			r := runTimed(t, home, "", nil, "safety-pack", "show", "-f", "json")
			if r.code != 0 {
				t.Fatalf("show: exit %d: %s", r.code, r.stderr)
			}
			if strings.Contains(r.stdout, "anything goes") || strings.Contains(r.stdout, file) || !strings.Contains(r.stdout, `"embedded"`) {
				t.Errorf("the pack in force is not the embedded one:\n%s", r.stdout)
			}
		})
	}
}

// storedPlan returns the file of plan id in home, and the plan it holds.
func storedPlan(t *testing.T, home, id string) (string, *plan.Plan) {
	t.Helper()
	path := filepath.Join(home, "plans", id+".yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Decode(data, path)
	if err != nil {
		t.Fatal(err)
	}
	return path, p
}

// TestHostilePlanRecord edits a stored plan by hand: looser safety fields
// with the sha256 recomputed so that the record agrees with itself. The
// store never wrote that snapshot, so decisions under the plan are refused
// (exit 3) and plan show reports it.
func TestHostilePlanRecord(t *testing.T) {
	home, id := specialHome(t)
	path, p := storedPlan(t, home, id)
	if !p.SafetyProfile.RequireSandbox {
		t.Fatalf("the plan has no sandbox to drop: %+v", p.SafetyProfile)
	}
	p.SafetyProfile.RequireSandbox = false
	p.SafetyProfile.AllowUnsafeTools = true
	content, err := resolve.SafetyContent(p.SafetyProfile.SafetyProfile)
	if err != nil {
		t.Fatal(err)
	}
	p.SafetyProfile.SHA256 = sha256Hex(content)
	edited, _, err := plan.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(edited))

	for _, args := range [][]string{
		{"automation-profile", "check-guard", "--plan", id, "--tool", "rm", "--unsafe", "--no-sandbox", "--category", "deploy"},
		{"automation-profile", "check-gate", "--plan", id, "auto_apply", "--confidence", "0.99"},
	} {
		r := runTimed(t, home, "", nil, append(args, "-f", "json")...)
		if r.code != 3 {
			t.Errorf("%v: exit %d, want 3:\n%s%s", args, r.code, r.stdout, r.stderr)
			continue
		}
		// Held to its history first, the record is reported as edited.
		if je := errorOf(t, r.stderr); !strings.Contains(je.text(), "it has been edited") {
			t.Errorf("%v: %s", args, je.text())
		}
	}
	r := runTimed(t, home, "", nil, "plan", "show", id, "-f", "json")
	var doc struct {
		Record struct {
			Verified bool    `json:"verified"`
			Problem  *string `json:"problem"`
		} `json:"record"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != 0 {
		t.Fatalf("plan show: exit %d (%v): %s", r.code, err, r.stderr)
	}
	if doc.Record.Verified || doc.Record.Problem == nil || !strings.Contains(r.stderr, "does not verify") {
		t.Errorf("plan show does not report the edited record: %+v\nstderr: %s", doc.Record, r.stderr)
	}
	// Made again, the plan verifies.
	if r := runTimed(t, home, "", nil, "plan", "set-automation-profile", id, "cautious"); r.code != 0 {
		t.Fatalf("set-automation-profile: exit %d: %s", r.code, r.stderr)
	}
	if r := runTimed(t, home, "", nil, "plan", "show", id, "-f", "json"); !strings.Contains(r.stdout, `"verified": true`) || r.stderr != "" {
		t.Errorf("the plan made again does not verify:\n%s%s", r.stdout, r.stderr)
	}
}

// TestHostileCacheAgreesWithShow loosens a cached profile's file behind the
// store's back, in ways that keep its size, inode and times, and checks
// that list prints what show prints for it: the listing cache answers only
// for the very content it was decoded from.
func TestHostileCacheAgreesWithShow(t *testing.T) {
	edits := map[string][2]string{
		"threshold": {"auto_apply: 0.9", "auto_apply: 0.1"},
		"sandbox":   {"require_sandbox: true", "require_sandbox: fals"},
		"unsafe":    {"allow_unsafe_tools: false", "allow_unsafe_tools: true "},
	}
	for what, edit := range edits {
		t.Run(what, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			f, _ := profileFile(t, t.TempDir(), "x.yaml", "name: acme/x\nauto_apply: 0.9\n")
			if r := runTimed(t, home, "", nil, "automation-profile", "add", "-c", f); r.code != 0 {
				t.Fatalf("add: %s", r.stderr)
			}
			listed := func() map[string]any {
				t.Helper()
				custom := listCleanly(t, home)
				return custom["acme/x"]
			}
			if listed() == nil {
				t.Fatal("acme/x not listed")
			}
			path := storedPath(home, "acme/x")
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(path)
			loosened := strings.Replace(string(data), edit[0], edit[1], 1)
			if len(loosened) != len(data) || loosened == string(data) {
				t.Fatalf("the edit %q does not keep the size of:\n%s", edit, data)
			}
			// In place: the same inode, the same size, the old times.
			fh, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := fh.WriteAt([]byte(loosened), 0); err != nil {
				t.Fatal(err)
			}
			fh.Close()
			if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
			r := runTimed(t, home, "", nil, "automation-profile", "show", "acme/x", "-f", "json")
			var shown map[string]any
			if err := json.Unmarshal([]byte(r.stdout), &shown); err != nil {
				// A loosening that no longer parses is refused by show and
				// reported by list alike.
				lr := runTimed(t, home, "", nil, "automation-profile", "list", "-f", "json")
				if r.code != 3 || !strings.Contains(lr.stderr, "skipped") || strings.Contains(lr.stdout, `"acme/x"`) {
					t.Fatalf("show exit %d; list still shows the file:\n%s\n%s", r.code, lr.stdout, lr.stderr)
				}
				return
			}
			got, _ := json.Marshal(listed())
			want, _ := json.Marshal(shown)
			if string(got) != string(want) {
				t.Errorf("list and show disagree about acme/x:\nlist %s\nshow %s", got, want)
			}
		})
	}
}

// TestHostilePlanPlantedSafety edits a stored plan's standalone safety
// profile by hand and plants the looser snapshot as an object, so that the
// record agrees with itself and cites an object the store holds. The plan
// is not the record the store wrote (its history says otherwise), so every
// decision under it is refused, a hook denies, and the pack's
// no_fabricated_source boundary is violated.
func TestHostilePlanPlantedSafety(t *testing.T) {
	home, id := specialHome(t)
	path, p := storedPlan(t, home, id)
	if p.SafetyProfile.Source != plan.SourceStandalone || p.SafetyProfile.Provenance != plan.LevelAction {
		t.Fatalf("the plan's safety profile is not the action's standalone one: %+v", p.SafetyProfile)
	}
	// The record and the trace's action level alike, so that the record
	// agrees with itself and with its trace.
	p.SafetyProfile.RequireSandbox = false
	p.SafetyProfile.AllowUnsafeTools = true
	for i := range p.Levels {
		if p.Levels[i].Level == plan.LevelAction && p.Levels[i].SafetyProfile != nil {
			loose := p.SafetyProfile.SafetyProfile
			p.Levels[i].SafetyProfile = &loose
		}
	}
	content, err := resolve.SafetyContent(p.SafetyProfile.SafetyProfile)
	if err != nil {
		t.Fatal(err)
	}
	p.SafetyProfile.SHA256 = sha256Hex(content)
	writeFile(t, filepath.Join(home, "objects", p.SafetyProfile.SHA256), string(content))
	edited, _, err := plan.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(edited))

	r := runTimed(t, home, "", nil, "automation-profile", "check-gate", "--plan", id, "auto_apply", "--confidence", "0.99", "-f", "json")
	if r.code != 3 || !strings.Contains(errorOf(t, r.stderr).text(), "has been edited") {
		t.Errorf("check-gate under the edited plan: exit %d, want 3:\n%s%s", r.code, r.stdout, r.stderr)
	}
	hook := exec.Command(agentsBinary(t), "automation-profile", "check-guard", "--plan", id, "--hook", "claude-code")
	hook.Env = append(os.Environ(), "AGENTS_HOME="+home)
	hook.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/tmp/x"}}`)
	out, err := hook.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), `"permissionDecision":"deny"`) {
		t.Errorf("hook under the edited plan: %v, want exit 2 and a deny:\n%s", err, out)
	}
	r = runTimed(t, home, "", nil, "safety-pack", "check", "--plan", id, "-f", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"no_fabricated_source"`) {
		t.Fatalf("safety-pack check: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	var check struct {
		Results []struct {
			Boundary string `json:"boundary_id"`
			Upheld   bool   `json:"upheld"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &check); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range check.Results {
		if v.Boundary == "no_fabricated_source" {
			found = true
			if v.Upheld {
				t.Error("no_fabricated_source is upheld for the edited plan")
			}
		}
	}
	if !found {
		t.Errorf("no verdict on no_fabricated_source in:\n%s", r.stdout)
	}
	// A copy carries the plan's history as it is: the edited plan is no
	// more the store's in the copy than in the home it came from, and a
	// plan with no history at all stays one.
	if err := os.Remove(filepath.Join(home, "history", "plans", id+".log")); err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(t.TempDir(), "copy")
	if r := runTimed(t, home, "", nil, "store", "copy", "--from", home, "--to", copied); r.code != 0 {
		t.Fatalf("store copy: exit %d: %s", r.code, r.stderr)
	}
	r = runTimed(t, copied, "", nil, "automation-profile", "check-gate", "--plan", id, "auto_apply", "--confidence", "0.99", "-f", "json")
	if r.code != 3 || !strings.Contains(errorOf(t, r.stderr).text(), "has no history") {
		t.Errorf("check-gate under the copied plan: exit %d, want 3:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestPlanRecordedAfresh: a plan the store cannot vouch for (its history
// gone) is recorded afresh by set-automation-profile, even to the profile
// it already names, after which it verifies; one that sets its own safety
// profile cannot be mended so, since that safety profile would come from
// the untrusted record, and the refusal says to make the plan again.
func TestPlanRecordedAfresh(t *testing.T) {
	home, _ := specialHome(t)
	newPlan := func(args ...string) string {
		t.Helper()
		r := runTimed(t, home, t.TempDir(), nil, append([]string{"plan", "use", "local/secure-deploy", "-f", "json"}, args...)...)
		var p struct{ ID string }
		if err := json.Unmarshal([]byte(r.stdout), &p); r.code != 0 || err != nil {
			t.Fatalf("plan use %v: exit %d (%v): %s", args, r.code, err, r.stderr)
		}
		if err := os.Remove(filepath.Join(home, "history", "plans", p.ID+".log")); err != nil {
			t.Fatal(err)
		}
		return p.ID
	}
	gate := func(id string) timed {
		return runTimed(t, home, "", nil, "automation-profile", "check-gate", "--plan", id, "auto_apply", "--confidence", "0.99", "-f", "json")
	}

	id := newPlan("--automation-profile", "review")
	if r := gate(id); r.code != 3 || !strings.Contains(r.stderr, "plan record "+id) {
		t.Fatalf("a plan with no history: exit %d\n%s", r.code, r.stderr)
	}
	// Its action, project and own choices come from a record nobody
	// vouches for: set-automation-profile will not take them, and plan
	// record asks for --yes.
	if r := runTimed(t, home, "", nil, "plan", "set-automation-profile", id, "review"); r.code != 3 || !strings.Contains(r.stderr, "plan record "+id+" --yes") {
		t.Fatalf("set-automation-profile of a plan with no history: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runTimed(t, home, "", nil, "plan", "record", id, "--yes"); r.code != 0 || strings.Contains(r.stdout+r.stderr, "unchanged") {
		t.Fatalf("plan record --yes of a plan with no history: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := gate(id); r.code == 3 {
		t.Errorf("the plan recorded afresh is still refused:\n%s", r.stderr)
	}
	// An edited record is put back as the store wrote it, no --yes
	// needed: its action, edited to another, returns.
	path := filepath.Join(home, "plans", id+".yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, strings.Replace(string(data), "action: local/secure-deploy", "action: local/other", 1))
	if r := gate(id); r.code != 3 || !strings.Contains(r.stderr, "has been edited") {
		t.Fatalf("an edited plan: exit %d\n%s", r.code, r.stderr)
	}
	r := runTimed(t, home, "", nil, "plan", "record", id, "-f", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"action": "local/secure-deploy"`) {
		t.Fatalf("plan record of an edited plan: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := gate(id); r.code == 3 {
		t.Errorf("the plan put back is still refused:\n%s", r.stderr)
	}
	// A history line appended by hand for the edited content, with no
	// object behind it, vouches for nothing: the decision refuses, and
	// plan record puts back the last version the store keeps.
	data, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited, err := plan.Decode([]byte(strings.Replace(string(data), "action: local/secure-deploy", "action: local/other", 1)), path)
	if err != nil {
		t.Fatal(err)
	}
	content, _, err := plan.Encode(edited)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(content))
	logPath := filepath.Join(home, "history", "plans", id+".log")
	logData, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, logPath, string(logData)+`{"digest":"`+sha256Hex(content)+`","time":"2026-12-02T10:00:00Z","event":"put"}`+"\n")
	if r := gate(id); r.code != 3 || !strings.Contains(r.stderr, "is not kept as an object") {
		t.Errorf("a plan vouched for by a forged history line: exit %d\n%s", r.code, r.stderr)
	}
	// Nor does an earlier version stand in for it (the person may have
	// replaced that one with a stricter): mending needs their word.
	if r := runTimed(t, home, "", nil, "plan", "record", id); r.code != 2 {
		t.Errorf("plan record after a forged history line: exit %d, want 2\n%s%s", r.code, r.stdout, r.stderr)
	}

	safety := filepath.Join(t.TempDir(), "safety.yaml")
	writeFile(t, safety, "require_sandbox: true\nrequire_checkpoints: true\n")
	id = newPlan("--automation-profile", "review", "--safety-profile", safety)
	r = gate(id)
	if r.code != 3 || !strings.Contains(r.stderr, "plan record "+id+" --yes") || !strings.Contains(r.stderr, "plan use local/secure-deploy") {
		t.Fatalf("a plan with its own safety profile and no history: exit %d\n%s", r.code, r.stderr)
	}
	r = runTimed(t, home, "", nil, "plan", "set-automation-profile", id, "cautious")
	if r.code != 3 || !strings.Contains(r.stderr, "cannot be resolved again from its record") || !strings.Contains(r.stderr, "plan use local/secure-deploy") {
		t.Errorf("set-automation-profile of such a plan: exit %d\n%s", r.code, r.stderr)
	}
	// plan record keeps the id and the plan's own choices: without
	// --yes it will not take them from a record it cannot vouch for.
	r = runTimed(t, home, "", nil, "plan", "record", id)
	if r.code != 2 || !strings.Contains(r.stderr, "plan record "+id+" --yes") {
		t.Errorf("plan record without --yes: exit %d\n%s", r.code, r.stderr)
	}
	if r := gate(id); r.code != 3 {
		t.Errorf("a plan record refused still changed the plan: exit %d\n%s", r.code, r.stderr)
	}
	r = runTimed(t, home, "", nil, "plan", "record", id, "--yes", "-f", "json")
	if r.code != 0 || !strings.Contains(r.stdout, `"automation_profile": "review"`) || !strings.Contains(r.stdout, `"verified": true`) {
		t.Fatalf("plan record --yes: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := gate(id); r.code == 3 {
		t.Errorf("the plan recorded with --yes is still refused:\n%s", r.stderr)
	}
	// Once the store vouches for it, recording it again changes nothing.
	if r := runTimed(t, home, "", nil, "plan", "record", id); r.code != 0 || !strings.Contains(r.stdout+r.stderr, "unchanged") {
		t.Errorf("plan record of a plan as recorded: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
