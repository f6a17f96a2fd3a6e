//go:build linux

package file_test

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentsctl/agents/internal/store"
	filestore "github.com/agentsctl/agents/internal/store/file"
	"github.com/agentsctl/agents/internal/store/storetest"
)

// TestCheckSeesACLs: a store folder or file that a POSIX ACL lets another
// user write is as much a problem as one whose mode does, though its mode
// bits show only the ACL's mask; decisions refuse on it.
func TestCheckSeesACLs(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	put(t, s, storetest.Profile(t, "acme/x", 1), false)
	file := filepath.Join(home, "profiles", "acme", "x.yaml")
	const all = 0xffffffff
	acl := binary.LittleEndian.AppendUint32(nil, 2)
	for _, e := range []struct {
		tag, perm uint16
		id        uint32
	}{{0x01, 6, all}, {0x02, 6, 65534}, {0x04, 4, all}, {0x10, 6, all}, {0x20, 4, all}} {
		acl = binary.LittleEndian.AppendUint16(acl, e.tag)
		acl = binary.LittleEndian.AppendUint16(acl, e.perm)
		acl = binary.LittleEndian.AppendUint32(acl, e.id)
	}
	if err := syscall.Setxattr(file, "system.posix_acl_access", acl, 0); err != nil {
		if errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EOPNOTSUPP) {
			t.Skipf("no ACLs on this file system: %v", err)
		}
		t.Fatal(err)
	}
	s = openStore(t, home, filestore.Options{})
	var later []string
	if _, err := s.(store.LazyChecker).CheckLazily(ctx(), func(w store.Warning) { later = append(later, w.Message) }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Profiles().Get(ctx(), "acme/x"); err != nil {
		t.Fatal(err)
	}
	if len(later) != 1 || !strings.Contains(later[0], "store file "+file+" can be written by") || !strings.Contains(later[0], "65534") || !strings.Contains(later[0], "through an ACL") {
		t.Errorf("a lookup of a file an ACL lets another user write: %q", later)
	}
}
