package file_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
	filestore "github.com/agentsctl/agents/internal/store/file"
	"github.com/agentsctl/agents/internal/store/storetest"
)

// The test binary doubles as a helper process: with helperEnv set, TestMain
// runs the named helper instead of the tests, so a test can kill a real
// process in the middle of a store operation.
const (
	helperEnv     = "AGENTS_STORE_TEST_HELPER"
	helperHomeEnv = "AGENTS_STORE_TEST_HOME"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode, os.Getenv(helperHomeEnv)))
	}
	os.Exit(m.Run())
}

func runHelper(mode, home string) int {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "helper:", err)
		return 1
	}
	opts := filestore.Options{LockTimeout: time.Minute}
	switch mode {
	case "hold-lock":
		s, err := filestore.Open(home, opts)
		if err != nil {
			return fail(err)
		}
		if _, err := filestore.HoldLock(context.Background(), s); err != nil {
			return fail(err)
		}
		fmt.Println("locked")
		time.Sleep(time.Hour)
	case "die-before-rename":
		filestore.SetBeforeRename(&opts, func(tmp, target string) {
			if strings.HasPrefix(target, "profiles") {
				fmt.Println(tmp)
				time.Sleep(time.Hour)
			}
		})
		if err := helperPut(home, opts, "acme/killed"); err != nil {
			return fail(err)
		}
	case "umask-put":
		setUmask(0o077)
		if err := helperPut(home, opts, "acme/private"); err != nil {
			return fail(err)
		}
		return 0
	}
	return fail(fmt.Errorf("unknown helper %q", mode))
}

func helperPut(home string, opts filestore.Options, name string) error {
	s, err := filestore.Open(home, opts)
	if err != nil {
		return err
	}
	p, err := storetest.NewProfile(name, 1)
	if err != nil {
		return err
	}
	_, err = s.Profiles().Put(context.Background(), p, true)
	return err
}

// startHelper runs a helper process and returns it with the first line it
// printed.
func startHelper(t *testing.T, mode, home string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, helperHomeEnv+"="+home)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = cmd.Wait()
		t.Fatalf("helper %s printed nothing (%v); stderr: %s", mode, err, stderr.String())
	}
	return cmd, strings.TrimSpace(line)
}

// killHelper kills a helper with SIGKILL, as a crash would, and waits for
// it to be gone.
func killHelper(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
}

func ctx() context.Context { return context.Background() }

func openStore(t testing.TB, home string, opts filestore.Options) store.Store {
	t.Helper()
	if opts.LockTimeout == 0 {
		opts.LockTimeout = time.Minute
	}
	s, err := filestore.Open(home, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newHome(t testing.TB) string {
	return filepath.Join(t.TempDir(), "home")
}

func put(t testing.TB, s store.Store, p *profile.AutomationProfile, update bool) store.PutResult[*profile.AutomationProfile] {
	t.Helper()
	res, err := s.Profiles().Put(ctx(), p, update)
	if err != nil {
		t.Fatalf("put %s: %v", p.Name, err)
	}
	return res
}

func wantKind(t *testing.T, err error, k errs.Kind, what string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error, want %s", what, k.Code())
	}
	if got := errs.KindOf(err); got != k {
		t.Fatalf("%s: %s error (%v), want %s", what, got.Code(), err, k.Code())
	}
}

// tempFiles returns the store's temporary files, wherever they are.
func tempFiles(t *testing.T, home string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			found = append(found, path)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return found
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestOpenFileRefusesBadHome(t *testing.T) {
	_, err := filestore.Open("", filestore.Options{})
	wantKind(t, err, errs.KindUsage, "empty home")
	notDir := filepath.Join(t.TempDir(), "file")
	writeFile(t, notDir, "x")
	_, err = filestore.Open(notDir, filestore.Options{})
	wantKind(t, err, errs.KindUsage, "home that is a file")
}

func TestLayout(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	p := storetest.Profile(t, "acme/strict", 1)
	res := put(t, s, p, false)

	data := readFile(t, filepath.Join(home, "profiles", "acme", "strict.yaml"))
	got, _, err := profile.DecodeProfile([]byte(data), "stored")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("stored file decodes to %+v, want %+v", got, p)
	}
	if !strings.Contains(data, "\nsafety:\n  require_sandbox: true\n") {
		t.Errorf("stored file is not in the nested form:\n%s", data)
	}
	if obj := readFile(t, filepath.Join(home, "objects", res.Digest)); obj != data {
		t.Errorf("object %s differs from the stored file", res.Digest)
	}
	log := readFile(t, filepath.Join(home, "history", "profiles", "acme", "strict.log"))
	if n := strings.Count(log, "\n"); n != 1 || !strings.Contains(log, res.Digest) {
		t.Errorf("history log = %q, want one line naming %s", log, res.Digest)
	}
	if fi, err := os.Lstat(filepath.Join(home, ".lock")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("lock file: %v", err)
	}
}

// GetDigest gives the digest the history records for the version it
// reads: the sha256 of the file, which the store writes in the stored form
// its objects hold. A decision relies on the two being equal to skip
// encoding the profile again; a file in any other form gives another.
func TestGetDigest(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	p := storetest.Profile(t, "acme/strict", 1)
	res := put(t, s, p, false)
	g, ok := s.Profiles().(store.StoredDigester[*profile.AutomationProfile])
	if !ok {
		t.Fatal("the file store's profiles do not give their stored digest")
	}
	got, digest, err := g.GetDigest(context.Background(), "acme/strict")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) || digest != res.Digest {
		t.Errorf("GetDigest = %+v, %s; want %+v, %s", got, digest, p, res.Digest)
	}
	last, _, err := s.Profiles().LastEvent(context.Background(), "acme/strict")
	if err != nil || !last.Puts(digest) {
		t.Errorf("the history's last event %+v (%v) is not a put of %s", last, err, digest)
	}
	file := filepath.Join(home, "profiles", "acme", "strict.yaml")
	if err := os.WriteFile(file, append([]byte("# a comment\n"), readFile(t, file)...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, digest, err := g.GetDigest(context.Background(), "acme/strict"); err != nil || digest == res.Digest {
		t.Errorf("a file in another form gives digest %s (%v), the stored form's", digest, err)
	}
}

func TestLockTimeout(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{LockTimeout: 20 * time.Millisecond})
	v1 := storetest.Profile(t, "acme/x", 1)
	put(t, s, v1, false)

	lockPath := filepath.Join(home, ".lock")
	held := flock.New(lockPath)
	if ok, err := held.TryLock(); err != nil || !ok {
		t.Fatalf("taking the lock: %v %v", ok, err)
	}
	defer held.Unlock()

	_, err := s.Profiles().Put(ctx(), storetest.Profile(t, "acme/x", 2), true)
	wantKind(t, err, errs.KindLocked, "put while another holds the lock")
	if !strings.Contains(err.Error(), lockPath) {
		t.Errorf("message %q does not name the lock file %s", err, lockPath)
	}
	var e *errs.Error
	if !errors.As(err, &e) || e.Subject.About != errs.AboutLock {
		t.Errorf("error %+v is not about the lock, which the command line hints at", e)
	}
	_, err = s.Profiles().Remove(ctx(), "acme/x")
	wantKind(t, err, errs.KindLocked, "remove while another holds the lock")
	_, err = s.PutObject(ctx(), []byte("new object"))
	wantKind(t, err, errs.KindLocked, "put object while another holds the lock")

	// Reads take no lock.
	got, err := s.Profiles().Get(ctx(), "acme/x")
	if err != nil || !reflect.DeepEqual(got, v1) {
		t.Errorf("get while locked = %v, %v; want version 1", got, err)
	}
	if l, err := s.Profiles().List(ctx(), store.Query{}); err != nil || len(l.Items) != 1 {
		t.Errorf("list while locked = %v, %v", l, err)
	}

	// A cancelled wait is an interruption, not a timeout.
	patient := openStore(t, home, filestore.Options{LockTimeout: time.Hour})
	c, cancel := context.WithTimeout(ctx(), 30*time.Millisecond)
	defer cancel()
	_, err = patient.Profiles().Put(c, storetest.Profile(t, "acme/x", 3), true)
	wantKind(t, err, errs.KindInterrupted, "put whose context ends while waiting")
	if msg := err.Error(); !strings.HasPrefix(msg, "interrupted while waiting for the store lock ") || strings.Contains(msg, "context") {
		t.Errorf("put whose context ends while waiting: %q", msg)
	}

	held.Unlock()
	put(t, s, storetest.Profile(t, "acme/x", 4), true)
}

func TestKilledLockHolder(t *testing.T) {
	home := newHome(t)
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd, line := startHelper(t, "hold-lock", home)
	if line != "locked" {
		t.Fatalf("helper said %q", line)
	}
	// A zero timeout tries the lock once: the next writer must not wait.
	s := openStore(t, home, filestore.Options{LockTimeout: -1})
	_, err := s.Profiles().Put(ctx(), storetest.Profile(t, "acme/x", 1), false)
	wantKind(t, err, errs.KindLocked, "put while the helper holds the lock")

	killHelper(t, cmd)
	put(t, s, storetest.Profile(t, "acme/x", 1), false)
}

func TestKilledWriterLeavesNothingBehind(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{LockTimeout: -1})
	put(t, s, storetest.Profile(t, "acme/before", 1), false)

	cmd, tmp := startHelper(t, "die-before-rename", home)
	tmpPath := filepath.Join(home, tmp)
	if !strings.HasPrefix(filepath.Base(tmp), ".tmp-") {
		t.Fatalf("helper stopped at %q, not a temporary file", tmp)
	}
	killHelper(t, cmd)
	if _, err := os.Stat(tmpPath); err != nil {
		t.Fatalf("the killed writer's temporary file is not there to clean: %v", err)
	}

	// The killed write is absent, and the store reads cleanly.
	_, err := s.Profiles().Get(ctx(), "acme/killed")
	wantKind(t, err, errs.KindNotFound, "get of the killed write")
	l, err := s.Profiles().List(ctx(), store.Query{})
	if err != nil || len(l.Problems) != 0 || len(l.Items) != 1 {
		t.Fatalf("list after the kill = %v, problems %v, %v", l.Items, l.Problems, err)
	}
	_, err = s.Profiles().History(ctx(), "acme/killed")
	wantKind(t, err, errs.KindNotFound, "history of the killed write")

	// The next writer, whatever it writes, cleans up and waits for no one.
	put(t, s, storetest.Profile(t, "other/next", 1), false)
	if left := tempFiles(t, home); len(left) != 0 {
		t.Errorf("temporary files left after the next write: %v", left)
	}
}

