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

	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/internal/store"
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
	if len(w) != 1 || !strings.Contains(w[0].Message, objects+" is owned by ") || !strings.Contains(w[0].Message, strconv.Itoa(uid)) {
		t.Errorf("warnings = %q, want one naming %s and uid %d", w, objects, uid)
	}
}

// TestCheckWarnsAboutAGroupThatMayWrite: a store folder or file that a
// group other than the user's private one may write is one its members
// can change; the private group, alone, is the user's.
func TestCheckWarnsAboutAGroupThatMayWrite(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a folder to another group needs root")
	}
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	put(t, s, storetest.Profile(t, "acme/x", 1), false)
	const shared = 54321 // a group of no one here
	profiles := filepath.Join(home, "profiles")
	file := filepath.Join(profiles, "acme", "x.yaml")
	for _, p := range []string{profiles, file} {
		if err := os.Chown(p, -1, shared); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(profiles, 0o775); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o664); err != nil {
		t.Fatal(err)
	}
	w, err := s.Check(ctx())
	want := store.Warning{Where: profiles, Message: "store folder " + profiles + " can be written by the group gid 54321 (drwxrwxr-x): its members can change its profiles; run 'chmod g-w " + profiles + "'"}
	if err != nil || len(w) != 1 || w[0] != want {
		t.Fatalf("Check = %q, %v; want %q", w, err, want)
	}
	s = openStore(t, home, filestore.Options{})
	var later []string
	if _, err := s.(store.LazyChecker).CheckLazily(ctx(), func(w store.Warning) { later = append(later, w.Message) }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Profiles().Get(ctx(), "acme/x"); err != nil {
		t.Fatal(err)
	}
	if len(later) != 1 || !strings.Contains(later[0], "store file "+file+" can be written by the group gid 54321 (-rw-rw-r--)") {
		t.Errorf("a lookup of the file: %q", later)
	}
	// The same modes under the user's private group (root's is root) say
	// nothing.
	if safefile.PrivateGroup() < 0 {
		return
	}
	for _, p := range []string{profiles, file} {
		if err := os.Chown(p, -1, int(safefile.PrivateGroup())); err != nil {
			t.Fatal(err)
		}
	}
	if w, err := s.Check(ctx()); err != nil || len(w) != 0 {
		t.Errorf("under the private group: %q, %v", w, err)
	}
}
