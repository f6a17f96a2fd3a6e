package file

import (
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/internal/store"
)

// The derived cache keeps the decoded documents of one kind in a single
// file, .cache/<kind folder>.idx under the home, so that a listing does not
// parse every stored file again:
//
//   - It is never authoritative. Each entry records the sha256 of the bytes
//     it was decoded from, and a listing reads every file it lists and
//     hashes it (hashing costs a hundredth of parsing): an entry is used
//     only for a file whose content has that digest, that is, for the very
//     bytes it was decoded from. A file changed in any way, however its
//     size, times or inode were kept or restored, and even with its cache
//     entry's metadata rewritten to match, is parsed again; so is a file
//     changed in the same clock tick as it was cached.
//   - It is rebuilt by whichever listing finds it out of date, written to a
//     temporary file and renamed over the old one, so a reader (readers
//     take no lock) sees a whole old or a whole new cache; when two
//     listings refresh it at once, the last rename wins, which is as good as
//     the other.
//   - It may be deleted at any time. A cache that cannot be read, does not
//     check out (checksum, size), was written in another format or by
//     another build of agents, or is not a regular file owned by the user
//     and writable by no one else, is ignored and replaced.
//
// What the digest cannot stop is a person with the user's own rights who
// rewrites an entry's decoded form and keeps its digest: they could as well
// edit the profile itself. Nothing is decided from the cache: show, the
// checks and the hooks read the file.
//
// Writes through the store need not touch it: a file they change no longer
// has the digest its entry records. A single-document lookup never reads
// it; opening and parsing the one file is cheaper than reading an index of
// all of them.
const (
	cacheDir    = ".cache"
	cacheExt    = ".idx"
	cacheMagic  = "agents-cache\n"
	cacheFormat = 2 // the layout below; each codec has its own version too

	// maxCacheSize bounds what a cache read may allocate.
	maxCacheSize = 256 << 20
)

// cacheEntry is one decoded document in a cache file.
type cacheEntry struct {
	name    string
	digest  [sha256.Size]byte // of the file content it was decoded from
	payload []byte            // the codec's encoding, still to be read
}

// docCache is the cache of one kind during one listing. Its methods are
// not safe for concurrent use.
type docCache struct {
	path  string       // relative to the home
	old   []cacheEntry // what the cache file held, sorted by name
	state []entryState // what this listing found of each old entry
	fresh []cacheEntry // documents decoded by this listing
}

// entryState is what a listing found of an entry of the cache file.
type entryState uint8

const (
	unvisited entryState = iota // not listed (filtered out): kept as it is
	valid                       // its file still has the content it records
	stale                       // its file changed, went, or cannot be read
)

// producer identifies the build that writes a cache: a cache written by
// another build (whose decoder may judge files differently) is not used.
var producer = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return strings.Join([]string{exe, itoa(fi.Size()), itoa(fi.ModTime().UnixNano())}, "\x00")
})

func itoa(n int64) string { return string(binary.AppendVarint(nil, n)) }

// openCache reads the cache of kind k, or returns nil when the kind has no
// codec or the system cannot tell who owns the cache file. An unusable
// cache file is an empty cache.
func openCache[T any](s *Store, r *os.Root, k *kind[T]) *docCache {
	if k.Codec == nil || s.noCache || !cacheSupported || producer() == "" {
		return nil
	}
	c := &docCache{path: filepath.Join(cacheDir, k.Name+cacheExt)}
	c.old = readCacheFile(r, c.path, k.Name, k.Codec.Version())
	c.state = make([]entryState, len(c.old))
	return c
}

// readCacheFile returns the entries of a cache file, or nil when it is
// missing or unusable for any reason.
func readCacheFile(r *os.Root, rel, kind string, version uint32) []cacheEntry {
	f, fi, err := safefile.OpenIn(r, rel)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi.Size() > maxCacheSize || !ownedPrivately(fi) {
		return nil
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil
	}
	return parseCache(data, kind, version)
}

// parseCache checks and splits the bytes of a cache file.
func parseCache(data []byte, kind string, version uint32) []cacheEntry {
	if len(data) < len(cacheMagic)+4 {
		return nil
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil
	}
	rd := store.NewReader(body)
	if string(rd.Bytes(len(cacheMagic))) != cacheMagic || rd.Uint32() != cacheFormat ||
		rd.Uint32() != version || rd.Str() != producer() || rd.Str() != kind {
		return nil
	}
	n := rd.Uvarint()
	if rd.Err() != nil || n > uint64(len(body)) {
		return nil
	}
	entries := make([]cacheEntry, 0, n)
	for range n {
		e := cacheEntry{name: rd.Str()}
		copy(e.digest[:], rd.Bytes(sha256.Size))
		e.payload = rd.Bytes(int(rd.Uvarint()))
		if rd.Err() != nil || (len(entries) > 0 && entries[len(entries)-1].name >= e.name) {
			return nil
		}
		entries = append(entries, e)
	}
	if rd.Len() != 0 {
		return nil
	}
	return entries
}