func TestJournalRemovesOnlyTemporaryFilesInside(t *testing.T) {
	home := newHome(t)
	outside := t.TempDir()
	s := openStore(t, home, filestore.Options{})
	put(t, s, storetest.Profile(t, "acme/x", 1), false)

	bait := filepath.Join(outside, ".tmp-bait")
	writeFile(t, bait, "outside")
	stored := filepath.Join(home, "profiles", "acme", "x.yaml")
	leftover := filepath.Join(home, "profiles", "acme", ".tmp-leftover")
	writeFile(t, leftover, "half a profile")
	rel, _ := filepath.Rel(home, bait)
	writeFile(t, filepath.Join(home, ".pending"), strings.Join([]string{
		rel, bait, "profiles/acme/x.yaml", "profiles/../../" + filepath.Base(outside) + "/.tmp-bait",
		"profiles/acme/.tmp-leftover", "profiles/acme/.tmp-torn-line-with-no-newl",
	}, "\n"))

	put(t, s, storetest.Profile(t, "other/y", 1), false)
	if _, err := os.Stat(leftover); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the leftover temporary file is still there: %v", err)
	}
	if readFile(t, bait) != "outside" {
		t.Error("a file outside the store was touched")
	}
	if _, err := os.Stat(stored); err != nil {
		t.Errorf("a stored profile named in the journal was removed: %v", err)
	}
}

// TestListDuringRemove removes a profile after a listing has found its file
// and before it reads it: the listing must show the store as after the
// remove, without reporting the vanished file as a problem.
func TestListDuringRemove(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	for _, name := range []string{"acme/a", "acme/b", "acme/c"} {
		put(t, s, storetest.Profile(t, name, 1), false)
	}
	removed := false
	q := store.Query{Progress: func(done, total int) {
		// Three files are read by one worker, in name order: remove the
		// last once the first is read.
		if done == 1 && !removed {
			removed = true
			if _, err := s.Profiles().Remove(ctx(), "acme/c"); err != nil {
				t.Error(err)
			}
		}
	}}
	l, err := s.Profiles().List(ctx(), q)
	if err != nil {
		t.Fatal(err)
	}
	if !removed {
		t.Fatal("the remove did not run during the listing")
	}
	if got := names(l.Items); !reflect.DeepEqual(got, []string{"acme/a", "acme/b"}) || len(l.Problems) != 0 {
		t.Errorf("listed %v with problems %v; want [acme/a acme/b] and none", got, l.Problems)
	}
}

