package file_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/canon"
	filestore "github.com/agentsctl/agents/internal/store/file"
	"github.com/agentsctl/agents/internal/store/storetest"
)

// A plan found ahead of its history (edited by hand, or left by a writer
// killed before its history line) is never recorded as a version of its
// own by the next writer: the history of a collection that vouches for its
// documents names only what the store wrote.
func TestReconcileLeavesAVouchingHistoryAlone(t *testing.T) {
	home := t.TempDir()
	s, err := filestore.Open(home, filestore.Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p := storetest.Plan(t, storetest.PlanID(t, 1))
	if _, err := s.Plans().Put(ctx, p, false); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, "plans", p.ID+".yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "action: "+p.Action, "action: local/other", 1)
	if edited == string(data) {
		t.Fatalf("no action to edit in:\n%s", data)
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	again := p.Clone()
	again.ProjectDir = "/elsewhere"
	if _, err := s.Plans().Put(ctx, again, true); err != nil {
		t.Fatal(err)
	}
	h, err := s.Plans().History(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 {
		t.Errorf("history of the plan = %+v, want the two versions the store wrote", h)
	}
	for _, e := range h {
		if e.Digest == canon.Digest([]byte(edited)) {
			t.Errorf("the edited record was recorded as a version: %+v", h)
		}
	}
}
