//go:build unix

package file_test

import (
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	filestore "github.com/agentsctl/agents/internal/store/file"
	"github.com/agentsctl/agents/internal/store/storetest"
)

func setUmask(mask int) { syscall.Umask(mask) }

// TestUmaskIsHonoured writes from a helper process whose umask is 077 (the
// umask is per process): everything it creates must be private.
func TestUmaskIsHonoured(t *testing.T) {
	home := newHome(t)
	cmd := startHelperToEnd(t, "umask-put", home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("helper: %v: %s", err, out)
	}
	checkModes(t, home, 0o600, 0o700)
}

func startHelperToEnd(t *testing.T, mode, home string) *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperHomeEnv+"="+home)
	return cmd
}

func TestCheckWarnsAboutAnotherOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a folder's owner needs root")
	}
	uid, gid := 65534, 65534
	if u, err := user.Lookup("nobody"); err == nil {
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
	}
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	put(t, s, storetest.Profile(t, "acme/x", 1), false)
	w, err := s.Check(ctx())
	if err != nil || len(w) != 0 {
		t.Fatalf("check before chown = %q, %v", w, err)
	}
	objects := filepath.Join(home, "objects")
	if err := os.Chown(objects, uid, gid); err != nil {
		t.Fatal(err)
	}
	w, err = s.Check(ctx())
	if err != nil {
		t.Fatal(err)
	}
	if len(w) != 1 || !strings.Contains(w[0], objects+" is owned by ") || !strings.Contains(w[0], strconv.Itoa(uid)) {
		t.Errorf("warnings = %q, want one naming %s and uid %d", w, objects, uid)
	}
}
