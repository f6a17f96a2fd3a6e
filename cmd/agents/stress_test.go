//go:build unix

package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentsctl/agents/internal/profile"
)

// The process-level suites run in a reduced form under `make test` and in
// full under `make stress`, which sets AGENTS_STRESS=full. The figures each
// run measured are logged (go test -v shows them).
const stressEnv = "AGENTS_STRESS"

// stressScale returns reduced, or full when the full suites were asked for.
func stressScale(reduced, full int) int {
	if os.Getenv(stressEnv) == "full" {
		return full
	}
	return reduced
}

// stressSeed returns the seed of a suite's random choices: AGENTS_STRESS_SEED
// when set (to replay a failure), else a fresh one. It is logged.
func stressSeed(t *testing.T) uint64 {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("AGENTS_STRESS_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("AGENTS_STRESS_SEED=%q: %v", s, err)
		}
		seed = v
	}
	t.Logf("seed %d (set AGENTS_STRESS_SEED to replay)", seed)
	return seed
}

// agentsCmd returns the built binary set up to run in home.
func agentsCmd(t testing.TB, home string, args ...string) *exec.Cmd {
	cmd := exec.Command(agentsBinary(t), args...)
	cmd.Env = append(os.Environ(), "AGENTS_HOME="+home, "CI=true", "NO_COLOR=1")
	return cmd
}

// runCmd runs cmd to its end and returns what it did; unlike runAgents it
// is safe to call from any goroutine.
func runCmd(cmd *exec.Cmd) (result, error) {
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		if ee.ExitCode() < 0 {
			return result{}, fmt.Errorf("agents ended by %v", ee.ProcessState)
		}
		return result{ee.ExitCode(), out.String(), errOut.String()}, nil
	case err != nil:
		return result{}, err
	}
	return result{0, out.String(), errOut.String()}, nil
}

// profileFile writes a profile document to dir and returns its path and
// the profile it decodes to.
func profileFile(t testing.TB, dir, base, content string) (string, *profile.AutomationProfile) {
	t.Helper()
	path := filepath.Join(dir, base)
	writeFile(t, path, content)
	p, _, err := profile.DecodeProfile([]byte(content), path)
	if err != nil {
		t.Fatalf("test profile %s: %v", base, err)
	}
	return path, p
}

// storedPath returns where the store keeps the custom profile name.
func storedPath(home, name string) string {
	return filepath.Join(home, "profiles", filepath.FromSlash(name)+".yaml")
}

// readStored decodes the stored file of name; nil when there is none.
func readStored(t testing.TB, home, name string) (*profile.AutomationProfile, []byte) {
	t.Helper()
	path := storedPath(home, name)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := profile.DecodeProfile(data, path)
	if err != nil {
		t.Fatalf("stored file does not parse: %v\n%s", err, data)
	}
	return p, data
}

// historyEvent is one line of a history log, read without the store's code.
type historyEvent struct {
	Digest string    `json:"digest"`
	Time   time.Time `json:"time"`
	Event  string    `json:"event"`
}

// readHistory returns the complete lines of name's history log and whether
// a torn (newline-less) last line follows them.
func readHistory(t testing.TB, home, name string) ([]historyEvent, bool) {
	t.Helper()
	path := filepath.Join(home, "history", "profiles", filepath.FromSlash(name)+".log")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	var events []historyEvent
	complete := bytes.LastIndexByte(data, '\n') + 1
	sc := bufio.NewScanner(bytes.NewReader(data[:complete]))
	for sc.Scan() {
		var e historyEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: line %q: %v", path, sc.Text(), err)
		}
		if e.Event != "put" && e.Event != "remove" {
			t.Fatalf("%s: unknown event %q", path, e.Event)
		}
		events = append(events, e)
	}
	return events, complete < len(data)
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// storeAudit is what checkStoreFiles found.
type storeAudit struct {
	temps    []string // temporary files present
	profiles int      // profile files, each parsed
	objects  int      // objects, each matching its digest
	tornLogs int      // history logs ending in a torn line
}