func TestProblemsDoNotHideOthers(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	a, c := storetest.Profile(t, "acme/a", 1), storetest.Profile(t, "acme/c", 1)
	put(t, s, a, false)
	put(t, s, c, false)
	dir := filepath.Join(home, "profiles")
	corrupt := filepath.Join(dir, "acme", "b.yaml")
	writeFile(t, corrupt, "name: [unclosed\n")
	misplaced := filepath.Join(dir, "acme", "d.yaml")
	writeFile(t, misplaced, readFile(t, filepath.Join(dir, "acme", "a.yaml")))
	badName := filepath.Join(dir, "Bad", "x.yaml")
	writeFile(t, badName, readFile(t, filepath.Join(dir, "acme", "a.yaml")))
	stray := filepath.Join(dir, "stray.yaml")
	writeFile(t, stray, "name: stray\n")
	big := filepath.Join(dir, "acme", "e.yaml")
	writeFile(t, big, "name: acme/e\ndescription: "+strings.Repeat("x", profile.MaxFileSize)+"\n")
	folder := filepath.Join(dir, "acme", "f.yaml")
	writeFile(t, filepath.Join(folder, "x"), "in a folder named like a profile file")
	writeFile(t, filepath.Join(dir, "acme", ".tmp-someone-elses"), "ignored")
	writeFile(t, filepath.Join(dir, "acme", "notes.txt"), "ignored")

	l, err := s.Profiles().List(ctx(), store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(l.Items); !reflect.DeepEqual(got, []string{"acme/a", "acme/c"}) {
		t.Errorf("listed %v, want [acme/a acme/c]", got)
	}
	files := map[string]errs.Problem{}
	for _, p := range l.Problems {
		files[p.File] = p
	}
	for _, f := range []string{corrupt, misplaced, badName, stray, big, folder} {
		if _, ok := files[f]; !ok {
			t.Errorf("no problem reported for %s; problems: %v", f, l.Problems)
		}
	}
	if len(files) != 6 {
		t.Errorf("problems for %d files, want 6: %v", len(files), l.Problems)
	}
	if p := files[misplaced]; p.Path != "name" || !strings.Contains(p.Message, `"acme/a"`) {
		t.Errorf("misplaced file problem = %+v", p)
	}

	// Only files that will be printed are parsed.
	l, err = s.Profiles().List(ctx(), store.Query{Match: func(n string) bool { return n == "acme/a" || n == "acme/c" }})
	if err != nil || len(l.Problems) != 0 || len(l.Items) != 2 {
		t.Errorf("filtered list = %v, problems %v, %v", names(l.Items), l.Problems, err)
	}
	// Names come without parsing.
	ns, err := s.Profiles().Names(ctx(), store.Query{Namespace: "acme"})
	if want := []string{"acme/a", "acme/b", "acme/c", "acme/d", "acme/e"}; err != nil || !reflect.DeepEqual(ns, want) {
		t.Errorf("names = %v, %v; want %v", ns, err, want)
	}

	_, err = s.Profiles().Get(ctx(), "acme/b")
	wantKind(t, err, errs.KindInvalid, "get of a corrupt file")
	_, err = s.Profiles().Get(ctx(), "acme/e")
	wantKind(t, err, errs.KindInvalid, "get of a file over the size limit")
	_, err = s.Profiles().Get(ctx(), "acme/f")
	wantKind(t, err, errs.KindInvalid, "get of a folder named like a profile file")
	_, err = s.Profiles().Get(ctx(), "acme/d")
	wantKind(t, err, errs.KindInvalid, "get of a misplaced file")
	if !strings.Contains(err.Error(), misplaced) && !strings.Contains(fmt.Sprint(problemsOf(err)), misplaced) {
		t.Errorf("error %v does not name %s", err, misplaced)
	}

	// A file that cannot be read is not removed blindly, but can be replaced.
	_, err = s.Profiles().Remove(ctx(), "acme/b")
	wantKind(t, err, errs.KindInvalid, "remove of a corrupt file")
	if _, err := os.Stat(corrupt); err != nil {
		t.Errorf("refused remove removed the file: %v", err)
	}
	res := put(t, s, storetest.Profile(t, "acme/b", 1), true)
	if res.Replaced != nil {
		t.Errorf("replacing a corrupt file reports it replaced %+v", res.Replaced)
	}
	if _, err := s.Profiles().Get(ctx(), "acme/b"); err != nil {
		t.Errorf("get after replacing the corrupt file: %v", err)
	}
}

func problemsOf(err error) []errs.Problem {
	var e *errs.Error
	if errors.As(err, &e) {
		return e.Problems
	}
	return nil
}

func names(ps []*profile.AutomationProfile) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

func TestReadsCreateNothing(t *testing.T) {
	readAll := func(t *testing.T, s store.Store) {
		if _, err := s.Profiles().Get(ctx(), "acme/x"); errs.KindOf(err) != errs.KindNotFound {
			t.Errorf("get: %v", err)
		}
		if l, err := s.Profiles().List(ctx(), store.Query{}); err != nil || len(l.Items)+len(l.Problems) != 0 {
			t.Errorf("list: %v %v", l, err)
		}
		if l, err := s.Profiles().List(ctx(), store.Query{Namespace: "acme"}); err != nil || len(l.Items) != 0 {
			t.Errorf("list of a namespace: %v %v", l, err)
		}
		if n, err := s.Profiles().Names(ctx(), store.Query{}); err != nil || len(n) != 0 {
			t.Errorf("names: %v %v", n, err)
		}
		if _, err := s.Profiles().History(ctx(), "acme/x"); errs.KindOf(err) != errs.KindNotFound {
			t.Errorf("history: %v", err)
		}
		d := canon.Digest([]byte("x"))
		if ok, err := s.HasObject(ctx(), d); ok || err != nil {
			t.Errorf("has object: %v %v", ok, err)
		}
		if _, err := s.GetObject(ctx(), d); errs.KindOf(err) != errs.KindNotFound {
			t.Errorf("get object: %v", err)
		}
		if w, err := s.Check(ctx()); err != nil || len(w) != 0 {
			t.Errorf("check: %v %v", w, err)
		}
		if _, err := s.Profiles().Remove(ctx(), "acme/x"); errs.KindOf(err) != errs.KindNotFound {
			t.Errorf("remove of a missing profile: %v", err)
		}
	}

	t.Run("missing home", func(t *testing.T) {
		home := newHome(t)
		readAll(t, openStore(t, home, filestore.Options{}))
		if _, err := os.Lstat(home); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("reads created the home: %v", err)
		}
	})
	t.Run("empty home", func(t *testing.T) {
		home := t.TempDir()
		readAll(t, openStore(t, home, filestore.Options{}))
		if des, err := os.ReadDir(home); err != nil || len(des) != 0 {
			t.Errorf("reads created %v (%v)", des, err)
		}
	})
}

// TestDanglingLink: a profile file that is a link to nothing is a problem
// of the store, said where it is listed and where it is looked up, not a
// profile that was never stored (which would suggest its own name).
func TestDanglingLink(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	put(t, s, storetest.Profile(t, "acme/x", 1), false)
	link := filepath.Join(home, "profiles", "acme", "gone.yaml")
	if err := os.Symlink("missing.yaml", link); err != nil {
		t.Skipf("cannot make links here: %v", err)
	}
	want := link + ": is a link to missing.yaml, which does not exist"
	_, err := s.Profiles().Get(ctx(), "acme/gone")
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.KindInvalid || len(e.Problems) != 1 || e.Problems[0].String() != want {
		t.Errorf("get = %v, want invalid: %s", err, want)
	}
	l, err := s.Profiles().List(ctx(), store.Query{})
	if err != nil || len(l.Items) != 1 || len(l.Problems) != 1 || l.Problems[0].String() != want {
		t.Errorf("list = %v, problems %v, %v; want acme/x and: %s", names(l.Items), l.Problems, err, want)
	}
}

