package file_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/store"
	filestore "github.com/agentsctl/agents/internal/store/file"
	"github.com/agentsctl/agents/internal/store/storetest"
)

func newCopyHome(t *testing.T) (store.Store, string) {
	home := filepath.Join(t.TempDir(), "home")
	s, err := filestore.Open(home, filestore.Options{LockTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return s, home
}

// TestCopyFileToFile runs the copy checks with a file store in the middle.
func TestCopyFileToFile(t *testing.T) {
	mid, _ := newCopyHome(t)
	storetest.RunCopy(t, mid, newCopyHome)
}

// A copy cut off between a document and its history lines (kill -9) is
// completed by running it again: the document is already as the copy
// leaves it, and the lines still to append end with it, so none is
// invented to record it, and the history is the source's, byte for byte.
func TestCopyCutOffAmidAHistoryCompletes(t *testing.T) {
	ctx := context.Background()
	for name, steps := range map[string][]int{
		"removed at the end": {1, -1, 2, -1},
		"replaced":           {1, 2, 3},
	} {
		src, srcHome := newCopyHome(t)
		for _, v := range steps {
			var err error
			if v < 0 {
				_, err = src.Profiles().Remove(ctx, "acme/x")
			} else {
				_, err = src.Profiles().Put(ctx, storetest.Profile(t, "acme/x", v), v > 1)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		dst, dstHome := newCopyHome(t)
		if _, err := store.Copy(ctx, src.(store.Transferer), dst.(store.Transferer), store.CopyOptions{}); err != nil {
			t.Fatal(err)
		}
		log := filepath.Join("history", "profiles", "acme", "x.log")
		whole, err := os.ReadFile(filepath.Join(srcHome, log))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(whole), "\n")
		cut := strings.Join(lines[:len(steps)-1], "")
		if err := os.WriteFile(filepath.Join(dstHome, log), []byte(cut), 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := store.Copy(ctx, src.(store.Transferer), dst.(store.Transferer), store.CopyOptions{})
		if err != nil {
			t.Fatalf("%s: the copy again: %v", name, err)
		}
		if r.SourceDigest != r.TargetDigest {
			t.Errorf("%s: the copy again does not match its source", name)
		}
		if got, _ := os.ReadFile(filepath.Join(dstHome, log)); string(got) != string(whole) {
			t.Errorf("%s: history after the copy again:\n%s\nwant the source's:\n%s", name, got, whole)
		}
	}
}
