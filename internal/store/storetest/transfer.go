package storetest

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store"
)

// Fill writes a small registry into s through the Store interface: profiles
// with several versions and a removal, actions and plans.
func Fill(t testing.TB, s store.Store) {
	t.Helper()
	ctx := context.Background()
	for i, name := range []string{"acme/a", "acme/b", "team/c"} {
		if _, err := s.Profiles().Put(ctx, Profile(t, name, i), false); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []int{5, 6} {
		if _, err := s.Profiles().Put(ctx, Profile(t, "acme/a", v), true); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Profiles().Remove(ctx, "acme/b"); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"local/deploy", "team/x"} {
		if _, err := s.Actions().Put(ctx, Action(t, name, i), false); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []int{1, 2} {
		if _, err := s.Plans().Put(ctx, Plan(t, PlanID(t, n)), false); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.PutObject(ctx, []byte("a snapshot a plan cited\n")); err != nil {
		t.Fatal(err)
	}
}

// RunCopy checks store.Copy from a file store into other (a new, empty
// store) and back into a new home: the files come back byte for byte, the
// history event for event; a second copy writes nothing; content that
// differs is a conflict unless forced. newHome returns a new, empty file
// store and its folder.
func RunCopy(t *testing.T, other store.Store, newHome func(t *testing.T) (store.Store, string)) {
	ctx := context.Background()
	src, srcHome := newHome(t)
	Fill(t, src)
	mid := other.(store.Transferer)

	r, err := store.Copy(ctx, src.(store.Transferer), mid, store.CopyOptions{})
	if err != nil {
		t.Fatalf("copy into the store: %v", err)
	}
	if r.SourceDigest != r.TargetDigest || !r.Changed() {
		t.Fatalf("copy into the store: %+v", r)
	}
	if c := r.Collections["profiles"]; c.Added != 2 || c.Events != 6 {
		t.Errorf("profiles copied: %+v", c)
	}
	r, err = store.Copy(ctx, src.(store.Transferer), mid, store.CopyOptions{})
	if err != nil || r.Changed() || r.SourceDigest != r.TargetDigest {
		t.Fatalf("second copy changed something: %+v, %v", r, err)
	}
	// The store answers as the source does.
	h1, err := src.Profiles().History(ctx, "acme/b")
	must(t, err, "history")
	h2, err := other.Profiles().History(ctx, "acme/b")
	must(t, err, "history")
	if !reflect.DeepEqual(h1, h2) {
		t.Errorf("history of acme/b:\n source %+v\n copied %+v", h1, h2)
	}
	wantEqual(t, get(t, other, "acme/a"), get(t, src, "acme/a"), "copied profile")

	back, backHome := newHome(t)
	r, err = store.Copy(ctx, mid, back.(store.Transferer), store.CopyOptions{})
	if err != nil || r.SourceDigest != r.TargetDigest {
		t.Fatalf("copy back: %+v, %v", r, err)
	}
	SameTree(t, srcHome, backHome)

	// Other content under a name: a conflict, nothing written.
	if _, err := other.Profiles().Put(ctx, Profile(t, "acme/a", 9), true); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Actions().Put(ctx, Action(t, "local/deploy", 9), true); err != nil {
		t.Fatal(err)
	}
	before := TreeFiles(t, backHome)
	_, err = store.Copy(ctx, mid, back.(store.Transferer), store.CopyOptions{})
	if errs.KindOf(err) != errs.KindConflict {
		t.Fatalf("copy over other content: %v, want a conflict", err)
	}
	if e, _ := err.(*errs.Error); e == nil || len(e.Problems) != 2 {
		t.Errorf("conflicts reported: %v", err)
	}
	if after := TreeFiles(t, backHome); !reflect.DeepEqual(before, after) {
		t.Error("a refused copy changed the target")
	}
	r, err = store.Copy(ctx, mid, back.(store.Transferer), store.CopyOptions{Force: true, Now: func() time.Time { return time.Now() }})
	if err != nil || r.Collections["profiles"].Replaced != 1 || r.Collections["actions"].Replaced != 1 {
		t.Fatalf("forced copy: %+v, %v", r, err)
	}
	wantEqual(t, get(t, back, "acme/a"), Profile(t, "acme/a", 9), "forced profile")
	h, err := back.Profiles().History(ctx, "acme/a")
	must(t, err, "history")
	if n := len(h); n != 4 || h[n-1].Event != store.EventPut {
		t.Errorf("history after a forced copy: %+v", h)
	}
}

// TreeFiles returns every regular file under root (but the lock, the
// journal and the derived cache) with its content.
func TreeFiles(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() && rel == ".cache" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && rel != ".lock" && rel != ".pending" {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// SameTree fails unless two homes hold the same files, byte for byte.
func SameTree(t testing.TB, a, b string) {
	t.Helper()
	x, y := TreeFiles(t, a), TreeFiles(t, b)
	for k, v := range x {
		if w, ok := y[k]; !ok {
			t.Errorf("%s is missing after the round trip", k)
		} else if v != w {
			t.Errorf("%s differs after the round trip:\n%s\n---\n%s", k, v, w)
		}
	}
	for k := range y {
		if _, ok := x[k]; !ok {
			t.Errorf("%s appeared in the round trip", k)
		}
	}
	if len(x) < 10 {
		t.Errorf("only %d files compared", len(x))
	}
}