// find returns the index of name's entry in the cache file.
func (c *docCache) find(name string) (int, bool) {
	return slices.BinarySearchFunc(c.old, name, func(e cacheEntry, n string) int { return strings.Compare(e.name, n) })
}

// lookup returns the index of name's entry, for check, when the cache has
// one.
func (c *docCache) lookup(name string) (int, bool) { return c.find(name) }

// check reports whether entry i was decoded from a file with the content
// digest sum, and returns its payload if so. It records what it found for
// save.
func (c *docCache) check(i int, sum [sha256.Size]byte) ([]byte, bool) {
	if c.old[i].digest != sum {
		c.state[i] = stale
		return nil, false
	}
	c.state[i] = valid
	return c.old[i].payload, true
}

// add records a document this listing decoded from content with the
// digest sum.
func (c *docCache) add(name string, sum [sha256.Size]byte, payload []byte) {
	c.fresh = append(c.fresh, cacheEntry{name: name, digest: sum, payload: payload})
}

// drop notes that name was listed and its file is gone or cannot be read.
func (c *docCache) drop(name string) {
	if i, found := c.find(name); found {
		c.state[i] = stale
	}
}

// save writes the cache again when this listing learnt something: new
// documents to keep, or entries to drop. Entries of names the listing did
// not visit (another namespace) are kept as they were: they are checked
// when they are next read. Failures are ignored: the cache is only ever an
// optimisation.
func (c *docCache) save(r *os.Root, kind string, version uint32) {
	if len(c.fresh) == 0 && !slices.Contains(c.state, stale) {
		return
	}
	merged := make([]cacheEntry, 0, len(c.old)+len(c.fresh))
	for i, e := range c.old {
		if c.state[i] != stale {
			merged = append(merged, e)
		}
	}
	merged = append(merged, c.fresh...)
	// A fresh entry's name is never among the kept ones: it was visited,
	// and was not valid.
	slices.SortFunc(merged, func(a, b cacheEntry) int { return strings.Compare(a.name, b.name) })
	_ = writeCacheFile(r, c.path, encodeCache(merged, kind, version))
}

func encodeCache(entries []cacheEntry, kind string, version uint32) []byte {
	size := 64 + len(producer()) + len(kind)
	for _, e := range entries {
		size += len(e.name) + len(e.payload) + 60
	}
	b := make([]byte, 0, size)
	b = append(b, cacheMagic...)
	b = binary.LittleEndian.AppendUint32(b, cacheFormat)
	b = binary.LittleEndian.AppendUint32(b, version)
	b = store.AppendString(b, producer())
	b = store.AppendString(b, kind)
	b = binary.AppendUvarint(b, uint64(len(entries)))
	for _, e := range entries {
		b = store.AppendString(b, e.name)
		b = append(b, e.digest[:]...)
		b = binary.AppendUvarint(b, uint64(len(e.payload)))
		b = append(b, e.payload...)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// writeCacheFile replaces the cache file at rel with data: written to a
// temporary file beside it and renamed over it. It is not synced: a cache
// torn by a crash fails its checksum and is ignored. Temporary files that
// a killed writer left behind are removed once they are old.
func writeCacheFile(r *os.Root, rel string, data []byte) error {
	dir := filepath.Dir(rel)
	fi, err := r.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := r.Mkdir(dir, 0o755); err != nil {
			return err
		}
	case err != nil:
		return err
	case !fi.IsDir():
		return errors.New("not a folder") // never write through a link
	}
	removeOldTemps(r, dir)
	tmp := filepath.Join(dir, tempPrefix+crand.Text())
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Rename(tmp, rel)
	}
	if err != nil {
		_ = r.Remove(tmp)
	}
	return err
}

// removeOldTemps removes temporary files in dir older than a minute: no
// writer takes that long, so their writer was killed.
func removeOldTemps(r *os.Root, dir string) {
	des, err := readDir(r, dir)
	if err != nil {
		return
	}
	for _, de := range des {
		if !strings.HasPrefix(de.Name(), tempPrefix) {
			continue
		}
		if fi, err := de.Info(); err == nil && time.Since(fi.ModTime()) > time.Minute {
			_ = r.Remove(filepath.Join(dir, de.Name()))
		}
	}
}
