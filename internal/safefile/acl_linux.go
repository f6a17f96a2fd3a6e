//go:build linux

package safefile

import (
	"encoding/binary"
	"errors"
	"syscall"
)

// The tags and the write bit of a POSIX ACL entry, as Linux stores the
// access ACL in the system.posix_acl_access attribute: a 4-byte version,
// then 8-byte entries (tag, permissions, id), little-endian.
const (
	aclUser  = 0x02
	aclGroup = 0x08
	aclMask  = 0x10
	aclWrite = 0x02
)

// ACLWriters returns the users and groups that a POSIX ACL on path (not a
// link) lets write to it, beyond what its mode bits say: the mode's group
// bits show only the ACL's mask, so a named user could otherwise write a
// file that looks group-writable by the owner's private group alone.
func ACLWriters(path string) (users, groups []uint32, err error) {
	buf := make([]byte, 512)
	n, err := syscall.Getxattr(path, "system.posix_acl_access", buf)
	if errors.Is(err, syscall.ERANGE) {
		if n, err = syscall.Getxattr(path, "system.posix_acl_access", nil); err == nil {
			buf = make([]byte, n)
			n, err = syscall.Getxattr(path, "system.posix_acl_access", buf)
		}
	}
	switch {
	case errors.Is(err, syscall.ENODATA), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.EOPNOTSUPP):
		return nil, nil, nil
	case err != nil:
		return nil, nil, err
	}
	buf = buf[:n]
	mask := uint16(0xffff)
	type entry struct {
		tag, perm uint16
		id        uint32
	}
	var named []entry
	for off := 4; off+8 <= len(buf); off += 8 {
		e := entry{binary.LittleEndian.Uint16(buf[off:]), binary.LittleEndian.Uint16(buf[off+2:]), binary.LittleEndian.Uint32(buf[off+4:])}
		switch e.tag {
		case aclMask:
			mask = e.perm
		case aclUser, aclGroup:
			named = append(named, e)
		}
	}
	for _, e := range named {
		if e.perm&mask&aclWrite == 0 {
			continue
		}
		if e.tag == aclUser {
			users = append(users, e.id)
		} else {
			groups = append(groups, e.id)
		}
	}
	return users, groups, nil
}
