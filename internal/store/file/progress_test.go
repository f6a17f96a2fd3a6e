package file_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
	filestore "github.com/agentsctl/agents/internal/store/file"
)

// TestListProgress checks that both stores report a listing's progress:
// one call per selected profile, counting up to the number selected, never
// two calls at once.
func TestListProgress(t *testing.T) {
	stores := map[string]func(t *testing.T) store.Store{
		"memory": func(*testing.T) store.Store { return store.NewMemory() },
		"file": func(t *testing.T) store.Store {
			s, err := filestore.Open(t.TempDir(), filestore.Options{})
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			for i := range 40 {
				ns := "a"
				if i%4 == 0 {
					ns = "b"
				}
				p, _, err := profile.DecodeProfile(fmt.Appendf(nil, "name: %s/p%02d\n", ns, i), "p.yaml")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := s.Profiles().Put(t.Context(), p, false); err != nil {
					t.Fatal(err)
				}
			}
			var calls []int
			var totals = map[int]bool{}
			var inside atomic.Int32
			q := store.Query{Namespace: "b", Progress: func(done, total int) {
				if inside.Add(1) != 1 {
					t.Error("progress calls overlap")
				}
				calls = append(calls, done)
				totals[total] = true
				inside.Add(-1)
			}}
			list, err := s.Profiles().List(t.Context(), q)
			if err != nil {
				t.Fatal(err)
			}
			if len(list.Items) != 10 {
				t.Fatalf("%d profiles listed, want 10", len(list.Items))
			}
			if len(calls) != 10 || len(totals) != 1 || !totals[10] {
				t.Fatalf("progress calls %v with totals %v, want 1..10 of 10", calls, totals)
			}
			for i, done := range calls {
				if done != i+1 {
					t.Errorf("call %d reported %d done", i, done)
				}
			}
		})
	}
}
