package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestWalkLinks: a walk follows every link as the kernel would, a link to
// nothing yet included, takes ".." after a link from its target, keeps
// what does not exist as written, and gives up on a loop.
func TestWalkLinks(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	work := filepath.Join(root, "work")
	for _, d := range []string{home, work} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"cfg":      home,
		"notes.md": "../home/config.yaml",
		"chain.md": "notes.md",
		"loop":     "loop2",
		"loop2":    "loop",
	} {
		if err := os.Symlink(target, filepath.Join(work, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		path    string
		end     string
		missing bool
		links   []string
	}{
		{work, work, false, nil},
		{work + "/cfg", home, false, []string{work + "/cfg"}},
		{work + "/cfg/../work", work, false, []string{work + "/cfg"}},
		{work + "/chain.md", home + "/config.yaml", true, []string{work + "/chain.md", work + "/notes.md"}},
		{work + "/gone/a/b", work + "/gone/a/b", true, nil},
	} {
		var links []string
		end, missing, err := WalkLinks(tt.path, func(link string, fi fs.FileInfo, dir string) error {
			if fi.Mode()&fs.ModeSymlink == 0 || filepath.Dir(link) != dir {
				t.Errorf("%s: onLink(%s, %v, %s)", tt.path, link, fi.Mode(), dir)
			}
			links = append(links, link)
			return nil
		})
		if err != nil || end != tt.end || missing != tt.missing || len(links) != len(tt.links) {
			t.Errorf("WalkLinks(%s) = %s, %v, %v through %q; want %s, %v through %q", tt.path, end, missing, err, links, tt.end, tt.missing, tt.links)
		}
	}
	if _, _, err := WalkLinks(work+"/loop", nil); !errors.Is(err, ErrTooManyLinks) {
		t.Errorf("a loop of links: %v", err)
	}
	stop := errors.New("stop")
	if _, _, err := WalkLinks(work+"/cfg/x", func(string, fs.FileInfo, string) error { return stop }); err != stop {
		t.Errorf("onLink's error: %v", err)
	}
}

// TestDanglingLink: the link to nothing that keeps a path from being
// reached is found, whether it is the path or a folder on the way; a path
// merely missing, or missing below a link that leads somewhere, has none.
func TestDanglingLink(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(root, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{
		"gone":  filepath.Join(root, "nothere"),
		"chain": "gone",
		"ok":    real,
	} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Skipf("cannot make links here: %v", err)
		}
	}
	for _, tt := range []struct{ path, link, target string }{
		{root + "/gone", root + "/gone", root + "/nothere"},
		{root + "/gone/a/b", root + "/gone", root + "/nothere"},
		{root + "/chain/a", root + "/chain", "gone"},
		{root + "/ok/a/b", "", ""},
		{root + "/missing/a", "", ""},
		{real, "", ""},
	} {
		if link, target := DanglingLink(tt.path); link != tt.link || target != tt.target {
			t.Errorf("DanglingLink(%s) = %q, %q; want %q, %q", tt.path, link, target, tt.link, tt.target)
		}
	}
}