// TestMisplacedPlan: a plan file copied under another plan's id is
// reported at the key that holds a plan's id, and the hint says to set
// that key; a plan has no name key.
func TestMisplacedPlan(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	a, b := storetest.PlanID(t, 1), storetest.PlanID(t, 2)
	if _, err := s.Plans().Put(ctx(), storetest.Plan(t, a), false); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(home, "plans", b+".yaml")
	writeFile(t, file, readFile(t, filepath.Join(home, "plans", a+".yaml")))
	_, err := s.Plans().Get(ctx(), b)
	wantKind(t, err, errs.KindInvalid, "get of a plan file under another id")
	var e *errs.Error
	if !errors.As(err, &e) || len(e.Problems) != 1 || e.Problems[0].Path != "id" || e.Problems[0].File != file {
		t.Errorf("problems = %v, want one at id in %s", e.Problems, file)
	}
	if want := fmt.Sprintf("set id to %q in %s", b, file); !strings.HasPrefix(e.Hint, want) {
		t.Errorf("hint = %q, want it to start %q", e.Hint, want)
	}
	// A plan id stands bare in messages, as in "plan ID not found".
	if want := "stored plan " + b + " is invalid"; !strings.HasPrefix(e.Error(), want) {
		t.Errorf("error = %q, want it to start %q", e.Error(), want)
	}
	l, err := s.Plans().List(ctx(), store.Query{})
	if err != nil || len(l.Problems) != 1 || l.Problems[0].Path != "id" {
		t.Errorf("list problems = %v, %v; want one at id", l.Problems, err)
	}
}

// TestLinkOutOfTheStore: a stored file (or a folder on the way to it)
// that is a link leading out of the store is refused as a FIFO in its
// place is, as invalid content of the store naming the file, with a hint
// to replace the link; not as an unexpected failure.
func TestLinkOutOfTheStore(t *testing.T) {
	tests := []struct {
		name string
		// plant replaces what the put of acme/x left in home with a link
		// to a copy outside, and returns the file a read then refuses.
		plant func(t *testing.T, home, outside string) string
		read  func(s store.Store) error
	}{
		{
			name: "profile file",
			plant: func(t *testing.T, home, outside string) string {
				return moveOut(t, filepath.Join(home, "profiles", "acme", "x.yaml"), outside)
			},
			read: func(s store.Store) error { _, err := s.Profiles().Get(ctx(), "acme/x"); return err },
		},
		{
			name: "namespace folder",
			plant: func(t *testing.T, home, outside string) string {
				moveOut(t, filepath.Join(home, "profiles", "acme"), outside)
				return filepath.Join(home, "profiles", "acme", "x.yaml")
			},
			read: func(s store.Store) error { _, err := s.Profiles().Get(ctx(), "acme/x"); return err },
		},
		{
			name: "history log",
			plant: func(t *testing.T, home, outside string) string {
				return moveOut(t, filepath.Join(home, "history", "profiles", "acme", "x.log"), outside)
			},
			read: func(s store.Store) error { _, err := s.Profiles().History(ctx(), "acme/x"); return err },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := newHome(t)
			put(t, openStore(t, home, filestore.Options{}), storetest.Profile(t, "acme/x", 1), false)
			file := tt.plant(t, home, t.TempDir())
			err := tt.read(openStore(t, home, filestore.Options{}))
			wantKind(t, err, errs.KindInvalid, "read through a link out of the store")
			var e *errs.Error
			if !errors.As(err, &e) || len(e.Problems) != 1 || e.Problems[0].File != file ||
				!strings.Contains(e.Problems[0].Message, "leads outside the store") {
				t.Errorf("problems = %v, want one naming %s", e.Problems, file)
			}
			if !strings.Contains(e.Hint, "replace the link") || strings.Contains(err.Error(), "escapes from parent") {
				t.Errorf("error %q, hint %q: want plain words and a hint to replace the link", err, e.Hint)
			}
		})
	}
}

// moveOut moves path into the folder outside and leaves a link to it in
// its place; it returns path.
func moveOut(t *testing.T, path, outside string) string {
	t.Helper()
	target := filepath.Join(outside, filepath.Base(path))
	if err := os.Rename(path, target); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Skipf("cannot make links here: %v", err)
	}
	return path
}

func TestLinksAreNeverFollowedForChanges(t *testing.T) {
	outsideProfile := func(t *testing.T) (dir, file, content string) {
		dir = t.TempDir()
		content = "name: acme/x\ndescription: outside\n"
		file = filepath.Join(dir, "x.yaml")
		writeFile(t, file, content)
		return dir, file, content
	}
	mustFail := func(t *testing.T, err error, what string) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s succeeded through a link", what)
		}
	}
	symlink := func(t *testing.T, target, link string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("cannot make links here: %v", err)
		}
	}

	t.Run("namespace folder outside", func(t *testing.T) {
		home := newHome(t)
		dir, file, content := outsideProfile(t)
		symlink(t, dir, filepath.Join(home, "profiles", "acme"))
		s := openStore(t, home, filestore.Options{})
		_, err := s.Profiles().Get(ctx(), "acme/x")
		mustFail(t, err, "get")
		_, err = s.Profiles().Put(ctx(), storetest.Profile(t, "acme/y", 1), false)
		mustFail(t, err, "put of a new name")
		// Said in plain words, not as os.Root's "path escapes from parent".
		if e := (*errs.Error)(nil); !errors.As(err, &e) || !strings.Contains(e.Error(), "leads outside the store") || !strings.Contains(e.Hint, "replace the link") {
			t.Errorf("put through a link out of the store: %v (hint %q)", err, e.Hint)
		}
		_, err = s.Profiles().Put(ctx(), storetest.Profile(t, "acme/x", 1), true)
		mustFail(t, err, "put over a file outside")
		_, err = s.Profiles().Remove(ctx(), "acme/x")
		mustFail(t, err, "remove")
		l, err := s.Profiles().List(ctx(), store.Query{})
		if err != nil || len(l.Items) != 0 || len(l.Problems) != 1 {
			t.Errorf("list = %v, problems %v, %v; want one problem", names(l.Items), l.Problems, err)
		}
		if readFile(t, file) != content {
			t.Error("the file outside changed")
		}
		if des, _ := os.ReadDir(dir); len(des) != 1 {
			t.Errorf("files appeared outside: %v", des)
		}
	})
	t.Run("profile file outside", func(t *testing.T) {
		home := newHome(t)
		_, file, content := outsideProfile(t)
		link := filepath.Join(home, "profiles", "acme", "x.yaml")
		symlink(t, file, link)
		s := openStore(t, home, filestore.Options{})
		_, err := s.Profiles().Get(ctx(), "acme/x")
		mustFail(t, err, "get")
		_, err = s.Profiles().Put(ctx(), storetest.Profile(t, "acme/x", 1), true)
		mustFail(t, err, "put over the link")
		_, err = s.Profiles().Remove(ctx(), "acme/x")
		mustFail(t, err, "remove of the link")
		if readFile(t, file) != content {
			t.Error("the file outside changed")
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the link was replaced or removed: %v", err)
		}
	})
	t.Run("link inside the store", func(t *testing.T) {
		home := newHome(t)
		s := openStore(t, home, filestore.Options{})
		put(t, s, storetest.Profile(t, "acme/x", 1), false)
		symlink(t, "acme", filepath.Join(home, "profiles", "alias"))
		symlink(t, "x.yaml", filepath.Join(home, "profiles", "acme", "y.yaml"))
		_, err := s.Profiles().Put(ctx(), storetest.Profile(t, "alias/x", 1), true)
		mustFail(t, err, "put through a linked namespace")
		_, err = s.Profiles().Put(ctx(), storetest.Profile(t, "acme/y", 1), true)
		mustFail(t, err, "put over a linked file")
		_, err = s.Profiles().Remove(ctx(), "acme/y")
		mustFail(t, err, "remove of a linked file")
		if _, err := s.Profiles().Get(ctx(), "acme/x"); err != nil {
			t.Errorf("the link target was changed: %v", err)
		}
		// A link answering for another name is reported, not listed.
		_, err = s.Profiles().Get(ctx(), "acme/y")
		wantKind(t, err, errs.KindInvalid, "get through a link holding another name")
	})
	for _, sub := range []string{"objects", "history"} {
		t.Run(sub+" folder outside", func(t *testing.T) {
			home := newHome(t)
			dir := t.TempDir()
			symlink(t, dir, filepath.Join(home, sub))
			s := openStore(t, home, filestore.Options{})
			_, err := s.Profiles().Put(ctx(), storetest.Profile(t, "acme/x", 1), false)
			mustFail(t, err, "put")
			if _, err := os.Stat(filepath.Join(home, "profiles", "acme", "x.yaml")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a refused put wrote the profile: %v", err)
			}
			if sub == "objects" {
				_, err = s.PutObject(ctx(), []byte("x"))
				mustFail(t, err, "put object")
			}
			if des, _ := os.ReadDir(dir); len(des) != 0 {
				t.Errorf("files appeared outside: %v", des)
			}
		})
	}
	t.Run("lock file outside", func(t *testing.T) {
		home := newHome(t)
		target := filepath.Join(t.TempDir(), "lock")
		symlink(t, target, filepath.Join(home, ".lock"))
		s := openStore(t, home, filestore.Options{})
		_, err := s.Profiles().Put(ctx(), storetest.Profile(t, "acme/x", 1), false)
		mustFail(t, err, "put")
		if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the lock created a file outside the store: %v", err)
		}
	})
	t.Run("journal outside", func(t *testing.T) {
		home := newHome(t)
		target := filepath.Join(t.TempDir(), "pending")
		writeFile(t, target, "outside\n")
		symlink(t, target, filepath.Join(home, ".pending"))
		s := openStore(t, home, filestore.Options{})
		put(t, s, storetest.Profile(t, "acme/x", 1), false)
		if readFile(t, target) != "outside\n" {
			t.Error("the file outside changed")
		}
		if fi, err := os.Lstat(filepath.Join(home, ".pending")); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			t.Error("the journal is still a link")
		}
	})
}

