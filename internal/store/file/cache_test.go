package file

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/store/storetest"
)

// The tests of the derived cache prove that it is used while stored files
// are unchanged, and that no change to a file, however it is made, lets the
// cached form answer for it. To tell the two apart, a test rewrites the
// cached entries so that each says "from the cache" in its description: a
// listing that shows those words used the cache; one that shows the file's
// own description read the file.

const fromCache = "from the cache"

// cacheStore opens a file store that lists with the derived cache.
func cacheStore(t *testing.T, home string) *Store {
	t.Helper()
	s, err := Open(home, Options{LockTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func testProfile(name, desc string) *profile.AutomationProfile {
	return &profile.AutomationProfile{
		Name: name, Description: desc, SchemaVersion: profile.SchemaVersion,
		AutoApply: 0.5, Safety: profile.DefaultSafetyProfile(),
	}
}

// writeProfile writes a profile file as the store would, without history.
func writeProfile(t *testing.T, home, name, desc string) string {
	t.Helper()
	return storetest.WriteProfileFile(t, home, testProfile(name, desc))
}

// descriptions lists the store and returns each profile's description by
// name, and the number of problems.
func descriptions(t *testing.T, s store.Store, q store.Query) (map[string]string, int) {
	t.Helper()
	l, err := s.Profiles().List(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range l.Items {
		out[p.Name] = p.Description
	}
	return out, len(l.Problems)
}

func cachePath(home string) string { return filepath.Join(home, cacheDir, "profiles"+cacheExt) }

// cachedNames returns the names the cache file holds, or nil when it is
// missing or unusable.
func cachedNames(t *testing.T, home string) []string {
	t.Helper()
	data, err := os.ReadFile(cachePath(home))
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range parseCache(data, "profiles", store.Profiles.Codec.Version()) {
		names = append(names, e.name)
	}
	return names
}

// markCache rewrites every cached entry to say fromCache, keeping the
// content digests, so a listing that uses an entry shows it.
func markCache(t *testing.T, home string) {
	t.Helper()
	data, err := os.ReadFile(cachePath(home))
	if err != nil {
		t.Fatal(err)
	}
	entries := parseCache(data, "profiles", store.Profiles.Codec.Version())
	if len(entries) == 0 {
		t.Fatal("the cache holds nothing to mark")
	}
	for i, e := range entries {
		p, err := store.Profiles.Codec.Read(e.payload)
		if err != nil {
			t.Fatal(err)
		}
		p.Description = fromCache
		entries[i].payload = store.Profiles.Codec.Append(nil, p)
	}
	if err := os.WriteFile(cachePath(home), encodeCache(entries, "profiles", store.Profiles.Codec.Version()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCacheIsUsedWhileFilesAreUnchanged(t *testing.T) {
	home := t.TempDir()
	writeProfile(t, home, "acme/a", "file a")
	writeProfile(t, home, "acme/b", "file b")
	s := cacheStore(t, home)
	if got, _ := descriptions(t, s, store.Query{}); got["acme/a"] != "file a" {
		t.Fatalf("first listing: %v", got)
	}
	if names := cachedNames(t, home); !reflect.DeepEqual(names, []string{"acme/a", "acme/b"}) {
		t.Fatalf("cached %v after the first listing", names)
	}
	markCache(t, home)
	got, _ := descriptions(t, s, store.Query{})
	if got["acme/a"] != fromCache || got["acme/b"] != fromCache {
		t.Fatalf("unchanged files were not served from the cache: %v", got)
	}
}

// TestCacheNeverShadowsAChangedFile changes a cached file in every way a
// person or a program might and checks that the listing reads the file.
func TestCacheNeverShadowsAChangedFile(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, home, path string)
		want   string // the description listed for acme/a; "" when it is not listed
		probs  int
	}{
		{"same-size edit in place", func(t *testing.T, home, path string) {
			rewriteInPlace(t, path, "file A") // as long as "file a"
		}, "file A", 0},
		{"same-size edit in place, modification time restored", func(t *testing.T, home, path string) {
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			rewriteInPlace(t, path, "file A")
			if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, "file A", 0},
		{"replaced by rename, modification time restored", func(t *testing.T, home, path string) {
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			data, _, _ := profile.Encode(testProfile("acme/a", "file A"))
			tmp := path + ".new"
			if err := os.WriteFile(tmp, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(tmp, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}, "file A", 0},
		{"deleted", func(t *testing.T, home, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, "", 0},
		{"truncated", func(t *testing.T, home, path string) {
			if err := os.Truncate(path, 0); err != nil {
				t.Fatal(err)
			}
		}, "", 1},
		{"replaced by another profile's file", func(t *testing.T, home, path string) {
			other := filepath.Join(filepath.Dir(path), "b.yaml")
			data, err := os.ReadFile(other)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}, "", 1}, // its name field says acme/b
		{"updated through the store", func(t *testing.T, home, path string) {
			s := cacheStore(t, home)
			if _, err := s.Profiles().Put(context.Background(), testProfile("acme/a", "file A"), true); err != nil {
				t.Fatal(err)
			}
		}, "file A", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			path := writeProfile(t, home, "acme/a", "file a")
			writeProfile(t, home, "acme/b", "file b")
			s := cacheStore(t, home)
			descriptions(t, s, store.Query{})
			markCache(t, home)
			tt.change(t, home, path)
			got, probs := descriptions(t, s, store.Query{})
			if got["acme/a"] != tt.want || probs != tt.probs {
				t.Errorf("acme/a listed as %q with %d problems, want %q with %d", got["acme/a"], probs, tt.want, tt.probs)
			}
			if got["acme/b"] != fromCache {
				t.Errorf("the unchanged acme/b was not served from the cache: %q", got["acme/b"])
			}
			// The listing also brought the cache up to date: a second one
			// agrees with it.
			again, probs2 := descriptions(t, s, store.Query{})
			if again["acme/a"] != tt.want || probs2 != tt.probs {
				t.Errorf("second listing: acme/a %q with %d problems", again["acme/a"], probs2)
			}
		})
	}
}

// rewriteInPlace replaces a profile's description with one of the same
// length, writing into the same file (same inode, same size).
func rewriteInPlace(t *testing.T, path, desc string) {
	t.Helper()
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data, _, _ := profile.Encode(testProfile("acme/a", desc))
	if len(data) != len(old) {
		t.Fatalf("the edit changes the size: %d to %d bytes", len(old), len(data))
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(data, 0); err != nil {
		t.Fatal(err)
	}
}

// TestEntryAnswersOnlyForItsContent tests the check the tests above rely
// on: an entry stands for a file only when the file's content has the
// digest the entry records, whatever else is the same.
func TestEntryAnswersOnlyForItsContent(t *testing.T) {
	c := &docCache{old: []cacheEntry{{name: "acme/a", digest: sha256.Sum256([]byte("v1")), payload: []byte("p")}}}
	c.state = make([]entryState, 1)
	i, ok := c.lookup("acme/a")
	if !ok {
		t.Fatal("entry not found")
	}
	if _, ok := c.check(i, sha256.Sum256([]byte("v2"))); ok || c.state[i] != stale {
		t.Error("an entry answered for other content")
	}
	if p, ok := c.check(i, sha256.Sum256([]byte("v1"))); !ok || string(p) != "p" || c.state[i] != valid {
		t.Error("an entry did not answer for its own content")
	}
}

// TestFilesJustWrittenAreCached checks that the cache needs no margin of
// time: a file written a moment ago is cached, and an edit in place at
// once afterwards, of the same size and with the times put back, is read.
func TestFilesJustWrittenAreCached(t *testing.T) {
	home := t.TempDir()
	path := writeProfile(t, home, "acme/a", "file a")
	s := cacheStore(t, home)
	descriptions(t, s, store.Query{})
	if names := cachedNames(t, home); !reflect.DeepEqual(names, []string{"acme/a"}) {
		t.Fatalf("a file written just now was not cached: %v", names)
	}
	markCache(t, home)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	rewriteInPlace(t, path, "file A")
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got, _ := descriptions(t, s, store.Query{}); got["acme/a"] != "file A" {
		t.Errorf("an edit made in the same instant was shadowed: %q", got["acme/a"])
	}
}

func TestUnusableCachesAreIgnoredAndReplaced(t *testing.T) {
	valid := func(t *testing.T, home string) []byte {
		data, err := os.ReadFile(cachePath(home))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	tests := []struct {
		name  string
		spoil func(t *testing.T, home string)
	}{
		{"garbage", func(t *testing.T, home string) {
			os.WriteFile(cachePath(home), []byte("not a cache at all"), 0o644)
		}},
		{"empty", func(t *testing.T, home string) { os.WriteFile(cachePath(home), nil, 0o644) }},
		{"torn", func(t *testing.T, home string) {
			data := valid(t, home)
			os.WriteFile(cachePath(home), data[:len(data)/2], 0o644)
		}},
		{"one byte changed", func(t *testing.T, home string) {
			data := valid(t, home)
			data[len(data)/2] ^= 0x20
			os.WriteFile(cachePath(home), data, 0o644)
		}},
		{"newer format", func(t *testing.T, home string) {
			entries := parseCache(valid(t, home), "profiles", store.Profiles.Codec.Version())
			data := encodeCache(entries, "profiles", store.Profiles.Codec.Version())
			// The format number follows the magic; the checksum is redone.
			data = data[:len(data)-4]
			data[len(cacheMagic)] = cacheFormat + 1
			os.WriteFile(cachePath(home), appendChecksum(data), 0o644)
		}},
		{"newer profile codec", func(t *testing.T, home string) {
			entries := parseCache(valid(t, home), "profiles", store.Profiles.Codec.Version())
			os.WriteFile(cachePath(home), encodeCache(entries, "profiles", store.Profiles.Codec.Version()+1), 0o644)
		}},
		{"another kind's", func(t *testing.T, home string) {
			entries := parseCache(valid(t, home), "profiles", store.Profiles.Codec.Version())
			os.WriteFile(cachePath(home), encodeCache(entries, "actions", store.Profiles.Codec.Version()), 0o644)
		}},
		{"a folder", func(t *testing.T, home string) {
			os.Remove(cachePath(home))
			os.Mkdir(cachePath(home), 0o755)
		}},
		{"deleted", func(t *testing.T, home string) { os.RemoveAll(filepath.Join(home, cacheDir)) }},
	}
	if runtime.GOOS != "windows" {
		tests = append(tests, struct {
			name  string
			spoil func(t *testing.T, home string)
		}{"writable by others", func(t *testing.T, home string) {
			markCache(t, home)
			os.Chmod(cachePath(home), 0o666)
		}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			writeProfile(t, home, "acme/a", "file a")
			s := cacheStore(t, home)
			descriptions(t, s, store.Query{})
			tt.spoil(t, home)
			got, probs := descriptions(t, s, store.Query{})
			if got["acme/a"] != "file a" || probs != 0 {
				t.Fatalf("listed %v with %d problems", got, probs)
			}
			if tt.name == "a folder" {
				return // nothing replaces a folder the store did not make
			}
			if names := cachedNames(t, home); !reflect.DeepEqual(names, []string{"acme/a"}) {
				t.Errorf("the cache was not rebuilt: holds %v", names)
			}
		})
	}
}

func appendChecksum(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(body, crc32.ChecksumIEEE(body))
}

// TestFilteredListingKeepsOtherEntries lists one namespace and checks the
// entries of the others are kept for the next full listing.
func TestFilteredListingKeepsOtherEntries(t *testing.T) {
	home := t.TempDir()
	writeProfile(t, home, "acme/a", "file a")
	writeProfile(t, home, "beta/b", "file b")
	s := cacheStore(t, home)
	descriptions(t, s, store.Query{})
	markCache(t, home)
	rewriteInPlaceNamed(t, home, "acme/a", "file A")
	got, _ := descriptions(t, s, store.Query{Namespace: "acme"})
	if len(got) != 1 || got["acme/a"] != "file A" {
		t.Fatalf("namespace listing: %v", got)
	}
	if names := cachedNames(t, home); !reflect.DeepEqual(names, []string{"acme/a", "beta/b"}) {
		t.Errorf("cache holds %v", names)
	}
	if got, _ := descriptions(t, s, store.Query{}); got["beta/b"] != fromCache {
		t.Errorf("the other namespace's entry was lost: %v", got)
	}
}

func rewriteInPlaceNamed(t *testing.T, home, name, desc string) {
	t.Helper()
	path := filepath.Join(home, "profiles", filepath.FromSlash(name)+".yaml")
	old, _ := os.ReadFile(path)
	data, _, _ := profile.Encode(testProfile(name, desc))
	if len(data) != len(old) {
		t.Fatalf("the edit changes the size")
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestNoCacheOptionWritesNoCache(t *testing.T) {
	home := t.TempDir()
	writeProfile(t, home, "acme/a", "file a")
	s, _ := Open(home, Options{NoCache: true})
	descriptions(t, s, store.Query{})
	if _, err := os.Stat(filepath.Join(home, cacheDir)); !os.IsNotExist(err) {
		t.Errorf("NoCache made %s: %v", cacheDir, err)
	}
}

// TestListingsAgreeWithAndWithoutCache lists a varied store both ways and
// through a second, cached listing: the results must be equal.
func TestListingsAgreeWithAndWithoutCache(t *testing.T) {
	home := t.TempDir()
	for i := range 60 {
		p := variedProfile(i)
		data, _, err := profile.Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(home, "profiles", filepath.FromSlash(p.Name)+".yaml")
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plain, _ := Open(home, Options{NoCache: true})
	want, err := plain.Profiles().List(context.Background(), store.Query{})
	if err != nil || len(want.Items) != 60 {
		t.Fatalf("listed %d: %v", len(want.Items), err)
	}
	s := cacheStore(t, home)
	for round := range 2 {
		got, err := s.Profiles().List(context.Background(), store.Query{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("listing %d with the cache differs from the files", round+1)
		}
	}
	if n := len(cachedNames(t, home)); n != 60 {
		t.Fatalf("cache holds %d entries, want 60", n)
	}
}

func variedProfile(i int) *profile.AutomationProfile {
	p := testProfile(fmt.Sprintf("ns%d/p-%03d", i%4, i), fmt.Sprintf("profile %d: ünïcode, \"quotes\"", i))
	for g, gate := range profile.Gates {
		gate.Set(p, float64((i+g)%11)/10)
	}
	if i%2 == 0 {
		p.Safety.AllowedSkillCategories = []string{"code", "docs"}
		c := 12.5 + float64(i)
		p.Safety.MaxCostPerPlan = &c
	}
	if i%3 == 0 {
		n := i
		p.Guards = &profile.AutomationGuard{MaxToolCallsPerStep: &n, ToolDenylist: []string{"rm"}, RequireApprovalForApply: true}
		if i%2 == 0 {
			p.Guards.ToolAllowlist = []string{}
		}
	}
	return p
}

// TestConcurrentListingsAndWrites lists from many goroutines while profiles
// are updated: every listing must see whole profiles, and the cache left
// behind must agree with the files.
func TestConcurrentListingsAndWrites(t *testing.T) {
	home := t.TempDir()
	for i := range 20 {
		writeProfile(t, home, fmt.Sprintf("acme/p%02d", i), "v0")
	}
	s := cacheStore(t, home)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 10 {
				if w == 0 {
					p := testProfile(fmt.Sprintf("acme/p%02d", i), fmt.Sprintf("v%d", i+1))
					if _, err := s.Profiles().Put(context.Background(), p, true); err != nil {
						t.Error(err)
					}
					continue
				}
				l, err := s.Profiles().List(context.Background(), store.Query{})
				if err != nil || len(l.Items) != 20 || len(l.Problems) != 0 {
					t.Errorf("listed %d with %v: %v", len(l.Items), l.Problems, err)
				}
			}
		})
	}
	wg.Wait()
	got, _ := descriptions(t, s, store.Query{})
	plain, _ := Open(home, Options{NoCache: true})
	want, _ := descriptions(t, plain, store.Query{})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after concurrent use the cache says %v, the files %v", got, want)
	}
}

// TestListingManyNamespaces lists more namespaces than a listing keeps
// folders open: those past the bound are read through the home, and every
// profile is listed, from the files and then from the cache.
func TestListingManyNamespaces(t *testing.T) {
	home := t.TempDir()
	n := maxOpenDirs + 20
	for i := range n {
		writeProfile(t, home, fmt.Sprintf("ns%03d/p", i), fmt.Sprintf("profile %d", i))
	}
	s := cacheStore(t, home)
	for round := range 2 {
		got, probs := descriptions(t, s, store.Query{})
		last := fmt.Sprintf("ns%03d/p", n-1)
		if len(got) != n || probs != 0 || got[last] != fmt.Sprintf("profile %d", n-1) {
			t.Fatalf("listing %d: %d profiles, %d problems", round+1, len(got), probs)
		}
	}
}
