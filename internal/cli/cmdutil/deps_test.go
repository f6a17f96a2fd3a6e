package cmdutil

import (
	"testing"

	"github.com/agentsctl/agents/internal/store"
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