// TestReadersNeverSeeTornFiles rewrites one profile, alternating a short
// and a long version, while readers read it: each read must be one whole
// version. Writing the file in place fails this test.
func TestReadersNeverSeeTornFiles(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	short := storetest.Profile(t, "acme/x", 1)
	long := storetest.Profile(t, "acme/x", 2)
	long.Description = strings.Repeat("a long description, ", 1000)
	put(t, s, short, false)
	path := filepath.Join(home, "profiles", "acme", "x.yaml")
	shortBytes := readFile(t, path)
	put(t, s, long, true)
	longBytes := readFile(t, path)

	const writes = 100
	done := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	var reads int
	fail := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) < 5 {
			failures = append(failures, fmt.Sprintf(format, a...))
		}
	}
	for range 2 {
		reader := openStore(t, home, filestore.Options{})
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				data, err := os.ReadFile(path)
				if err != nil {
					fail("read: %v", err)
				} else if s := string(data); s != shortBytes && s != longBytes {
					fail("torn read of %d bytes", len(data))
				}
				mu.Lock()
				reads++
				decode := reads%8 == 0 // decoding is slow; the raw reads are the test
				mu.Unlock()
				if !decode {
					continue
				}
				p, err := reader.Profiles().Get(ctx(), "acme/x")
				if err != nil {
					fail("get: %v", err)
				} else if !reflect.DeepEqual(p, short) && !reflect.DeepEqual(p, long) {
					fail("get returned neither version")
				}
			}
		})
	}
	for i := range writes {
		v := short
		if i%2 == 1 {
			v = long
		}
		put(t, s, v, true)
	}
	close(done)
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("after %d reads: %s", reads, strings.Join(failures, "; "))
	}
}

