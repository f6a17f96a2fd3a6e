package cmdutil

import (
	"testing"

	"github.com/agentsctl/agents/internal/store"
	"github.com/spf13/pflag"
)

// closer records how it was closed.
type closer struct {
	store.Store
	closed, forExit int
}

func (c *closer) Close() error        { c.closed++; return nil }
func (c *closer) CloseForExit() error { c.forExit++; return nil }

// TestCloseStore: a process that exits next closes its store through
// CloseForExit; any other caller (a test's Run) closes it fully.
func TestCloseStore(t *testing.T) {
	for _, exits := range []bool{false, true} {
		c := &closer{}
		d := &Deps{Exits: exits, store: c}
		d.CloseStore()
		want := closer{closed: 1}
		if exits {
			want = closer{forExit: 1}
		}
		if c.closed != want.closed || c.forExit != want.forExit {
			t.Errorf("Exits %v: closed %d, closed for exit %d; want %d and %d", exits, c.closed, c.forExit, want.closed, want.forExit)
		}
		if d.store != nil {
			t.Errorf("Exits %v: the store is still held after CloseStore", exits)
		}
	}
}

// TestOnce: a flag made Once takes one value; a second is an error, in
// either form, and other flags keep the last value as before.
func TestOnce(t *testing.T) {
	for _, tc := range []struct {
		args []string
		ok   bool
	}{
		{[]string{"--tool", "a"}, true},
		{[]string{"--tool", "a", "--tool", "b"}, false},
		{[]string{"--tool=a", "--tool=a"}, false},
		{[]string{"--unsafe", "--unsafe=false"}, false},
		{[]string{"--free", "a", "--free", "b"}, true},
	} {
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		fs.String("tool", "", "")
		fs.Bool("unsafe", false, "")
		fs.String("free", "", "")
		Once(fs, "tool", "unsafe", "missing")
		if err := fs.Parse(tc.args); (err == nil) != tc.ok {
			t.Errorf("%q: %v, want ok %v", tc.args, err, tc.ok)
		}
	}
}
