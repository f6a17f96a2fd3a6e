//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteFileKeepsModeThroughUmask: a replaced file keeps the bits the
// umask would clear from a new one (no test in this package runs in
// parallel, so changing the process's umask here is seen by no other).
func TestWriteFileKeepsModeThroughUmask(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	for _, mode := range []os.FileMode{0o664, 0o660, 0o666, 0o600, 0o444} {
		path := filepath.Join(t.TempDir(), "f.yaml")
		if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(path, []byte("new"), 0o644); err != nil {
			t.Fatalf("mode %v: %v", mode, err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != mode {
			t.Errorf("mode %v became %v", mode, st.Mode().Perm())
		}
	}
}