// TestConcurrentWritersLoseNothing runs writers as separate store values
// (as separate processes would be) on distinct names and on one shared
// name.
func TestConcurrentWritersLoseNothing(t *testing.T) {
	home := newHome(t)
	const writers, rounds = 12, 3
	var wg sync.WaitGroup
	errc := make(chan error, 2*writers*rounds)
	digests := make(chan string, writers*rounds)
	for w := range writers {
		own, shared := openStore(t, home, filestore.Options{}), openStore(t, home, filestore.Options{})
		name := fmt.Sprintf("ns%d/own-%d", w%3, w)
		var ownVersions, sharedVersions []*profile.AutomationProfile
		for r := range rounds {
			ownVersions = append(ownVersions, storetest.Profile(t, name, r))
			sharedVersions = append(sharedVersions, storetest.Profile(t, "shared/one", w*rounds+r))
		}
		wg.Go(func() {
			for _, p := range ownVersions {
				if _, err := own.Profiles().Put(ctx(), p, true); err != nil {
					errc <- err
				}
			}
		})
		wg.Go(func() {
			for _, p := range sharedVersions {
				res, err := shared.Profiles().Put(ctx(), p, true)
				if err != nil {
					errc <- err
					continue
				}
				digests <- res.Digest
			}
		})
	}
	wg.Wait()
	close(errc)
	close(digests)
	for err := range errc {
		t.Error(err)
	}

	s := openStore(t, home, filestore.Options{})
	l, err := s.Profiles().List(ctx(), store.Query{})
	if err != nil || len(l.Problems) != 0 {
		t.Fatalf("list: %v, problems %v", err, l.Problems)
	}
	if len(l.Items) != writers+1 {
		t.Errorf("listed %d profiles, want %d: %v", len(l.Items), writers+1, names(l.Items))
	}
	for w := range writers {
		name := fmt.Sprintf("ns%d/own-%d", w%3, w)
		h, err := s.Profiles().History(ctx(), name)
		if err != nil || len(h) != rounds {
			t.Errorf("history of %s has %d entries (%v), want %d", name, len(h), err, rounds)
		}
	}
	var want []string
	for d := range digests {
		want = append(want, d)
	}
	h, err := s.Profiles().History(ctx(), "shared/one")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range h {
		got = append(got, e.Digest)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("shared history has %d entries, want the %d puts that succeeded", len(got), len(want))
	}
	shared, err := s.Profiles().Get(ctx(), "shared/one")
	if err != nil {
		t.Fatal(err)
	}
	if last := h[len(h)-1].Digest; canon.Digest([]byte(readFile(t, filepath.Join(home, "profiles", "shared", "one.yaml")))) != last {
		t.Errorf("the shared profile (%s) is not the last version logged (%s)", shared.Description, last)
	}
	if left := tempFiles(t, home); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestHistoryUsesTheClock(t *testing.T) {
	home := newHome(t)
	start := time.Date(2030, 1, 2, 3, 4, 5, 6, time.UTC)
	tick := start
	s := openStore(t, home, filestore.Options{Now: func() time.Time {
		tick = tick.Add(time.Minute)
		return tick
	}})
	put(t, s, storetest.Profile(t, "acme/x", 1), false)
	put(t, s, storetest.Profile(t, "acme/x", 2), true)
	if _, err := s.Profiles().Remove(ctx(), "acme/x"); err != nil {
		t.Fatal(err)
	}
	h, err := s.Profiles().History(ctx(), "acme/x")
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range h {
		if want := start.Add(time.Duration(i+1) * time.Minute); !e.Time.Equal(want) {
			t.Errorf("entry %d at %s, want %s", i, e.Time, want)
		}
	}
	if len(h) != 3 {
		t.Errorf("history has %d entries, want 3", len(h))
	}
}

func TestHistoryCatchesUpWithFilesItMissed(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	r1 := put(t, s, storetest.Profile(t, "acme/x", 1), false)

	// A version placed by hand (or renamed in by a writer killed before it
	// logged it), in a format of its own.
	hand := storetest.Profile(t, "acme/x", 7)
	hand.Description = "edited by hand"
	path := filepath.Join(home, "profiles", "acme", "x.yaml")
	data := strings.Replace(readFile(t, path), "version 1 of acme/x", "edited by hand", 1)
	data = strings.Replace(data, "auto_strategize: 0.1", "auto_strategize:   0.7 # comment", 1)
	writeFile(t, path, data)
	mtime := time.Date(2029, 5, 6, 7, 8, 9, 0, time.UTC)
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	// A torn append at the end of the log.
	logPath := filepath.Join(home, "history", "profiles", "acme", "x.log")
	f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"digest":"0123`)
	f.Close()
	h, err := s.Profiles().History(ctx(), "acme/x")
	if err != nil || len(h) != 1 {
		t.Fatalf("history with a torn last line = %v, %v; want the one whole entry", h, err)
	}

	r3 := put(t, s, storetest.Profile(t, "acme/x", 3), true)
	if !reflect.DeepEqual(r3.Replaced, hand) {
		t.Errorf("replaced %+v, want the hand-edited version", r3.Replaced)
	}
	h, err = s.Profiles().History(ctx(), "acme/x")
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 3 {
		t.Fatalf("history = %+v, want three entries", h)
	}
	if h[0].Digest != r1.Digest || h[2].Digest != r3.Digest {
		t.Errorf("history = %+v", h)
	}
	if !h[1].Time.Equal(mtime) || h[1].Event != store.EventPut {
		t.Errorf("caught-up entry = %+v, want a put at the file's time %s", h[1], mtime)
	}
	obj, err := s.GetObject(ctx(), h[1].Digest)
	if err != nil {
		t.Fatal(err)
	}
	kept, _, err := profile.DecodeProfile(obj, "object")
	if err != nil || !reflect.DeepEqual(kept, hand) {
		t.Errorf("caught-up version kept as %+v (%v), want the hand-edited one", kept, err)
	}

	// A removal the log missed is recorded before the next put.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	put(t, s, storetest.Profile(t, "acme/x", 4), false)
	h, err = s.Profiles().History(ctx(), "acme/x")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(h); n != 5 || h[3].Event != store.EventRemove || h[3].Digest != r3.Digest {
		t.Errorf("history after a missed removal = %+v", h)
	}
}

func TestDamagedHistoryIsReported(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	put(t, s, storetest.Profile(t, "acme/x", 1), false)
	logPath := filepath.Join(home, "history", "profiles", "acme", "x.log")
	f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("not json\n")
	f.Close()
	_, err = s.Profiles().History(ctx(), "acme/x")
	wantKind(t, err, errs.KindInvalid, "history with a damaged line")
	if ps := problemsOf(err); len(ps) != 1 || ps[0].Line != 2 || ps[0].File != logPath {
		t.Errorf("problems = %+v, want line 2 of %s", ps, logPath)
	}
	// Writes go on.
	put(t, s, storetest.Profile(t, "acme/x", 2), true)
}

// fillLog makes the history log of acme/x, whose only line is its first
// put, at least size bytes long with copies of that line, written directly.
func fillLog(t *testing.T, logPath string, size int) string {
	t.Helper()
	line, _, _ := strings.Cut(readFile(t, logPath), "\n")
	line += "\n"
	data := strings.Repeat(line, size/len(line)+1)
	writeFile(t, logPath, data)
	return data
}

// A history log is never taken past what history reads: a change that
// would do so is refused before it writes anything, and the name's last
// event, all a decision reads, is read from the log's end however long
// the log is.
func TestFullHistoryRefusesChanges(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	v1 := storetest.Profile(t, "acme/x", 1)
	r1 := put(t, s, v1, false)
	logPath := filepath.Join(home, "history", "profiles", "acme", "x.log")
	file := filepath.Join(home, "profiles", "acme", "x.yaml")
	log := fillLog(t, logPath, 16<<20-200)
	doc := readFile(t, file)
	objects, err := os.ReadDir(filepath.Join(home, "objects"))
	if err != nil {
		t.Fatal(err)
	}

	_, err = s.Profiles().Put(ctx(), storetest.Profile(t, "acme/x", 2), true)
	wantKind(t, err, errs.KindInternal, "an update past the log's limit")
	if err == nil || !strings.Contains(err.Error(), "is full") || !strings.Contains(hint(err), "move "+logPath+" out of the store") {
		t.Errorf("refusal = %v (hint %q)", err, hint(err))
	}
	_, err = s.Profiles().Remove(ctx(), "acme/x")
	wantKind(t, err, errs.KindInternal, "a remove past the log's limit")
	if readFile(t, logPath) != log || readFile(t, file) != doc {
		t.Error("a refused change changed the profile or its history")
	}
	if after, _ := os.ReadDir(filepath.Join(home, "objects")); len(after) != len(objects) {
		t.Errorf("a refused change wrote an object: %d objects, were %d", len(after), len(objects))
	}
	// What needs no line goes on.
	if res := put(t, s, v1, true); !res.Unchanged {
		t.Error("an unchanged put under a full history was not unchanged")
	}
	h, err := s.Profiles().History(ctx(), "acme/x")
	if err != nil || len(h) < 100_000 {
		t.Fatalf("history of a full log: %d entries, %v", len(h), err)
	}
	last, ok, err := s.Profiles().LastEvent(ctx(), "acme/x")
	if err != nil || !ok || !last.Puts(r1.Digest) {
		t.Errorf("last event of a full log = %+v, %v, %v", last, ok, err)
	}

	// A log already past the limit (written before the limit was kept, or
	// by hand) cannot be read whole, but its last event can.
	fillLog(t, logPath, 17<<20)
	_, err = s.Profiles().History(ctx(), "acme/x")
	wantKind(t, err, errs.KindInvalid, "history of a log past the limit")
	if last, ok, err := s.Profiles().LastEvent(ctx(), "acme/x"); err != nil || !ok || !last.Puts(r1.Digest) {
		t.Errorf("last event of a log past the limit = %+v, %v, %v", last, ok, err)
	}
	_, err = s.Profiles().Put(ctx(), storetest.Profile(t, "acme/x", 2), true)
	wantKind(t, err, errs.KindInternal, "an update of a log past the limit")

	// Moved out of the store, as the hint says, the log starts afresh.
	if err := os.Rename(logPath, filepath.Join(t.TempDir(), "x.log")); err != nil {
		t.Fatal(err)
	}
	r2 := put(t, s, storetest.Profile(t, "acme/x", 2), true)
	h, err = s.Profiles().History(ctx(), "acme/x")
	if err != nil || len(h) != 2 || !h[0].Puts(r1.Digest) || !h[1].Puts(r2.Digest) {
		t.Errorf("history after the log was moved out = %+v, %v", h, err)
	}
}

func hint(err error) string {
	var e *errs.Error
	if errors.As(err, &e) {
		return e.Hint
	}
	return ""
}

func TestDamagedObjectIsAnError(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	d, err := s.PutObject(ctx(), []byte("original"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, "objects", d), "tampered")
	_, err = s.GetObject(ctx(), d)
	wantKind(t, err, errs.KindInternal, "get of a tampered object")
}

// A file under an object's name that does not hold the object (damaged,
// or placed there) is not taken for it: a put that needs the object writes
// it again, so the history never cites an object holding something else.
func TestDamagedObjectIsWrittenAgain(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	d, err := s.PutObject(ctx(), []byte("original"))
	if err != nil {
		t.Fatal(err)
	}
	obj := filepath.Join(home, "objects", d)
	for _, damage := range []string{"tampered", "other\n"} { // the same size, and another
		writeFile(t, obj, damage)
		if got, err := s.PutObject(ctx(), []byte("original")); err != nil || got != d {
			t.Fatalf("put over %q = %s, %v", damage, got, err)
		}
		if data, err := s.GetObject(ctx(), d); err != nil || string(data) != "original" {
			t.Errorf("object after a put over %q = %q, %v", damage, data, err)
		}
	}

	v1, v2 := storetest.Profile(t, "acme/x", 1), storetest.Profile(t, "acme/x", 2)
	d1, err := profile.Digest(v1)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, "objects", d1), "garbage\n")
	put(t, s, v1, false)
	put(t, s, v2, true)
	h, err := s.Profiles().History(ctx(), "acme/x")
	if err != nil || len(h) != 2 || h[0].Digest != d1 {
		t.Fatalf("history = %+v, %v", h, err)
	}
	if _, err := s.GetObject(ctx(), d1); err != nil {
		t.Errorf("the first version's object: %v", err)
	}
	if tmp := tempFiles(t, home); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// An unchanged put keeps the object of the version in force: one deleted