// checkStoreFiles reads every file of the store the way an outsider would:
// every profile file must parse and hold the name its path gives, every
// object must hash to its name, every complete line of every history log
// must be an entry whose put digests are stored objects.
func checkStoreFiles(t testing.TB, home string) storeAudit {
	t.Helper()
	var a storeAudit
	err := filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(home, path)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(d.Name(), ".tmp-") {
			a.temps = append(a.temps, rel)
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			t.Errorf("link in the store: %s", rel)
			return nil
		}
		switch {
		case strings.HasPrefix(rel, "profiles/") && strings.HasSuffix(rel, ".yaml"):
			name := strings.TrimSuffix(strings.TrimPrefix(rel, "profiles/"), ".yaml")
			p, _ := readStored(t, home, name)
			if p.Name != name {
				t.Errorf("%s holds %q", rel, p.Name)
			}
			a.profiles++
		case strings.HasPrefix(rel, "objects/"):
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if got := sha256Hex(data); got != d.Name() {
				t.Errorf("object %s holds content hashing to %s (torn object)", rel, got)
			}
			if _, _, err := profile.DecodeProfile(data, rel); err != nil {
				t.Errorf("object %s does not parse: %v", rel, err)
			}
			a.objects++
		case strings.HasPrefix(rel, "history/profiles/") && strings.HasSuffix(rel, ".log"):
			name := strings.TrimSuffix(strings.TrimPrefix(rel, "history/profiles/"), ".log")
			events, torn := readHistory(t, home, name)
			if torn {
				a.tornLogs++
			}
			for _, e := range events {
				if _, err := os.Stat(filepath.Join(home, "objects", e.Digest)); err != nil {
					t.Errorf("%s: %s event names object %s: %v", rel, e.Event, e.Digest, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// listCleanly runs list -f json and requires a clean run: exit 0, nothing
// on stderr (a file the store cannot read would be a warning there), and a
// JSON array. It returns the custom profiles listed, by name.
func listCleanly(t testing.TB, home string) map[string]map[string]any {
	t.Helper()
	return listCleanlyWith(t, func(args ...string) *exec.Cmd { return agentsCmd(t, home, args...) })
}

// listCleanlyWith is listCleanly with the binary set up by cmd.
func listCleanlyWith(t testing.TB, cmd func(args ...string) *exec.Cmd) map[string]map[string]any {
	t.Helper()
	r, err := runCmd(cmd("automation-profile", "list", "-f", "json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("list: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	var all []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &all); err != nil {
		t.Fatalf("list output is not JSON: %v\n%s", err, r.stdout)
	}
	custom := map[string]map[string]any{}
	for _, p := range all {
		name, _ := p["name"].(string)
		if strings.Contains(name, "/") {
			custom[name] = p
		}
	}
	return custom
}

// TestStressCrash kills writers with SIGKILL at random moments of
// `add --update` and checks, after every kill, that the store is whole: it
// lists cleanly, every file in it parses, the killed write is either wholly
// there or wholly absent, and the next writer takes the lock at once (with
// a 2 s lock timeout it must succeed) and leaves no temporary file behind.
func TestStressCrash(t *testing.T) {
	wantKills := stressScale(20, 400)
	rng := rand.New(rand.NewPCG(stressSeed(t), 1))
	home := filepath.Join(t.TempDir(), "home")
	src := t.TempDir()

	// A few names, each with versions that differ in every kind of field,
	// and a long description so that a write is more than one block.
	names := []string{"crash/a", "crash/b", "team/c"}
	const versions = 4
	files := map[string][]string{}
	want := map[string][]*profile.AutomationProfile{}
	for _, name := range names {
		for v := range versions {
			content := fmt.Sprintf("name: %s\ndescription: %q\nauto_apply: %g\nauto_execute: %g\nsafety:\n  require_sandbox: %t\n  max_retries_per_step: %d\nguards:\n  tool_denylist: [%s]\n",
				name, fmt.Sprintf("version %d of %s ", v, name)+strings.Repeat("lorem ipsum ", 600), float64(v)/10, 1-float64(v)/10, v%2 == 0, v, strings.Repeat("rm, ", v)+"curl")
			f, p := profileFile(t, src, fmt.Sprintf("%s-%d.yaml", strings.ReplaceAll(name, "/", "-"), v), content)
			files[name] = append(files[name], f)
			want[name] = append(want[name], p)
		}
	}
	add := func(name string, v int) *exec.Cmd {
		return agentsCmd(t, home, "--lock-timeout", "2s", "automation-profile", "add", "--update", "-c", files[name][v], "-f", "json")
	}
	// versionOf returns which version of name is stored, failing on
	// anything else.
	versionOf := func(name string) int {
		p, _ := readStored(t, home, name)
		if p == nil {
			t.Fatalf("%s is missing", name)
		}
		for v, w := range want[name] {
			if reflect.DeepEqual(p, w) {
				return v
			}
		}
		t.Fatalf("%s holds no version written to it: %q", name, p.Description)
		return -1
	}

	cur := map[string]int{}
	var durations []time.Duration
	for _, name := range names {
		start := time.Now()
		r, err := runCmd(add(name, 0))
		if err != nil || r.code != 0 {
			t.Fatalf("first add of %s: %v exit %d %s", name, err, r.code, r.stderr)
		}
		durations = append(durations, time.Since(start))
		cur[name] = 0
	}
	// Kill moments spread over a whole run, from the end of startup to past
	// the usual end, where the writing is. A run's length is the median of
	// the last uninterrupted runs, so the spread follows the machine's load.
	killAfter := func() time.Duration {
		recent := slices.Clone(durations[max(0, len(durations)-15):])
		slices.Sort(recent)
		median := recent[len(recent)/2]
		return median*3/10 + time.Duration(rng.Int64N(int64(median)))
	}

	var kills, finished, newSeen, oldSeen, lagging, tempsLeft, tornLogs, maxTemps int
	for iter := 0; kills < wantKills; iter++ {
		if iter > wantKills*20 {
			t.Fatalf("only %d kills landed in %d tries", kills, iter)
		}
		name := names[rng.IntN(len(names))]
		next := (cur[name] + 1 + rng.IntN(versions-1)) % versions
		cmd := add(name, next)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(killAfter())
		_ = cmd.Process.Signal(syscall.SIGKILL)
		err := cmd.Wait()
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if !ws.Signaled() {
			if err != nil {
				t.Fatalf("writer of %s v%d ended with %v before the kill", name, next, err)
			}
			finished++
			cur[name] = next
			if got := versionOf(name); got != next {
				t.Fatalf("writer of %s v%d succeeded, but v%d is stored", name, next, got)
			}
			continue
		}
		kills++

		// The killed write is wholly there or wholly absent, and nothing
		// else changed.
		switch got := versionOf(name); got {
		case next:
			newSeen++
			cur[name] = next
			// Killed after its rename and before its history append: the
			// next writer must record the version it missed.
			events, _ := readHistory(t, home, name)
			_, data := readStored(t, home, name)
			if last := events[len(events)-1]; last.Digest != sha256Hex(data) {
				lagging++
			}
		case cur[name]:
			oldSeen++
		default:
			t.Fatalf("kill %d: %s holds v%d, neither the previous v%d nor the new v%d", kills, name, got, cur[name], next)
		}
		for _, other := range names {
			if got := versionOf(other); got != cur[other] {
				t.Fatalf("kill %d: %s changed to v%d, but only %s was being written", kills, other, got, name)
			}
		}
		a := checkStoreFiles(t, home)
		if a.profiles != len(names) {
			t.Fatalf("kill %d: %d profile files, want %d", kills, a.profiles, len(names))
		}
		if len(a.temps) > 0 {
			tempsLeft++
			maxTemps = max(maxTemps, len(a.temps))
		}
		tornLogs += a.tornLogs
		listed := listCleanly(t, home)
		if len(listed) != len(names) {
			t.Fatalf("kill %d: list shows %d custom profiles, want %d", kills, len(listed), len(names))
		}
		if t.Failed() {
			t.FailNow()
		}

		// The next writer takes the lock at once and cleans up after the
		// killed one.
		_, killedState := readStored(t, home, name)
		after := (cur[name] + 1) % versions
		start := time.Now()
		r, err := runCmd(add(name, after))
		if err != nil {
			t.Fatal(err)
		}
		durations = append(durations, time.Since(start))
		if r.code != 0 {
			t.Fatalf("kill %d: the next writer failed with exit %d:\n%s", kills, r.code, r.stderr)
		}
		cur[name] = after
		if got := versionOf(name); got != after {
			t.Fatalf("kill %d: the next writer stored v%d, want v%d", kills, got, after)
		}
		a = checkStoreFiles(t, home)
		if len(a.temps) > 0 {
			t.Fatalf("kill %d: temporary files remain after the next write: %v", kills, a.temps)
		}
		if a.tornLogs > 0 {
			t.Fatalf("kill %d: a torn history line remains after the next write", kills)
		}
		if fi, err := os.Stat(filepath.Join(home, ".pending")); err == nil && fi.Size() != 0 {
			t.Fatalf("kill %d: the journal of temporary files is not empty after the next write", kills)
		}
		events, _ := readHistory(t, home, name)
		_, data := readStored(t, home, name)
		if last := events[len(events)-1]; last.Event != "put" || last.Digest != sha256Hex(data) {
			t.Fatalf("kill %d: the last history event of %s is %s %s, not a put of the stored file", kills, name, last.Event, last.Digest)
		}
		// The version the kill left in place, recorded or caught up.
		if prev := events[len(events)-2]; prev.Event != "put" || prev.Digest != sha256Hex(killedState) {
			t.Fatalf("kill %d: the history of %s does not record the version the kill left before the next one", kills, name)
		}
	}
	t.Logf("kills survived: %d (plus %d writers that finished first); after a kill the new version was in place %d times (%d of them not yet in the history) and the old one %d times; temporary files were left by %d kills (at most %d at once) and torn history lines by %d, all cleaned by the next writer",
		kills, finished, newSeen, lagging, oldSeen, tempsLeft, maxTemps, tornLogs)
}

// contentionOp is one mutation a contention worker ran.
type contentionOp struct {
	worker, seq int
	kind        string // add, update or remove
	name        string
	desc        string // the description it writes (add, update)
	start, end  time.Time
	code        int
	removedDesc string // what a successful remove printed it removed
	matched     bool
}

// TestStressContention runs workers that each run a series of mutations
// (add, add --update, remove) on a few shared names while readers show and
// list throughout. Each worker records which of its operations reported
// success. The history logs give the order in which mutations took effect;
// the check is that this order is a serial replay of exactly the successful
// operations that ends in the state the store holds. docs/reliability.md
// explains why the check is sound.
func TestStressContention(t *testing.T) {
	runContention(t, fileBackend(t, filepath.Join(t.TempDir(), "home")))
}

// contentionBackend is where a contention run writes, and how the check
// reads what it wrote: as an outsider, without the store's code.
type contentionBackend struct {
	// cmd returns the binary set up to run against the store.
	cmd func(args ...string) *exec.Cmd
	// history returns the events of name in the order they took effect,
	// and whether a torn event follows them.
	history func(name string) ([]historyEvent, bool)
	// object returns the content of the object with the digest.
	object func(digest string) ([]byte, error)
	// stored returns the profile stored under name, nil when none is.
	stored func(name string) *profile.AutomationProfile
	// audit checks what else the store must hold after the run.
	audit func()
}

// fileBackend is the file store in home.
func fileBackend(t *testing.T, home string) contentionBackend {
	return contentionBackend{
		cmd:     func(args ...string) *exec.Cmd { return agentsCmd(t, home, args...) },
		history: func(name string) ([]historyEvent, bool) { return readHistory(t, home, name) },
		object:  func(digest string) ([]byte, error) { return os.ReadFile(filepath.Join(home, "objects", digest)) },
		stored: func(name string) *profile.AutomationProfile {
			p, _ := readStored(t, home, name)
			return p
		},
		audit: func() {
			if a := checkStoreFiles(t, home); len(a.temps) > 0 {
				t.Errorf("temporary files left: %v", a.temps)
			}
		},
	}
}

// runContention runs the contention check against a store.
func runContention(t *testing.T, b contentionBackend) {
	workers := stressScale(10, 50)
	perWorker := stressScale(10, 20)
	rng := rand.New(rand.NewPCG(stressSeed(t), 2))
	names := []string{"race/a", "race/b", "race/c", "shared/a", "shared/b"}

	// Every put writes a description no other op writes, so each stored
	// version names the one operation that wrote it.
	ops := make([][]*contentionOp, workers)
	files := map[*contentionOp]string{}
	descs := map[string]*contentionOp{}
	src := t.TempDir()
	for w := range workers {
		for i := range perWorker {
			op := &contentionOp{worker: w, seq: i, name: names[rng.IntN(len(names))]}
			switch r := rng.IntN(10); {
			case r < 3:
				op.kind = "add"
			case r < 7:
				op.kind = "update"
			default:
				op.kind = "remove"
			}
			if op.kind != "remove" {
				op.desc = fmt.Sprintf("worker %d op %d", w, i)
				content := fmt.Sprintf("name: %s\ndescription: %q\nauto_apply: %g\nsafety:\n  max_retries_per_step: %d\n",
					op.name, op.desc, float64(rng.IntN(1001))/1000, rng.IntN(10))
				f, _ := profileFile(t, src, fmt.Sprintf("w%d-%d.yaml", w, i), content)
				files[op] = f
				descs[op.desc] = op
			}
			ops[w] = append(ops[w], op)
		}
	}

	var (
		wg       sync.WaitGroup
		done     atomic.Bool
		reads    atomic.Int64
		failures = make(chan string, 1000)
	)
	fail := func(format string, a ...any) {
		select {
		case failures <- fmt.Sprintf(format, a...):
		default:
		}
	}
	for w := range workers {
		wg.Go(func() {
			for _, op := range ops[w] {
				var args []string
				switch op.kind {
				case "add":
					args = []string{"automation-profile", "add", "-c", files[op]}
				case "update":
					args = []string{"automation-profile", "add", "--update", "-c", files[op]}
				case "remove":
					args = []string{"automation-profile", "remove", op.name, "--yes"}
				}
				cmd := b.cmd(append([]string{"--lock-timeout", "5m", "-f", "json"}, args...)...)
				op.start = time.Now()
				r, err := runCmd(cmd)
				op.end = time.Now()
				if err != nil {
					fail("worker %d op %d: %v", w, op.seq, err)
					return
				}
				op.code = r.code
				ok := r.code == 0 || op.kind == "add" && r.code == 5 || op.kind == "remove" && r.code == 4
				if !ok {
					fail("worker %d op %d (%s %s): exit %d: %s", w, op.seq, op.kind, op.name, r.code, r.stderr)
				}
				if op.kind == "remove" && r.code == 0 {
					var removed map[string]any
					if err := json.Unmarshal([]byte(r.stdout), &removed); err != nil {
						fail("remove printed no profile: %v: %s", err, r.stdout)
					}
					op.removedDesc, _ = removed["description"].(string)
				}
			}
		})
	}
	// Readers: a torn or half-written file would make show fail with
	// invalid input (3) or an I/O error (1), and list warn on stderr.
	var readers sync.WaitGroup
	for i := range stressScale(2, 4) {
		readers.Go(func() {
			r := rand.New(rand.NewPCG(uint64(i), 3))
			for !done.Load() {
				name := names[r.IntN(len(names))]
				res, err := runCmd(b.cmd("automation-profile", "show", name, "-f", "json"))
				reads.Add(1)
				switch {
				case err != nil:
					fail("show %s: %v", name, err)
				case res.code == 4:
				case res.code != 0:
					fail("torn read: show %s: exit %d: %s", name, res.code, res.stderr)
				default:
					var p map[string]any
					if err := json.Unmarshal([]byte(res.stdout), &p); err != nil || p["name"] != name || descs[fmt.Sprint(p["description"])] == nil {
						fail("torn read: show %s printed a version no writer wrote: %s", name, res.stdout)
					}
				}
				res, err = runCmd(b.cmd("automation-profile", "list", "-f", "json"))
				reads.Add(1)
				if err != nil || res.code != 0 || res.stderr != "" || !json.Valid([]byte(res.stdout)) {
					fail("torn read: list: %v exit %d: %s", err, res.code, res.stderr)
				}
			}
		})
	}
	wg.Wait()
	done.Store(true)
	readers.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	if t.Failed() {
		t.FailNow()
	}

	// Replay, name by name: the history of a name orders the mutations of
	// that name, and mutations of different names touch different files.
	var all []*contentionOp
	for _, w := range ops {
		all = append(all, w...)
	}
	succeeded := 0
	for _, op := range all {
		if op.code == 0 {
			succeeded++
		}
	}
	var events, lost int
	for _, name := range names {
		hist, torn := b.history(name)
		if torn {
			t.Errorf("%s: torn history line", name)
		}
		events += len(hist)
		var (
			state *contentionOp // the op whose version is stored; nil: absent
			order []*contentionOp
		)
		for i, e := range hist {
			var op *contentionOp
			switch e.Event {
			case "put":
				data, err := b.object(e.Digest)
				if err != nil {
					t.Fatalf("%s event %d: %v", name, i, err)
				}
				if sha256Hex(data) != e.Digest {
					t.Fatalf("%s event %d: object %s does not match its digest", name, i, e.Digest)
				}
				p, _, err := profile.DecodeProfile(data, e.Digest)
				if err != nil {
					t.Fatalf("%s event %d: object does not parse: %v", name, i, err)
				}
				op = descs[p.Description]
				switch {
				case op == nil || op.name != name:
					t.Fatalf("%s event %d: put of %q, which no operation on %s wrote", name, i, p.Description, name)
				case op.code != 0:
					t.Fatalf("%s event %d: put by worker %d op %d, which reported exit %d", name, i, op.worker, op.seq, op.code)
				case op.matched:
					t.Fatalf("%s event %d: put by worker %d op %d recorded twice", name, i, op.worker, op.seq)
				case op.kind == "add" && state != nil:
					t.Fatalf("%s event %d: add without --update by worker %d op %d succeeded over an existing version", name, i, op.worker, op.seq)
				}
				state = op
			case "remove":
				if state == nil {
					t.Fatalf("%s event %d: remove of an absent profile", name, i)
				}
				// The remove that took effect here removed state's version:
				// find the successful remove that reported removing it.
				for _, cand := range all {
					if cand.kind == "remove" && cand.name == name && cand.code == 0 && !cand.matched && cand.removedDesc == state.desc {
						op = cand
						break
					}
				}
				if op == nil {
					t.Fatalf("%s event %d: remove of %q, which no successful remove reported", name, i, state.desc)
				}
				data, err := b.object(e.Digest)
				if err != nil {
					t.Fatal(err)
				}
				if p, _, err := profile.DecodeProfile(data, e.Digest); err != nil || p.Description != state.desc {
					t.Fatalf("%s event %d: remove event names another version than the one stored", name, i)
				}
				state = nil
			}
			op.matched = true
			order = append(order, op)
		}
		// Real time: an operation that ended before another began must
		// come first in the history.
		for i := range order {
			for j := i + 1; j < len(order); j++ {
				if order[j].end.Before(order[i].start) {
					t.Errorf("%s: worker %d op %d is recorded after worker %d op %d, but ended before it began",
						name, order[j].worker, order[j].seq, order[i].worker, order[i].seq)
				}
			}
		}
		// The replay's final state is what the store holds.
		p := b.stored(name)
		switch {
		case state == nil && p != nil:
			t.Errorf("%s: the replay ends with it removed, but %q is stored", name, p.Description)
		case state != nil && p == nil:
			t.Errorf("%s: the replay ends with %q, but nothing is stored", name, state.desc)
		case state != nil && p.Description != state.desc:
			t.Errorf("%s: the replay ends with %q, but %q is stored", name, state.desc, p.Description)
		}
	}
	for _, op := range all {
		if op.code == 0 && !op.matched {
			lost++
			t.Errorf("lost update: worker %d op %d (%s %s) reported success but is not in the history", op.worker, op.seq, op.kind, op.name)
		}
	}
	b.audit()
	listed := listCleanlyWith(t, b.cmd)
	for _, name := range names {
		p := b.stored(name)
		if (p != nil) != (listed[name] != nil) || p != nil && listed[name]["description"] != p.Description {
			t.Errorf("list disagrees with the stored file of %s", name)
		}
	}
	t.Logf("workers %d x %d mutations: %d operations, %d reported success, %d history events replayed, %d lost updates; %d reads during the run, 0 torn",
		workers, perWorker, len(all), succeeded, events, lost, reads.Load())
}

// TestStressLockTimeout holds the store lock from outside, as another
// writer would, and checks that a mutation gives up after --lock-timeout
// with exit 75 and a message naming the lock file, changing nothing.
func TestStressLockTimeout(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	src := t.TempDir()
	f, _ := profileFile(t, src, "x.yaml", "name: acme/x\nauto_apply: 0.5\n")
	g, _ := profileFile(t, src, "y.yaml", "name: acme/y\nauto_apply: 0.5\n")
	if r := runAgents(t, home, "automation-profile", "add", "-c", f); r.code != 0 {
		t.Fatalf("add: exit %d: %s", r.code, r.stderr)
	}
	lockPath := filepath.Join(home, ".lock")
	fl := flock.New(lockPath)
	if err := fl.Lock(); err != nil {
		t.Fatal(err)
	}
	before := treeHash(t, home)
	cases := [][]string{
		{"automation-profile", "add", "-c", g},
		{"automation-profile", "add", "--update", "-c", f},
		{"automation-profile", "remove", "acme/x", "--yes"},
	}
	for _, args := range cases {
		r := runAgents(t, home, append([]string{"--lock-timeout", "200ms"}, args...)...)
		if r.code != 75 || !strings.Contains(r.stderr, lockPath) {
			t.Errorf("%v: exit %d, want 75 with a message naming %s:\n%s", args, r.code, lockPath, r.stderr)
		}
		r = runAgents(t, home, append([]string{"--lock-timeout", "0s", "-f", "json"}, args...)...)
		var je struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal([]byte(r.stderr), &je); err != nil || r.code != 75 || je.Error.Code != "locked" || !strings.Contains(je.Error.Message, lockPath) {
			t.Errorf("%v -f json: exit %d, stderr %s", args, r.code, r.stderr)
		}
	}
	// Readers take no lock.
	if r := runAgents(t, home, "automation-profile", "show", "acme/x"); r.code != 0 {
		t.Errorf("show while locked: exit %d: %s", r.code, r.stderr)
	}
	if after := treeHash(t, home); after != before {
		t.Error("the store changed while its lock was held by another")
	}
	if err := fl.Unlock(); err != nil {
		t.Fatal(err)
	}
	if r := runAgents(t, home, "--lock-timeout", "2s", "automation-profile", "add", "-c", g); r.code != 0 {
		t.Errorf("add after the lock was released: exit %d: %s", r.code, r.stderr)
	}
}

// treeHash hashes a folder tree: every entry's path, type, permissions,
// size and content, and every link's target. Lock and journal files count
// by their content like any other.
func treeHash(t testing.TB, root string) string {
	t.Helper()
	if _, err := os.Lstat(root); errors.Is(err, fs.ErrNotExist) {
		return "absent"
	}
	h := sha256.New()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fi, err := os.Lstat(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%s\x00", rel, fi.Mode())
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "-> %s\x00", target)
		case fi.Mode().IsRegular():
			// Streamed: a store may hold a huge file, and this process's
			// own memory would count against what the hostile suite
			// measures of the processes it starts.
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			fh := sha256.New()
			n, err := io.Copy(fh, f)
			f.Close()
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%d\x00%x\x00", n, fh.Sum(nil))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestStressPermissions checks the store's modes from the binary: nothing
// it creates is writable by others, even under umask 000, and a store that
// others can write to, or that another user owns, is warned about by every
// command that opens it.
func TestStressPermissions(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	src := t.TempDir()
	f, _ := profileFile(t, src, "x.yaml", "name: acme/x\nauto_apply: 0.5\n")
	g, _ := profileFile(t, src, "y.yaml", "name: team/y\nauto_apply: 0.5\n")

	// A shell sets the umask for the one command; the test process keeps
	// its own.
	for _, args := range [][]string{
		{"automation-profile", "add", "-c", f},
		{"automation-profile", "add", "--update", "-c", f},
		{"automation-profile", "add", "-c", g},
		{"automation-profile", "remove", "team/y", "--yes"},
	} {
		cmd := exec.Command("/bin/sh", append([]string{"-c", `umask 000; exec "$@"`, "sh", agentsBinary(t)}, args...)...)
		cmd.Env = append(os.Environ(), "AGENTS_HOME="+home, "CI=true")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v under umask 000: %v\n%s", args, err, out)
		}
	}
	n := 0
	err := filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if fi.Mode().Perm()&0o002 != 0 {
			t.Errorf("%s is world-writable (%s) after writes under umask 000", path, fi.Mode().Perm())
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("only %d entries in the store", n)
	}
	if r := runAgents(t, home, "automation-profile", "list"); r.stderr != "" {
		t.Fatalf("warnings about a sound store: %s", r.stderr)
	}

	// Every command that opens the store warns, on stderr only, and still
	// does its work.
	commands := [][]string{
		{"automation-profile", "list", "-f", "plain"},
		{"automation-profile", "show", "acme/x", "-f", "plain"},
		{"automation-profile", "add", "--update", "-c", f, "-f", "plain"},
	}
	expectWarning := func(dir, what string) {
		t.Helper()
		for _, args := range commands {
			r := runAgents(t, home, args...)
			if r.code != 0 {
				t.Errorf("%v: exit %d: %s", args, r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, "agents: warning: store folder "+dir+" "+what) {
				t.Errorf("%v: no warning that %s %s; stderr:\n%s", args, dir, what, r.stderr)
			}
			if strings.Contains(r.stdout, "warning") {
				t.Errorf("%v: a warning went to stdout", args)
			}
		}
	}
	for _, dir := range []string{home, filepath.Join(home, "profiles"), filepath.Join(home, "profiles", "acme")} {
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
		expectWarning(dir, "is world-writable")
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	if os.Geteuid() != 0 {
		t.Log("not root: the check of a store owned by another user is skipped")
		return
	}
	uid, gid := 65534, 65534
	if u, err := user.Lookup("nobody"); err == nil {
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
	}
	for _, dir := range []string{home, filepath.Join(home, "objects"), filepath.Join(home, "profiles", "acme")} {
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		expectWarning(dir, "is owned by")
		if err := os.Chown(dir, 0, 0); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStressHistoryFailure makes the history append fail after the new
// version is in place: a file size limit (prlimit) that the profile file
// and its object fit under and the history log does not, at a random
// point from the log's end to a line past it, so that the append either
// cannot start or stops part-way. The change took effect, so the command
// must say so (exit 0) and warn that its history line is missing; the log
// must be byte for byte as it was (a part-way line cut back off: no torn
// line without a killed writer); and the next writer must record the
// missing version before its own.
func TestStressHistoryFailure(t *testing.T) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("no prlimit here to set a file size limit")
	}
	rounds := stressScale(4, 40)
	rng := rand.New(rand.NewPCG(stressSeed(t), 2))
	home := filepath.Join(t.TempDir(), "home")
	src := t.TempDir()
	const name = "acme/x"
	var files []string
	for v := range 4 {
		f, _ := profileFile(t, src, fmt.Sprintf("v%d.yaml", v), fmt.Sprintf("name: %s\ndescription: version %d\nauto_apply: 0.%d\n", name, v, v+1))
		files = append(files, f)
	}
	run := func(limit int, args ...string) result {
		t.Helper()
		if limit > 0 {
			args = append([]string{"--fsize=" + strconv.Itoa(limit), "--", agentsBinary(t)}, args...)
		} else {
			args = append([]string{"--", agentsBinary(t)}, args...)
		}
		cmd := exec.Command(prlimit, args...)
		cmd.Env = append(os.Environ(), "AGENTS_HOME="+home, "CI=true", "NO_COLOR=1")
		r, err := runCmd(cmd)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	logPath := filepath.Join(home, "history", "profiles", "acme", "x.log")
	readLog := func() []byte {
		data, err := os.ReadFile(logPath)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	// A history longer than any profile file or object.
	cur := 0
	for i := 0; i < 30; i++ {
		cur = i % len(files)
		if r := run(0, "automation-profile", "add", "--update", "-c", files[cur]); r.code != 0 {
			t.Fatalf("add: exit %d: %s", r.code, r.stderr)
		}
	}
	lineLen := len(readLog()) / 30
	var puts, removes, partial int
	for round := range rounds {
		before := readLog()
		// Every fourth append cannot start; the others stop part-way.
		limit := len(before)
		if round%4 != 0 {
			limit += 1 + rng.IntN(lineLen-1)
			partial++
		}
		remove := round%3 == 2
		var r result
		if remove {
			r = run(limit, "automation-profile", "remove", name, "--yes", "-f", "json")
		} else {
			cur = (cur + 1) % len(files)
			r = run(limit, "automation-profile", "add", "--update", "-c", files[cur], "-f", "json")
		}
		if r.code != 0 || !strings.Contains(r.stderr, "its history could not be recorded") || !strings.Contains(r.stdout, `"name": "acme/x"`) {
			t.Fatalf("round %d (limit %d bytes, log %d): exit %d, want 0 with a warning:\n%s%s", round, limit, len(before), r.code, r.stdout, r.stderr)
		}
		if after := readLog(); !bytes.Equal(after, before) {
			t.Fatalf("round %d: the history log changed (%d bytes to %d): a failed append left part of a line", round, len(before), len(after))
		}
		_, stored := readStored(t, home, name)
		if remove {
			removes++
			if stored != nil {
				t.Fatalf("round %d: remove reported success, but the file is there", round)
			}
		} else {
			puts++
			if want, _ := os.ReadFile(files[cur]); stored == nil || !strings.Contains(string(stored), strings.Split(string(want), "\n")[1]) {
				t.Fatalf("round %d: the new version is not in place:\n%s", round, stored)
			}
		}
		if a := checkStoreFiles(t, home); a.tornLogs != 0 {
			t.Fatalf("round %d: a torn history line", round)
		}
		// The next writer, without a limit, records what was missed.
		missed := sha256Hex(stored)
		cur = (cur + 1) % len(files)
		if r := run(0, "automation-profile", "add", "--update", "-c", files[cur]); r.code != 0 || strings.Contains(r.stderr, "warning") {
			t.Fatalf("round %d: the next writer: exit %d: %s", round, r.code, r.stderr)
		}
		events, torn := readHistory(t, home, name)
		_, data := readStored(t, home, name)
		n := len(events)
		if torn || n < 2 || events[n-1].Event != "put" || events[n-1].Digest != sha256Hex(data) {
			t.Fatalf("round %d: the next writer's own put is not last: %+v", round, events[max(0, n-2):])
		}
		switch prev := events[n-2]; {
		case remove && (prev.Event != "remove"):
			t.Fatalf("round %d: the missed remove was not recorded: %+v", round, prev)
		case !remove && (prev.Event != "put" || prev.Digest != missed):
			t.Fatalf("round %d: the missed version was not recorded: %+v", round, prev)
		}
	}
	listCleanly(t, home)
	t.Logf("%d changes whose history line could not be written (%d puts, %d removes; %d of the appends stopped part-way): every one exited 0 with a warning, left the log as it was, and was recorded by the next writer", rounds, puts, removes, partial)
}

// TestStressSignals sends SIGINT and SIGTERM to commands waiting on their
// input, on the store lock, and at random moments of a listing: each must
// end with 130 (2 for a hook), never be killed by the signal (which a
// shell reports as 143), and leave the store as it was.
func TestStressSignals(t *testing.T) {
	home := hostileHome(t)
	settle := 300 * time.Millisecond // past the program's start, however loaded the machine
	waitFor := func(cmd *exec.Cmd, sig syscall.Signal) (int, string) {
		t.Helper()
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(settle)
		_ = cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(runDeadline):
			_ = cmd.Process.Kill()
			t.Fatalf("%v: still running %s after %v", cmd.Args, runDeadline, sig)
		}
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			t.Fatalf("%v: killed by %v (a shell would say %d) instead of exiting", cmd.Args, ws.Signal(), 128+int(ws.Signal()))
		}
		return ws.ExitStatus(), errOut.String()
	}
	before := treeHash(t, home)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		// Interrupted, a command says so on stderr, in its format.
		if code, stderr := waitFor(agentsCmd(t, home, "automation-profile", "add", "-c", "-"), sig); code != 130 ||
			!strings.Contains(stderr, "agents: error: interrupted by a signal before the command finished") {
			t.Errorf("add reading its input, %v: exit %d, want 130 and the error: %s", sig, code, stderr)
		}
		if code, stderr := waitFor(agentsCmd(t, home, "automation-profile", "add", "-c", "-", "-f", "json"), sig); code != 130 ||
			!strings.HasSuffix(stderr, `{"error":{"code":"interrupted","message":"interrupted by a signal before the command finished"}}`+"\n") {
			t.Errorf("add -f json reading its input, %v: exit %d, want 130 and the error as JSON: %s", sig, code, stderr)
		}
		code, stderr := waitFor(agentsCmd(t, home, "automation-profile", "check-guard", "cautious", "--hook", "claude-code"), sig)
		if code != 2 || !strings.Contains(stderr, "the tool call is blocked") {
			t.Errorf("a hook reading its input, %v: exit %d, want 2: %s", sig, code, stderr)
		}
		// Waiting for the lock: the wait is interrupted and says so.
		fl := flock.New(filepath.Join(home, ".lock"))
		if err := fl.Lock(); err != nil {
			t.Fatal(err)
		}
		f, _ := profileFile(t, t.TempDir(), "x.yaml", "name: acme/keep\nauto_apply: 0.1\n")
		code, stderr = waitFor(agentsCmd(t, home, "--lock-timeout", "1m", "automation-profile", "add", "--update", "-c", f), sig)
		if code != 130 || !strings.Contains(stderr, "interrupted while waiting for the store lock") || strings.Contains(stderr, "context canceled") {
			t.Errorf("add waiting for the lock, %v: exit %d, want 130: %s", sig, code, stderr)
		}
		fl.Unlock()
	}
	if treeHash(t, home) != before {
		t.Error("an interrupted command changed the store")
	}

	// Random moments of a listing, from the end of the program's start to
	// past its end: 130, or 0 when the listing finished first.
	// A store large enough that a listing outlasts the program's start,
	// written as the store writes it.
	for i := range 2000 {
		name := fmt.Sprintf("ns%d/p%d", i%20, i)
		p, _, err := profile.DecodeProfile([]byte(fmt.Sprintf("name: %s\nauto_apply: 0.5\n", name)), "p.yaml")
		if err != nil {
			t.Fatal(err)
		}
		data, _, err := profile.Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		path := storedPath(home, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, string(data))
	}
	rng := rand.New(rand.NewPCG(stressSeed(t), 3))
	timeOf := func(args ...string) time.Duration {
		start := time.Now()
		runAgents(t, home, args...)
		return time.Since(start)
	}
	// The slowest of a few starts: a signal before the handler is in
	// place kills any Go program (see docs/reliability.md), and on a
	// loaded machine one start can take twice as long as the next.
	var startup time.Duration
	for range 5 {
		startup = max(startup, timeOf("version"))
	}
	timeOf("automation-profile", "list", "-f", "json") // fills the cache
	listing := timeOf("automation-profile", "list", "-f", "json")
	counts := map[int]int{}
	for range stressScale(20, 200) {
		cmd := agentsCmd(t, home, "automation-profile", "list", "-f", "json")
		var errOut bytes.Buffer
		cmd.Stderr = &errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(startup + time.Duration(rng.Int64N(int64(listing))))
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			t.Fatalf("list killed by %v instead of exiting 130", ws.Signal())
		}
		counts[ws.ExitStatus()]++
		if c := ws.ExitStatus(); c != 0 && c != 130 {
			t.Fatalf("list ended with %d on SIGTERM", c)
		}
		if ws.ExitStatus() == 130 && !strings.Contains(errOut.String(), `"code":"interrupted"`) {
			t.Fatalf("list exited 130 on SIGTERM without saying so: %q", errOut.String())
		}
	}
	t.Logf("SIGTERM at random moments of a listing: %d exited 130, %d had finished (0), none killed by the signal", counts[130], counts[0])
}
