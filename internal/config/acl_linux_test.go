//go:build linux

package config

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
)

// setACL gives path an access ACL whose named entries are users and
// groups with read and write, or skips the test where the file system
// keeps no ACLs.
func setACL(t *testing.T, path string, users, groups []uint32) {
	t.Helper()
	const all = 0xffffffff
	buf := binary.LittleEndian.AppendUint32(nil, 2)
	add := func(tag, perm uint16, id uint32) {
		buf = binary.LittleEndian.AppendUint16(buf, tag)
		buf = binary.LittleEndian.AppendUint16(buf, perm)
		buf = binary.LittleEndian.AppendUint32(buf, id)
	}
	const aclUser, aclGroup, aclMask = 0x02, 0x08, 0x10
	add(0x01, 6, all) // the owner
	for _, u := range users {
		add(aclUser, 6, u)
	}
	add(0x04, 4, all) // the owning group
	for _, g := range groups {
		add(aclGroup, 6, g)
	}
	add(aclMask, 6, all)
	add(0x20, 4, all) // others
	if err := syscall.Setxattr(path, "system.posix_acl_access", buf, 0); err != nil {
		if errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EOPNOTSUPP) {
			t.Skipf("no ACLs on this file system: %v", err)
		}
		t.Fatal(err)
	}
}

// TestACLWritersRefused: a named user or group that an ACL lets write to
// a configuration file, or to its folder, makes it untrusted, whatever
// the mode bits say (their group bits show only the ACL's mask).
func TestACLWritersRefused(t *testing.T) {
	same := func(e *errs.Error) *errs.Error { return e }
	dir := t.TempDir()
	file := filepath.Join(dir, "config.yaml")
	write(t, file, "format: yaml\n")
	if err := CheckOwnership(file, "the configuration", same); err != nil {
		t.Fatalf("no ACL: %v", err)
	}
	setACL(t, file, []uint32{65534}, nil)
	err := CheckOwnership(file, "the configuration", same)
	if !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "uid 65534") || !strings.Contains(err.Error(), "through an ACL") {
		t.Errorf("a named user who may write the file: %v", err)
	}
	// The user's own entry, or root's, is no other writer.
	setACL(t, file, []uint32{uint32(syscall.Geteuid()), 0}, nil)
	if err := CheckOwnership(file, "the configuration", same); err != nil {
		t.Errorf("only the user and root: %v", err)
	}
	setACL(t, file, nil, []uint32{65534})
	if err := CheckOwnership(file, "the configuration", same); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "through an ACL") {
		t.Errorf("a named group who may write the file: %v", err)
	}
	other := filepath.Join(t.TempDir(), "config.yaml")
	write(t, other, "format: yaml\n")
	setACL(t, filepath.Dir(other), []uint32{65534}, nil)
	if err := CheckOwnership(other, "the configuration", same); !errs.Is(err, errs.KindInvalid) || !strings.Contains(err.Error(), "its folder") {
		t.Errorf("a named user who may write the folder: %v", err)
	}
}