// or damaged is written again, with a warning, and the file and the
// history stay as they were.
func TestUnchangedPutRestoresItsObject(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	p := storetest.Profile(t, "acme/x", 1)
	res := put(t, s, p, false)
	obj := filepath.Join(home, "objects", res.Digest)
	logPath := filepath.Join(home, "history", "profiles", "acme", "x.log")
	file := filepath.Join(home, "profiles", "acme", "x.yaml")
	log, doc := readFile(t, logPath), readFile(t, file)
	for _, damage := range []func(){
		func() { os.Remove(obj) },
		func() { writeFile(t, obj, "garbage\n") },
	} {
		damage()
		got := put(t, s, p, true)
		if !got.Unchanged || len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "was written again") {
			t.Errorf("unchanged put over a lost object: unchanged %v, warnings %q", got.Unchanged, got.Warnings)
		}
		if _, err := s.GetObject(ctx(), res.Digest); err != nil {
			t.Errorf("the object after an unchanged put: %v", err)
		}
		if readFile(t, logPath) != log || readFile(t, file) != doc {
			t.Error("an unchanged put changed the file or the history")
		}
	}
	// A sound object is left alone, and nothing is said.
	if got := put(t, s, p, true); !got.Unchanged || len(got.Warnings) != 0 {
		t.Errorf("unchanged put over a sound object: unchanged %v, warnings %q", got.Unchanged, got.Warnings)
	}
}

func TestNothingWorldWritable(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	put(t, s, storetest.Profile(t, "acme/x", 1), false)
	put(t, s, storetest.Profile(t, "acme/x", 2), true)
	checkModes(t, home, 0o644, 0o755)
}

// checkModes fails when any file or folder under home has permissions
// beyond file or dir.
func checkModes(t *testing.T, home string, file, dir fs.FileMode) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		limit := file
		if fi.IsDir() {
			limit = dir
		}
		if extra := fi.Mode().Perm() &^ limit; extra != 0 {
			t.Errorf("%s has mode %s, more than %s", path, fi.Mode().Perm(), limit)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 8 {
		t.Fatalf("only %d entries checked", n)
	}
}

