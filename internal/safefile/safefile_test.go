//go:build unix

package safefile

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// within runs fn and fails the test if it has not returned after a few
// seconds: an open that waits on a FIFO never returns.
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still waiting after 5s", what)
	}
}

// specials makes, in dir, one file of each kind that is not a regular file
// and returns their paths by what an error must call them.
func specials(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	out["FIFO"] = fifo
	folder := filepath.Join(dir, "folder")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	out["directory"] = folder
	// A socket path must be short.
	sockDir, err := os.MkdirTemp("", "sf")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	sock := filepath.Join(sockDir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	out["socket"] = sock
	if fi, err := os.Stat("/dev/null"); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		out["character device"] = "/dev/null"
	}
	return out
}

func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	for what, path := range specials(t, dir) {
		t.Run(what, func(t *testing.T) {
			within(t, "Open "+what, func() {
				f, _, err := Open(path)
				if err == nil {
					f.Close()
					t.Fatalf("Open(%s) accepted a %s", path, what)
				}
				var e *Error
				if !errors.As(err, &e) || !errors.Is(err, ErrNotRegular) {
					t.Fatalf("Open(%s) = %v, want a not-regular refusal", path, err)
				}
				if !strings.Contains(err.Error(), path) || !strings.Contains(e.Detail, what) {
					t.Errorf("the refusal does not name the file and say it is a %s: %v", what, err)
				}
			})
			within(t, "ReadFile "+what, func() {
				if _, err := ReadFile(path, 1<<20); !errors.Is(err, ErrNotRegular) {
					t.Errorf("ReadFile(%s) = %v, want a not-regular refusal", path, err)
				}
			})
		})
	}
	// A link is followed by Open, so a link to a FIFO is a FIFO.
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "fifo"), link); err != nil {
		t.Fatal(err)
	}
	within(t, "Open of a link to a FIFO", func() {
		if _, _, err := Open(link); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("Open(link to FIFO) = %v", err)
		}
	})
}

func TestOpenInRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	sp := specials(t, dir)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, what := range []string{"FIFO", "directory"} {
		name := filepath.Base(sp[what])
		within(t, "OpenIn "+what, func() {
			if _, _, err := ReadFileIn(root, name, 1<<20); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), what) {
				t.Errorf("ReadFileIn(%s) = %v", name, err)
			}
		})
	}
	within(t, "OpenDirIn on a FIFO", func() {
		if f, err := OpenDirIn(root, "fifo"); err == nil {
			f.Close()
			t.Error("OpenDirIn opened a FIFO")
		}
	})
	f, err := OpenDirIn(root, "folder")
	if err != nil {
		t.Fatalf("OpenDirIn(folder): %v", err)
	}
	f.Close()
	within(t, "ReadDir on a FIFO", func() {
		if _, err := ReadDir(sp["FIFO"]); err == nil {
			t.Error("ReadDir read a FIFO")
		}
	})
}

func TestOpenReadsARegularFileInBlockingMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, fi, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if fi.Size() != 8 {
		t.Errorf("size %d", fi.Size())
	}
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	rc.Control(func(fd uintptr) { flags, _ = unix.FcntlInt(fd, unix.F_GETFL, 0) })
	if flags&unix.O_NONBLOCK != 0 {
		t.Error("O_NONBLOCK is still set on the file handed out")
	}
	data, err := ReadFile(path, 8)
	if err != nil || string(data) != "content\n" {
		t.Errorf("ReadFile at the limit = %q, %v", data, err)
	}
	if _, err := ReadFile(path, 7); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile over the limit = %v", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "absent"), 8); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile of a missing file = %v", err)
	}
}

func TestOpenWritableInRefusesLinksAndSpecialFiles(t *testing.T) {
	home := t.TempDir()
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.WriteFile(outside, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(outside, filepath.Join(home, "hardlink")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "inside"), []byte("inside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("inside", filepath.Join(home, "symlink")); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(filepath.Join(home, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(home)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for name, want := range map[string]string{
		"hardlink": "has 2 hard links",
		"symlink":  "is a symbolic link",
		"fifo":     "is a FIFO",
	} {
		within(t, "OpenWritableIn "+name, func() {
			f, err := OpenWritableIn(root, name, os.O_WRONLY|os.O_TRUNC|os.O_APPEND, 0o644)
			if err == nil {
				f.Close()
				t.Fatalf("%s opened for writing", name)
			}
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Detail, want) || e.Path != name {
				t.Errorf("%s: %v, want %q", name, err, want)
			}
		})
	}
	for path, want := range map[string]string{outside: "keep me\n", filepath.Join(home, "inside"): "inside\n"} {
		if data, _ := os.ReadFile(path); string(data) != want {
			t.Errorf("%s changed to %q", path, data)
		}
	}
	// A file of its own is opened, truncated when asked; a missing one is
	// created.
	f, err := OpenWritableIn(root, "inside", os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if fi, _ := os.Stat(filepath.Join(home, "inside")); fi.Size() != 0 {
		t.Error("O_TRUNC was not applied")
	}
	f, err = OpenWritableIn(root, "new", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := OpenWritableIn(root, "absent", os.O_WRONLY, 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file without O_CREATE: %v", err)
	}
}

func TestOpenLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".lock")
	f, err := OpenLock(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the lock file was not created: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	within(t, "OpenLock on a FIFO", func() {
		if _, err := OpenLock(fifo, 0o644); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("OpenLock(FIFO) = %v", err)
		}
	})
	target := filepath.Join(t.TempDir(), "target")
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenLock(link, 0o644); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("OpenLock(link) = %v", err)
	}
	if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
		t.Error("the lock followed a link and created its target")
	}
}

func TestReadFileAt(t *testing.T) {
	dir := t.TempDir()
	sp := specials(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("f", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "empty"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, what := range []string{"FIFO", "directory"} {
		name := filepath.Base(sp[what])
		within(t, "ReadFileAt "+what, func() {
			if _, err := ReadFileAt(d, name, 1<<20); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), what) {
				t.Errorf("ReadFileAt(%s) = %v", name, err)
			}
		})
	}
	if _, err := ReadFileAt(d, "link", 1<<20); !errors.Is(err, ErrLinked) {
		t.Errorf("ReadFileAt(link) = %v, want ErrLinked", err)
	}
	for name, want := range map[string]string{"f": "content\n", "empty": ""} {
		if data, err := ReadFileAt(d, name, 8); err != nil || string(data) != want {
			t.Errorf("ReadFileAt(%s) = %q, %v", name, data, err)
		}
	}
	if _, err := ReadFileAt(d, "f", 7); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := ReadFileAt(d, "absent", 8); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent: %v", err)
	}
}
