package safefile

import (
	"os/user"
	"testing"
)

// TestOnlyMember: a group named after its user is private only when
// nobody else is in it, by the member list or as a primary group.
func TestOnlyMember(t *testing.T) {
	groups := "root:x:0:\ndev:x:1000:\nshared:x:1001:dev\nteam:x:1002:ops, dev\nguests:x:1005:\n"
	passwd := "root:x:0:0::/root:/bin/sh\ndev:x:1000:1000::/home/dev:/bin/sh\nops:x:1003:1003::/home/ops:/bin/sh\nguest:x:1004:1005::/home/guest:/bin/sh\n"
	for _, tt := range []struct {
		user, gid, passwd string
		want              bool
	}{
		{"dev", "1000", passwd, true},
		{"dev", "1000", passwd + "intern:x:1006:1000::/home/intern:/bin/sh\n", false}, // another account's primary group
		{"dev", "1001", passwd, true},  // listed, alone
		{"dev", "1002", passwd, false}, // ops is listed too
		{"dev", "1005", passwd, false}, // guest's primary group
		{"dev", "9999", passwd, false}, // not listed: its members are unknown
	} {
		if got := onlyMember(tt.user, tt.gid, []byte(groups), []byte(tt.passwd)); got != tt.want {
			t.Errorf("onlyMember(%s, %s) = %v, want %v", tt.user, tt.gid, got, tt.want)
		}
	}
}

// TestUserName: a user with a name is named with the uid beside it, one
// without by the uid alone.
func TestUserName(t *testing.T) {
	u, err := user.LookupId("0")
	if err != nil {
		t.Skipf("uid 0 has no name here: %v", err)
	}
	if got, want := UserName(0), u.Username+" (uid 0)"; got != want {
		t.Errorf("UserName(0) = %q, want %q", got, want)
	}
	const unnamed = 3999999999
	if _, err := user.LookupId("3999999999"); err == nil {
		t.Skip("uid 3999999999 has a name here")
	}
	if got, want := UserName(unnamed), "uid 3999999999"; got != want {
		t.Errorf("UserName(%d) = %q, want %q", uint32(unnamed), got, want)
	}
}
