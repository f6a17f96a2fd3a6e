package config

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
)

const shopDigest = "8e2cee2b4e2ed765e05cfa582395375836d65e5330ffcde719170914fa05576e"

// TestDecodeTrusted: trusted_projects holds plain folders (trusting
// whatever their agents.yaml says) and pinned ones (trusting the content
// they held), and refuses anything else.
func TestDecodeTrusted(t *testing.T) {
	doc := "trusted_projects:\n  - \"/home/dev/plain\"\n  - folder: \"/home/dev/shop\"\n    sha256: \"" + shopDigest + "\"\n  - {folder: /home/dev/empty, sha256: \"\"}\n"
	g, err := DecodeGlobal([]byte(doc), "config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/home/dev/plain", "/home/dev/shop", "/home/dev/empty"}; !slices.Equal(g.TrustedProjects, want) {
		t.Errorf("folders %q, want %q", g.TrustedProjects, want)
	}
	if want := map[string]string{"/home/dev/shop": shopDigest, "/home/dev/empty": ""}; !maps.Equal(g.TrustedDigests, want) {
		t.Errorf("digests %q, want %q", g.TrustedDigests, want)
	}
	for _, tt := range []struct{ doc, path, msg string }{
		{"trusted_projects:\n  - folder: /x\n", "trusted_projects[0].sha256", "is required"},
		{"trusted_projects:\n  - sha256: \"\"\n", "trusted_projects[0].folder", "is required"},
		{"trusted_projects:\n  - {folder: /x, sha256: ABC}\n", "trusted_projects[0].sha256", "is not a sha256 digest"},
		{"trusted_projects:\n  - {folder: /x, sha256: \"" + strings.ToUpper(shopDigest) + "\"}\n", "trusted_projects[0].sha256", "is not a sha256 digest"},
		{"trusted_projects:\n  - {folder: x/y, sha256: \"\"}\n", "trusted_projects[0].folder", "absolute, clean folder path"},
		{"trusted_projects:\n  - {folder: /x, sha256: \"\", digest: \"\"}\n", "trusted_projects[0].digest", "unknown field"},
		{"trusted_projects:\n  - {folder: 7, sha256: \"\"}\n", "trusted_projects[0].folder", "must be a string"},
	} {
		_, err := DecodeGlobal([]byte(tt.doc), "config.yaml")
		var e *errs.Error
		if !asError(err, &e) || len(e.Problems) == 0 || e.Problems[0].Path != tt.path || !strings.Contains(e.Problems[0].Message, tt.msg) {
			t.Errorf("%q: %v, want %s: %s", tt.doc, err, tt.path, tt.msg)
		}
	}
}

// TestSetTrustedPins: trusting writes a pinned entry, in place of any
// entry the folder had; trusting the same content again changes nothing;
// untrusting removes every entry of the folder; comments stay.
func TestSetTrustedPins(t *testing.T) {
	data := []byte("# mine\ntrusted_projects:\n  - \"/a\" # by hand\n  - \"/b\"\n")
	out, changed, err := SetTrusted(data, "config.yaml", "/a", shopDigest, true)
	want := "# mine\ntrusted_projects:\n  - folder: \"/a\" # by hand\n    sha256: \"" + shopDigest + "\"\n  - \"/b\"\n"
	if err != nil || !changed || string(out) != want {
		t.Fatalf("pinning /a: %v %v\n%s\nwant\n%s", changed, err, out, want)
	}
	if again, changed, err := SetTrusted(out, "config.yaml", "/a", shopDigest, true); err != nil || changed || string(again) != string(out) {
		t.Errorf("the same content again: changed %v, %v", changed, err)
	}
	other := strings.Repeat("0", 64)
	out2, changed, err := SetTrusted(out, "config.yaml", "/a", other, true)
	if err != nil || !changed || !strings.Contains(string(out2), "sha256: \""+other+"\"") || strings.Contains(string(out2), shopDigest) {
		t.Errorf("new content: changed %v, %v\n%s", changed, err, out2)
	}
	out3, changed, err := SetTrusted(out2, "config.yaml", "/c", "", true)
	if err != nil || !changed || !strings.HasSuffix(string(out3), "  - folder: \"/c\"\n    sha256: \"\"\n") {
		t.Errorf("a folder with no agents.yaml: changed %v, %v\n%s", changed, err, out3)
	}
	gone, changed, err := SetTrusted(out3, "config.yaml", "/a", "", false)
	if err != nil || !changed || strings.Contains(string(gone), "/a") || !strings.HasPrefix(string(gone), "# mine\n") {
		t.Errorf("untrusting /a: changed %v, %v\n%s", changed, err, gone)
	}
	if _, changed, err := SetTrusted(gone, "config.yaml", "/a", "", false); err != nil || changed {
		t.Errorf("untrusting /a again: changed %v, %v", changed, err)
	}
}