func TestCheckWarnsAboutOpenFolders(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	put(t, s, storetest.Profile(t, "acme/x", 1), false)
	profiles := filepath.Join(home, "profiles")
	namespace := filepath.Join(profiles, "acme")
	for _, dir := range []string{home, profiles, namespace} {
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	w, err := s.Check(ctx())
	if err != nil {
		t.Fatal(err)
	}
	if len(w) != 3 || !strings.Contains(w[0].Message, home+" is world-writable (drwxrwxrwx)") || !strings.Contains(w[1].Message, profiles+" is world-writable") ||
		!strings.Contains(w[2].Message, namespace+" is world-writable") {
		t.Errorf("warnings = %q", w)
	}
	// Each names the folder it is about.
	if len(w) == 3 && (w[0].Where != home || w[1].Where != profiles || w[2].Where != namespace) {
		t.Errorf("the warnings are about %q, %q and %q; want %s, %s and %s", w[0].Where, w[1].Where, w[2].Where, home, profiles, namespace)
	}
}

// TestCheckLazily: checked lazily, the store warns about its own folders at
// once, and about a profile namespace folder only when it first reads or
// writes in it, once; a lookup in one namespace says nothing of another,
// and a listing of every namespace checks each.
func TestCheckLazily(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	for _, name := range []string{"acme/x", "other/y", "calm/z"} {
		put(t, s, storetest.Profile(t, name, 1), false)
	}
	profiles := filepath.Join(home, "profiles")
	acme, other := filepath.Join(profiles, "acme"), filepath.Join(profiles, "other")
	for _, dir := range []string{profiles, acme, other} {
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	s = openStore(t, home, filestore.Options{})
	lc, ok := s.(store.LazyChecker)
	if !ok {
		t.Fatal("the file store does not check lazily")
	}
	var later []string
	w, err := lc.CheckLazily(ctx(), func(w store.Warning) { later = append(later, w.Message) })
	if err != nil || len(w) != 1 || !strings.Contains(w[0].Message, profiles+" is world-writable") {
		t.Fatalf("CheckLazily = %q, %v", w, err)
	}
	if len(later) != 0 {
		t.Fatalf("warned before any namespace was used: %q", later)
	}
	for range 2 {
		if _, err := s.Profiles().Get(ctx(), "acme/x"); err != nil {
			t.Fatal(err)
		}
	}
	if len(later) != 1 || !strings.Contains(later[0], acme+" is world-writable") {
		t.Fatalf("after two lookups in acme: %q", later)
	}
	if _, err := s.Profiles().Get(ctx(), "calm/z"); err != nil || len(later) != 1 {
		t.Fatalf("a lookup in a sound namespace: %q, %v", later, err)
	}
	// Reading a profile's history reads in its namespace too.
	lc2 := openStore(t, home, filestore.Options{}).(store.LazyChecker)
	var hist []string
	if _, err := lc2.CheckLazily(ctx(), func(w store.Warning) { hist = append(hist, w.Message) }); err != nil {
		t.Fatal(err)
	}
	if _, err := lc2.(store.Store).Profiles().History(ctx(), "other/y"); err != nil || len(hist) != 1 || !strings.Contains(hist[0], other+" is world-writable") {
		t.Fatalf("history of other/y: %q, %v", hist, err)
	}
	if _, err := s.Profiles().Names(ctx(), store.Query{}); err != nil {
		t.Fatal(err)
	}
	if len(later) != 2 || !strings.Contains(later[1], other+" is world-writable") {
		t.Fatalf("after listing every namespace: %q", later)
	}
	// Checked eagerly, as before, every namespace at once.
	if w, err := s.Check(ctx()); err != nil || len(w) != 3 {
		t.Errorf("Check = %q, %v", w, err)
	}
}

// TestCheckLazilyFiles: a lookup by name checks the file it read, once; a
// file others can write to, or another user's, is one they can rewrite
// whatever its folder allows. A listing does not check each file.
func TestCheckLazilyFiles(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	put(t, s, storetest.Profile(t, "acme/x", 1), false)
	put(t, s, storetest.Profile(t, "acme/y", 1), false)
	file := filepath.Join(home, "profiles", "acme", "x.yaml")
	if err := os.Chmod(file, 0o666); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, home, filestore.Options{})
	var later []string
	if _, err := s.(store.LazyChecker).CheckLazily(ctx(), func(w store.Warning) { later = append(later, w.Message) }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Profiles().List(ctx(), store.Query{}); err != nil || len(later) != 0 {
		t.Fatalf("a listing: %q, %v", later, err)
	}
	for range 2 {
		if _, err := s.Profiles().Get(ctx(), "acme/x"); err != nil {
			t.Fatal(err)
		}
	}
	want := "store file " + file + " is world-writable (-rw-rw-rw-): any user on this machine can change what it says; run 'chmod o-w " + file + "'"
	if len(later) != 1 || later[0] != want {
		t.Fatalf("after two lookups of acme/x: %q, want %q", later, want)
	}
	if _, err := s.Profiles().Get(ctx(), "acme/y"); err != nil || len(later) != 1 {
		t.Errorf("a lookup of a sound file: %q, %v", later, err)
	}
	// A profile's history log and its folder, which a verdict on a plan
	// reads (the digests a name has held), are checked as they are read.
	logDir := filepath.Join(home, "history", "profiles", "acme")
	log := filepath.Join(logDir, "y.log")
	if err := os.Chmod(log, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(logDir, 0o777); err != nil {
		t.Fatal(err)
	}
	later = nil
	if _, err := s.Profiles().History(ctx(), "acme/y"); err != nil {
		t.Fatal(err)
	}
	if len(later) != 2 || !strings.Contains(later[0], "store folder "+logDir+" is world-writable") || !strings.Contains(later[1], "store file "+log+" is world-writable") {
		t.Errorf("reading the history of acme/y: %q", later)
	}
	// A link in a file's place, even one that stays in the home and ends
	// at a sound file, is not the store's: whoever can change the link or
	// a folder on its way chooses what is read.
	drop := filepath.Join(home, "drop")
	if err := os.Mkdir(drop, 0o755); err != nil {
		t.Fatal(err)
	}
	yFile := filepath.Join(home, "profiles", "acme", "y.yaml")
	if err := os.Rename(yFile, filepath.Join(drop, "y.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../drop/y.yaml", yFile); err != nil {
		t.Fatal(err)
	}
	s = openStore(t, home, filestore.Options{})
	later = nil
	if _, err := s.(store.LazyChecker).CheckLazily(ctx(), func(w store.Warning) { later = append(later, w.Message) }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Profiles().Get(ctx(), "acme/y"); err != nil {
		t.Fatal(err)
	}
	if len(later) != 1 || later[0] != "store file "+yFile+" is a link to ../../drop/y.yaml: whoever can change the link, or a folder on its way, can change what it says; put the file itself in its place" {
		t.Errorf("a lookup through a link: %q", later)
	}
}

// TestCheckFoldersDecisionsRead: the plans and actions folders are checked
// like the profiles', and a namespace that is a link is checked where it
// leads: a decision reads through both.
func TestCheckFoldersDecisionsRead(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	put(t, s, storetest.Profile(t, "team/x", 1), false)
	plans := filepath.Join(home, "plans")
	if err := os.MkdirAll(plans, 0o755); err != nil {
		t.Fatal(err)
	}
	// team becomes a link to a folder anyone can write.
	team := filepath.Join(home, "profiles", "team")
	shared := filepath.Join(home, "profiles", ".shared")
	if err := os.Rename(team, shared); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".shared", team); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{plans, shared} {
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	s = openStore(t, home, filestore.Options{})
	var later []string
	w, err := s.(store.LazyChecker).CheckLazily(ctx(), func(w store.Warning) { later = append(later, w.Message) })
	if err != nil || len(w) != 1 || !strings.Contains(w[0].Message, plans+" is world-writable") {
		t.Fatalf("CheckLazily = %q, %v", w, err)
	}
	if _, err := s.Profiles().Get(ctx(), "team/x"); err != nil {
		t.Fatal(err)
	}
	if len(later) != 1 || !strings.Contains(later[0], team+" is world-writable") {
		t.Fatalf("a lookup through a namespace link: %q", later)
	}
	if w, err := s.Check(ctx()); err != nil || len(w) != 2 || !strings.Contains(w[1].Message, team+" is world-writable") {
		t.Errorf("Check = %q, %v", w, err)
	}
}

// TestUnchangedPutWritesNothing: an update with the stored content leaves
// every file of the home as it was, not merely equal in content: nothing
// is renamed over the profile, and the history log gets no line.
func TestUnchangedPutWritesNothing(t *testing.T) {
	home := newHome(t)
	s := openStore(t, home, filestore.Options{})
	put(t, s, storetest.Profile(t, "acme/same", 1), false)
	before := snapshotHome(t, home)
	res := put(t, s, storetest.Profile(t, "acme/same", 1), true)
	if !res.Unchanged {
		t.Fatal("an update with the stored content does not report unchanged")
	}
	after := snapshotHome(t, home)
	if len(after) != len(before) {
		t.Errorf("files before %d, after %d", len(before), len(after))
	}
	for path, b := range before {
		a, ok := after[path]
		switch {
		case !ok:
			t.Errorf("%s is gone", path)
		case !os.SameFile(a, b) || !a.ModTime().Equal(b.ModTime()) || a.Size() != b.Size():
			t.Errorf("%s was rewritten", path)
		}
	}
}

// snapshotHome maps every file under home but the lock to what stat says
// of it.
func snapshotHome(t *testing.T, home string) map[string]fs.FileInfo {
	t.Helper()
	out := map[string]fs.FileInfo{}
	err := filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == ".lock" {
			return err
		}
		fi, err := os.Stat(path)
		out[path] = fi
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
