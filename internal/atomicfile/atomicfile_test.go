package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileReplacesAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.yaml")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "new" {
		t.Fatalf("content = %q, %v", got, err)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want the replaced file's 0600", st.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want only the file (no temporary left)", len(entries))
	}
}

func TestWriteFileNewFileGetsPerm(t *testing.T) {
	path := filepath.Join(t.TempDir(), "n.json")
	if err := WriteFile(path, []byte("{}"), 0o640); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm()&^0o640 != 0 {
		t.Errorf("mode = %v, want at most 0640", st.Mode().Perm())
	}
}

func TestWriteFileMissingFolderLeavesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "f")
	if err := WriteFile(path, []byte("x"), 0o644); err == nil {
		t.Fatal("want an error for a missing folder")
	}
}

func TestTempNames(t *testing.T) {
	a, b := TempName("x.yaml"), TempName("x.yaml")
	if a == b {
		t.Error("two temporary names are equal")
	}
	if !strings.HasPrefix(a, TempPrefix) || strings.HasPrefix("x.yaml", TempPrefix) {
		t.Error("temporary names do not carry the prefix")
	}
}

// TestWriteFileRefusesALink: a link is neither replaced by a file nor
// written through; both it and what it names are left as they were.
func TestWriteFileRefusesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.yaml")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot make links here: %v", err)
	}
	if err := WriteFile(link, []byte("new"), 0o644); !errors.Is(err, ErrLink) {
		t.Fatalf("WriteFile through a link = %v, want ErrLink", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "old" {
		t.Errorf("the target now holds %q", data)
	}
}