// TestLoadProjectPinned: a hook uses a pinned project's agents.yaml only
// while it is the content that was trusted; a plain entry trusts any.
func TestLoadProjectPinned(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, ProjectFileName)
	content := []byte("automation_profile: ci\n")
	if err := os.WriteFile(file, content, 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(digests map[string]string) error {
		_, err := LoadProject(ProjectOptions{Dir: dir, OnlyTrusted: true, Trusted: []string{dir}, Digests: digests})
		return err
	}
	if err := load(map[string]string{dir: Digest(content)}); err != nil {
		t.Errorf("the trusted content: %v", err)
	}
	if err := load(nil); err != nil {
		t.Errorf("a plain entry: %v", err)
	}
	for name, pin := range map[string]string{"other content": shopDigest, "no file then": ""} {
		err := load(map[string]string{dir: pin})
		var e *errs.Error
		if !asError(err, &e) || e.Kind != errs.KindInvalid || e.Subject.About != errs.AboutUntrustedProject ||
			!strings.Contains(e.Msg, "has changed its agents.yaml since it was trusted") {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Outside a hook, trust is not asked for.
	if _, err := LoadProject(ProjectOptions{Dir: dir, Trusted: []string{dir}, Digests: map[string]string{dir: shopDigest}}); err != nil {
		t.Errorf("plan use: %v", err)
	}
}

// TestLoadProjectPinnedFileRemoved: in a hook, a folder trusted with an
// agents.yaml that is gone since refuses, from the folder itself or one
// below it, whether a file further up would apply or none; a folder
// trusted with none, or by a plain entry, does not.
func TestLoadProjectPinnedFileRemoved(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "shop")
	sub := filepath.Join(dir, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	load := func(from string, digests map[string]string) (*Project, error) {
		return LoadProject(ProjectOptions{Dir: from, OnlyTrusted: true, Trusted: []string{dir, top}, Digests: digests})
	}
	for _, from := range []string{dir, sub} {
		_, err := load(from, map[string]string{dir: shopDigest})
		var e *errs.Error
		if !asError(err, &e) || e.Kind != errs.KindInvalid || e.Subject.About != errs.AboutRemovedProjectFile || e.Subject.Name != dir ||
			!strings.Contains(e.Msg, "had an agents.yaml when it was trusted") {
			t.Errorf("from %s, the pinned file gone: %v", from, err)
		}
	}
	// A file further up, trusted, does not stand in for the one removed.
	if err := os.WriteFile(filepath.Join(top, ProjectFileName), []byte("automation_profile: full-auto\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := load(sub, map[string]string{dir: shopDigest}); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("a file above the removed one: %v", err)
	}
	for name, digests := range map[string]map[string]string{"trusted with none": {dir: ""}, "a plain entry": nil} {
		if p, err := load(sub, digests); err != nil || p.File != filepath.Join(top, ProjectFileName) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Outside a hook, trust is not asked for.
	if _, err := LoadProject(ProjectOptions{Dir: sub, Trusted: []string{dir}, Digests: map[string]string{dir: shopDigest}}); err != nil {
		t.Errorf("plan use: %v", err)
	}
}

// TestLoadProjectPinnedThroughALink: a working folder reached through a
// link into a trusted project uses its file while it is there, and
// refuses once it is gone, whichever way the folder is written.
func TestLoadProjectPinnedThroughALink(t *testing.T) {
	real, link := linkedFolder(t)
	content := []byte("automation_profile: ci\n")
	file := filepath.Join(real, ProjectFileName)
	if err := os.WriteFile(file, content, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(link, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := ProjectOptions{Dir: sub, OnlyTrusted: true, Trusted: []string{real}, Digests: map[string]string{real: Digest(content)}}
	if p, err := LoadProject(opts); err != nil || p.File != file {
		t.Fatalf("through the link, the file there: %+v, %v", p, err)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	_, err := LoadProject(opts)
	var e *errs.Error
	if !asError(err, &e) || e.Subject.About != errs.AboutRemovedProjectFile {
		t.Errorf("through the link, the file gone: %v", err)
	}
}

// TestSetTrustedMatchesTheFolder: entries are the folder's whether they
// name it through a link or an alias; trusting leaves one pinned entry,
// untrusting none; comments stay.
func TestSetTrustedMatchesTheFolder(t *testing.T) {
	real, link := linkedFolder(t)
	decode := func(out []byte) *Global {
		t.Helper()
		g, err := DecodeGlobal(out, "config.yaml")
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	// A plain entry through a link, then the folder trusted: one pin.
	data := []byte("trusted_projects:\n  - \"" + link + "\"\n  - \"/other\"\n")
	out, changed, err := SetTrusted(data, "config.yaml", real, shopDigest, true)
	if g := decode(out); err != nil || !changed || !slices.Equal(g.TrustedProjects, []string{real, "/other"}) || g.TrustedDigests[real] != shopDigest {
		t.Errorf("trusting through a link: %v %v\n%s", changed, err, out)
	}
	// Untrusting removes an entry that names it through a link, too.
	out, changed, err = SetTrusted(data, "config.yaml", real, "", false)
	if g := decode(out); err != nil || !changed || !slices.Equal(g.TrustedProjects, []string{"/other"}) {
		t.Errorf("untrusting through a link: %v %v\n%s", changed, err, out)
	}
	// An entry that is an alias of a string anchored elsewhere.
	data = []byte("hooks: {claude-code: {tools: {&p \"" + real + "\": {write: true, unsafe: true}}}}\ntrusted_projects: [*p, \"/other\"]\n")
	out, changed, err = SetTrusted(data, "config.yaml", real, "", false)
	if g := decode(out); err != nil || !changed || !slices.Equal(g.TrustedProjects, []string{"/other"}) {
		t.Errorf("untrusting an alias: %v %v\n%s", changed, err, out)
	}
	// A comment on a flow list stays.
	data = []byte("trusted_projects: [] # none yet\n")
	out, _, err = SetTrusted(data, "config.yaml", real, shopDigest, true)
	if err != nil || !strings.Contains(string(out), "# none yet") {
		t.Errorf("the list's comment: %v\n%s", err, out)
	}
}

// TestLoadProjectEveryPinHolds: a folder named by a plain entry (through
// a link) and by a pinned one is held to the pin.
func TestLoadProjectEveryPinHolds(t *testing.T) {
	real, link := linkedFolder(t)
	if err := os.WriteFile(filepath.Join(real, ProjectFileName), []byte("automation_profile: full-auto\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadProject(ProjectOptions{Dir: real, OnlyTrusted: true, Trusted: []string{link, real}, Digests: map[string]string{real: shopDigest}})
	var e *errs.Error
	if !asError(err, &e) || !strings.Contains(e.Msg, "has changed its agents.yaml since it was trusted") {
		t.Errorf("a plain entry before the pin: %v", err)
	}
	p, err := LoadProject(ProjectOptions{Dir: real, OnlyTrusted: true, Trusted: []string{link}})
	if err != nil || !p.Unpinned {
		t.Errorf("plain entries alone: %+v, %v", p, err)
	}
}

// linkedProject is linkedFolder with a project file choosing full-auto in
// the folder, for tests of who may lead the search to it; it skips where
// owners cannot be checked.
func linkedProject(t *testing.T) (real, link string, content []byte) {
	t.Helper()
	if !ownersKnown {
		t.Skip("no owners to check on this system")
	}
	real, link = linkedFolder(t)
	content = []byte("automation_profile: full-auto\n")
	if err := os.WriteFile(filepath.Join(real, ProjectFileName), content, 0o644); err != nil {
		t.Fatal(err)
	}
	return real, link, content
}

// linkInOpenFolder makes a link to target in a folder anyone may write,
// and returns it.
func linkInOpenFolder(t *testing.T, target string) string {
	t.Helper()
	open := t.TempDir()
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(open, "shop")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// linkedFolder makes a folder and a link to it, and returns both.
func linkedFolder(t *testing.T) (real, link string) {
	t.Helper()
	dir := t.TempDir()
	real, link = filepath.Join(dir, "p1"), filepath.Join(dir, "L")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("cannot make links here: %v", err)
	}
	return real, link
}

// TestLoadProjectTrustThroughAnotherUsersLink: an entry that leads to the
// project only through a link someone else could have made or changed
// (another user's link, or one in a folder others may write, where a
// trusted folder once was) does not make the project trusted: the link's
// maker would choose which of the user's folders the trust goes to.
func TestLoadProjectTrustThroughAnotherUsersLink(t *testing.T) {
	real, link, content := linkedProject(t)
	load := func(entry string, pinned bool) error {
		opts := ProjectOptions{Dir: real, OnlyTrusted: true, Trusted: []string{entry}}
		if pinned {
			opts.Digests = map[string]string{entry: Digest(content)}
		}
		_, err := LoadProject(opts)
		return err
	}
	// The user's own link, in a folder of the user's own, counts.
	for _, pinned := range []bool{false, true} {
		if err := load(link, pinned); err != nil {
			t.Fatalf("through the user's own link (pinned %v): %v", pinned, err)
		}
	}
	// A link in a folder anyone may write (as where a trusted folder in
	// /tmp was): anyone could have put it there.
	openLink := linkInOpenFolder(t, real)
	open := filepath.Dir(openLink)
	for _, pinned := range []bool{false, true} {
		err := load(openLink, pinned)
		var e *errs.Error
		if !asError(err, &e) || e.Subject.About != errs.AboutUntrustedProject || !strings.Contains(err.Error(), "the link "+openLink+" on its way stands in the folder "+open+", which can be written by anyone") {
			t.Errorf("through a link in a folder anyone can write (pinned %v): %v", pinned, err)
		}
	}
	// The same link reached through a ".." after a link of the user's
	// own: the ".." steps out of where that link leads (the open folder),
	// so the entry goes through the link anyone could have made, however
	// it reads as text.
	if err := os.Mkdir(filepath.Join(open, "inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	mine := t.TempDir()
	if err := os.Symlink(filepath.Join(open, "inner"), filepath.Join(mine, "l")); err != nil {
		t.Fatal(err)
	}
	dotted := filepath.Join(mine, "l") + "/../shop"
	if err := load(dotted, false); err == nil || !strings.Contains(err.Error(), "the link "+openLink+" on its way stands in the folder "+open) {
		t.Errorf("through %s: %v", dotted, err)
	}
	// Another user's link, where only root can make one.
	if err := os.Lchown(link, 65534, 65534); err != nil {
		t.Logf("another user's link not tried: %v", err)
		return
	}
	if err := load(link, false); err == nil || !strings.Contains(err.Error(), "the link "+link+" on its way is owned by") {
		t.Errorf("through another user's link: %v", err)
	}
}

// TestLoadProjectFromAWorkingFolderThroughAnotherUsersLink: a working
// folder reached through a link that someone else could have made or
// changed (another user's link, or one in a folder others may write) lets
// that someone choose which agents.yaml applies, as a file reached
// through such a link would: pointed at a trusted project whose file
// chooses full-auto, it would hand that profile to an agent working
// elsewhere. The search refuses it, trusted project or not; a folder the
// user names (--project) is the user's word.
func TestLoadProjectFromAWorkingFolderThroughAnotherUsersLink(t *testing.T) {
	real, link, content := linkedProject(t)
	trusted := ProjectOptions{OnlyTrusted: true, Trusted: []string{real}, Digests: map[string]string{real: Digest(content)}}
	load := func(dir string, opts ProjectOptions) error {
		opts.Dir = dir
		_, err := LoadProject(opts)
		return err
	}
	// The user's own link, in a folder of the user's own, counts.
	for _, opts := range []ProjectOptions{trusted, {}} {
		if err := load(link, opts); err != nil {
			t.Fatalf("through the user's own link (only trusted %v): %v", opts.OnlyTrusted, err)
		}
	}
	openLink := linkInOpenFolder(t, real)
	open := filepath.Dir(openLink)
	bare := t.TempDir() // no agents.yaml here or above
	bareLink := filepath.Join(open, "bare")
	if err := os.Symlink(bare, bareLink); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{openLink, bareLink} {
		for _, opts := range []ProjectOptions{trusted, {}} {
			err := load(dir, opts)
			if err == nil || errs.KindOf(err) != errs.KindInvalid || !strings.Contains(err.Error(), "the link "+dir+" on its way stands in the folder "+open+", which can be written by anyone") {
				t.Errorf("from %s (only trusted %v): %v", dir, opts.OnlyTrusted, err)
			}
		}
	}
	// Named with --project, the folder is the user's choice.
	if err := load(openLink, ProjectOptions{Explicit: true}); err != nil {
		t.Errorf("--project %s: %v", openLink, err)
	}
	// Another user's link, where only root can make one.
	if err := os.Lchown(link, 65534, 65534); err != nil {
		t.Logf("another user's link not tried: %v", err)
		return
	}
	if err := load(filepath.Join(link, "."), trusted); err == nil || !strings.Contains(err.Error(), "the link "+link+" on its way is owned by") {
		t.Errorf("through another user's link: %v", err)
	}
}
