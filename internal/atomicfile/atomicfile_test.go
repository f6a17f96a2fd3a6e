package atomicfile

import (
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
