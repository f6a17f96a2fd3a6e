//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/agentsctl/agents/internal/profile"
)

// The hostile-input suite feeds testdata/hostile to the commands that read
// input: automation-profile add and validate, and the safety pack loader
// (safety-pack verify FILE, and a pack or config.yaml in the home). Large
// inputs are made at test time. Each case must be refused with a clear
// error (the expected words, in the JSON error or the validation report),
// with its documented exit code (never 1 for bad input), with no panic,
// and with the store exactly as it was.

const hostileDir = "../../testdata/hostile"

// documentedExits are the exit codes the command documents.
var documentedExits = []int{0, 1, 2, 3, 4, 5, 6, 10, 11, 75, 130}

// maxPeakRSS bounds the memory of a run given a 64 MiB input: less than
// the input, so a run that read it whole cannot pass.
const maxPeakRSS = 48 << 20

// run is one finished run of the binary with its peak memory.
type run struct {
	result
	peakRSS int64
}

// runHostile runs the binary in home with stdin (may be nil), and checks
// what every run must do whatever its input: exit with a documented code
// and never panic.
func runHostile(t *testing.T, home string, stdin io.Reader, args ...string) run {
	t.Helper()
	cmd := agentsCmd(t, home, args...)
	cmd.Stdin = stdin
	r, err := runCmd(cmd)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	if !slices.Contains(documentedExits, r.code) {
		t.Errorf("%v: exit %d is not a documented exit code", args, r.code)
	}
	if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
		t.Errorf("%v: crashed:\n%s", args, r.stderr)
	}
	return run{r, peakRSS(cmd)}
}

// peakRSS returns the largest resident set the finished process had, as
// the kernel reports it. On Linux a child started the way Go starts one
// (sharing the parent's memory until exec) is charged the parent's own
// peak too, so the figure is only an upper bound; runMeasured works around
// that.
func peakRSS(cmd *exec.Cmd) int64 {
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss // bytes
	}
	return ru.Maxrss << 10 // KiB
}

// timeTool is GNU time, when it is installed: it starts the command with a
// real fork, so the peak it reports is the command's own.
var timeTool = func() string {
	const tool = "/usr/bin/time"
	if exec.Command(tool, "-q", "-f", "%M", "-o", os.DevNull, "true").Run() != nil {
		return ""
	}
	return tool
}()

// runMeasured is runHostile with a trustworthy peakRSS, or with peakRSS 0
// when nothing can measure it here (logged).
func runMeasured(t *testing.T, home string, stdin io.Reader, args ...string) run {
	t.Helper()
	if timeTool == "" {
		r := runHostile(t, home, stdin, args...)
		if own := selfPeakRSS(); own == 0 || own >= maxPeakRSS {
			t.Logf("peak memory not checked: no GNU time, and this test process peaked at %d MiB", own>>20)
			r.peakRSS = 0
		}
		return r
	}
	out := filepath.Join(t.TempDir(), "rss")
	cmd := exec.Command(timeTool, append([]string{"-q", "-f", "%M", "-o", out, agentsBinary(t)}, args...)...)
	cmd.Env = append(os.Environ(), "AGENTS_HOME="+home, "CI=true", "NO_COLOR=1")
	cmd.Stdin = stdin
	r, err := runCmd(cmd)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var kib int64
	if _, err := fmt.Sscan(string(data), &kib); err != nil || kib <= 0 {
		t.Fatalf("time reported %q", data)
	}
	if !slices.Contains(documentedExits, r.code) {
		t.Errorf("%v: exit %d is not a documented exit code", args, r.code)
	}
	if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
		t.Errorf("%v: crashed:\n%s", args, r.stderr)
	}
	t.Logf("peak memory %.1f MiB: agents %s", float64(kib)/1024, strings.Join(args, " "))
	return run{r, kib << 10}
}

// selfPeakRSS returns this process's own peak resident set (VmHWM), or 0.
func selfPeakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kib int64
			fmt.Sscan(rest, &kib)
			return kib << 10
		}
	}
	return 0
}

// jsonError is the error line printed with -f json.
type jsonError struct {
	Error struct {
		Code     string `json:"code"`
		Message  string `json:"message"`
		Hint     string `json:"hint"`
		Problems []struct {
			File    string `json:"file"`
			Path    string `json:"path"`
			Message string `json:"message"`
		} `json:"problems"`
	} `json:"error"`
}

// errorOf parses the JSON error on the last line of stderr.
func errorOf(t *testing.T, stderr string) jsonError {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	var je jsonError
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &je); err != nil || je.Error.Code == "" {
		t.Fatalf("the last line of stderr is not a JSON error (%v):\n%s", err, stderr)
	}
	return je
}

// text returns everything the error says.
func (je jsonError) text() string {
	parts := []string{je.Error.Message, je.Error.Hint}
	for _, p := range je.Error.Problems {
		parts = append(parts, p.Path+": "+p.Message)
	}
	return strings.Join(parts, "\n")
}

// codeNames maps refusal exit codes to the JSON error codes.
var codeNames = map[int]string{1: "internal", 2: "usage", 3: "invalid", 4: "not_found", 5: "conflict", 6: "safety_pack", 75: "locked"}

// refusal is how a command must refuse an input.
type refusal struct {
	code int
	want string // words the error must hold
}

// expectRefusal runs args with -f json in home and checks the refusal:
// exit code, JSON error code, the expected words, nothing on stdout, and
// the home tree unchanged.
func expectRefusal(t *testing.T, home string, stdin io.Reader, want refusal, args ...string) run {
	t.Helper()
	return expectRefusalWith(t, runHostile, home, stdin, want, args...)
}

// expectRefusalWith is expectRefusal running the command with runner.
func expectRefusalWith(t *testing.T, runner func(*testing.T, string, io.Reader, ...string) run, home string, stdin io.Reader, want refusal, args ...string) run {
	t.Helper()
	before := treeHash(t, home)
	r := runner(t, home, stdin, append(args, "-f", "json")...)
	if r.code != want.code {
		t.Errorf("%v: exit %d, want %d; stderr:\n%s", args, r.code, want.code, r.stderr)
		return r
	}
	if r.stdout != "" {
		t.Errorf("%v: a refusal printed data:\n%s", args, r.stdout)
	}
	je := errorOf(t, r.stderr)
	if je.Error.Code != codeNames[want.code] {
		t.Errorf("%v: error code %q, want %q", args, je.Error.Code, codeNames[want.code])
	}
	if !strings.Contains(je.text(), want.want) {
		t.Errorf("%v: the error does not say %q:\n%s", args, want.want, je.text())
	}
	if after := treeHash(t, home); after != before {
		t.Errorf("%v: the store changed", args)
	}
	return r
}

// expectInvalidReport runs validate -f json on file and checks that it
// reports the file invalid (exit 3) with a problem saying want, naming the
// file.
func expectInvalidReport(t *testing.T, home, file, want string) {
	t.Helper()
	before := treeHash(t, home)
	r := runHostile(t, home, nil, "automation-profile", "validate", file, "-f", "json")
	if r.code != 3 {
		t.Errorf("validate %s: exit %d, want 3: %s", file, r.code, r.stderr)
		return
	}
	var report []struct {
		File     string `json:"file"`
		Valid    bool   `json:"valid"`
		Problems []struct {
			File    string `json:"file"`
			Message string `json:"message"`
		} `json:"problems"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil || len(report) != 1 {
		t.Fatalf("validate %s: report is not one JSON entry (%v):\n%s", file, err, r.stdout)
	}
	said := false
	for _, p := range report[0].Problems {
		if p.File != file {
			t.Errorf("validate %s: a problem names file %q", file, p.File)
		}
		said = said || strings.Contains(p.Message, want)
	}
	if report[0].Valid || !said {
		t.Errorf("validate %s: report does not say %q: %s", file, want, r.stdout)
	}
	if after := treeHash(t, home); after != before {
		t.Errorf("validate %s: the store changed", file)
	}
}

// hostileHome returns a store holding one profile, so that a refusal that
// touched the store would show.
func hostileHome(t *testing.T) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	f, _ := profileFile(t, t.TempDir(), "keep.yaml", "name: acme/keep\nauto_apply: 0.5\n")
	if r := runAgents(t, home, "automation-profile", "add", "-c", f); r.code != 0 {
		t.Fatalf("add: exit %d: %s", r.code, r.stderr)
	}
	return home
}

// corpus lists the committed files of a corpus folder and fails when a
// file has no expectation or an expectation no file.
func corpus[V any](t *testing.T, dir string, table map[string]V) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(hostileDir, dir))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if _, ok := table[e.Name()]; !ok {
			t.Errorf("%s/%s has no expectation in the test", dir, e.Name())
		}
		files = append(files, e.Name())
	}
	for name := range table {
		if !slices.Contains(files, name) {
			t.Errorf("expectation for %s/%s, which does not exist", dir, name)
		}
	}
	return files
}

// profileRefusals says how add refuses each file of testdata/hostile/profile.
// validate refuses the same files with the same words, except those whose
// only fault is a built-in name, which validate accepts.
var profileRefusals = map[string]refusal{
	"billion-laughs.yaml":         {3, "must be a string, got a list"},
	"billion-laughs-merge.yaml":   {3, "too many alias or merge-key uses"},
	"binary-garbage.bin":          {3, "NUL byte"},
	"binary-no-nul.bin":           {3, "not valid UTF-8"},
	"blank-category.yaml":         {3, "must not be blank"},
	"bool-on.yaml":                {3, `must be true or false, got string "on"`},
	"bool-one.yaml":               {3, "must be true or false, got integer 1"},
	"bool-quoted-yes.yaml":        {3, `must be true or false, got string "yes"`},
	"bool-yes.yaml":               {3, `must be true or false, got string "yes"`},
	"comment-only.yaml":           {3, "file is empty"},
	"cost-1e400.yaml":             {3, "it must be finite"},
	"cost-subnormal.yaml":         {3, "closer to 0 than the smallest number read at full precision"},
	"cost-nan.yaml":               {3, "must be a finite number, got .nan"},
	"duplicate-key.yaml":          {3, `duplicate key "name"`},
	"empty.yaml":                  {3, "file is empty"},
	"int-exponent.yaml":           {3, "must be an integer, got number 1e3"},
	"int-fraction.yaml":           {3, "must be an integer, got number 1.5"},
	"int-overflow.yaml":           {3, "integer 99999999999999999999999 is out of range"},
	"invalid-utf8.yaml":           {3, "not valid UTF-8"},
	"legacy-disagrees.yaml":       {3, "disagrees with safety.require_sandbox"},
	"list-root.yaml":              {3, "must be a mapping"},
	"name-builtin.yaml":           {5, "is a built-in profile"},
	"name-int.yaml":               {3, "must be a string, got integer 123"},
	"name-null.yaml":              {3, "must be a string, got null"},
	"nul-byte.yaml":               {3, "NUL byte"},
	"schema-version.yaml":         {3, `must be "1.0", got "2.0"`},
	"second-document.yaml":        {3, "more than one YAML document"},
	"second-document-tagged.yaml": {3, "more than one YAML document"},
	"tag-binary.yaml":             {3, "must be a string, got binary data"},
	"tag-custom.yaml":             {3, `unsupported tag "!custom"`},
	"tag-str-on-float.yaml":       {3, `must be a number, got string "0.5"`},
	"threshold-1e400.yaml":        {3, "it must be finite"},
	"threshold-1e-400.yaml":       {3, "closer to 0 than the smallest number read at full precision"},
	"threshold-above-one.yaml":    {3, "must be between 0 and 1"},
	"threshold-inf.yaml":          {3, "must be a finite number, got .inf"},
	"threshold-minus-inf.yaml":    {3, "must be a finite number, got -.Inf"},
	"threshold-nan.yaml":          {3, "must be a finite number, got .nan"},
	"unknown-key.yaml":            {3, `did you mean "auto_apply"`},
	"utf16.yaml":                  {3, "looks like UTF-16"},
}

// TestHostileProfiles runs add, add --update and validate on every hostile
// profile file, committed and generated.
func TestHostileProfiles(t *testing.T) {
	home := hostileHome(t)
	for _, base := range corpus(t, "profile", profileRefusals) {
		t.Run(base, func(t *testing.T) {
			file := filepath.Join(hostileDir, "profile", base)
			want := profileRefusals[base]
			expectRefusal(t, home, nil, want, "automation-profile", "add", "-c", file)
			expectRefusal(t, home, nil, want, "automation-profile", "add", "--update", "-c", file)
			if want.code == 3 {
				expectInvalidReport(t, home, file, want.want)
			}
			// The human form starts with the error line.
			r := runHostile(t, home, nil, "automation-profile", "add", "-c", file, "-f", "plain")
			if !strings.HasPrefix(r.stderr, "agents: error: ") && !strings.Contains(r.stderr, "\nagents: error: ") {
				t.Errorf("plain error has no 'agents: error: ' line:\n%s", r.stderr)
			}
		})
	}

	gen := t.TempDir()
	tooLarge := "larger than 1048576 bytes"
	generated := []struct {
		name    string
		make    func(path string)
		want    refusal
		bounded bool // must not read the input whole: peak memory checked
	}{
		{"2MiB.yaml", func(path string) {
			writeFile(t, path, "name: acme/big\ndescription: \""+strings.Repeat("x", 2<<20)+"\"\n")
		}, refusal{3, tooLarge}, false},
		{"64MiB-sparse.yaml", func(path string) {
			writeFile(t, path, "name: acme/huge\ndescription: |\n")
			if err := os.Truncate(path, 64<<20); err != nil {
				t.Fatal(err)
			}
		}, refusal{3, tooLarge}, true},
		{"nesting-past-the-limit-list.yaml", func(path string) {
			writeFile(t, path, "name: acme/deep\nguards:\n  tool_denylist: "+strings.Repeat("[", 10001)+strings.Repeat("]", 10001)+"\n")
		}, refusal{3, "exceeded max depth"}, false},
		{"nesting-past-the-limit-map.yaml", func(path string) {
			writeFile(t, path, "name: acme/deep\nguards: "+strings.Repeat("{a: ", 10001)+"1"+strings.Repeat("}", 10001)+"\n")
		}, refusal{3, "exceeded max depth"}, false},
		{"nesting-under-the-limit.yaml", func(path string) {
			writeFile(t, path, "name: acme/deep\nguards:\n  tool_denylist: "+strings.Repeat("[", 5000)+strings.Repeat("]", 5000)+"\n")
		}, refusal{3, "must be a string, got a list"}, false},
		{"directory.yaml", func(path string) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}, refusal{3, "is a directory"}, false},
	}
	for _, g := range generated {
		t.Run(g.name, func(t *testing.T) {
			file := filepath.Join(gen, g.name)
			g.make(file)
			runner := runHostile
			if g.bounded {
				runner = runMeasured
			}
			r := expectRefusalWith(t, runner, home, nil, g.want, "automation-profile", "add", "--update", "-c", file)
			if g.bounded && r.peakRSS > maxPeakRSS {
				t.Errorf("add used %d MiB for a file it should refuse unread", r.peakRSS>>20)
			}
			expectInvalidReport(t, home, file, g.want.want)
		})
	}
	// A stream without end: refused after the limit, not read to its end.
	t.Run("endless-stdin", func(t *testing.T) {
		r := expectRefusalWith(t, runMeasured, home, endless{}, refusal{3, tooLarge}, "automation-profile", "add", "-c", "-")
		if r.peakRSS > maxPeakRSS {
			t.Errorf("add used %d MiB reading an endless stream", r.peakRSS>>20)
		}
	})
}

// endless is a reader that never ends, of valid YAML lines.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	const line = "description: more\n"
	for i := range p {
		p[i] = line[i%len(line)]
	}
	return len(p), nil
}

// TestHostileNames gives every name of testdata/hostile/names.txt to add
// (in a file's name field), validate, remove and show. A name that could
// escape or collide in the store is invalid input; a built-in name is a
// conflict for add and remove.
func TestHostileNames(t *testing.T) {
	home := hostileHome(t)
	src := t.TempDir()
	f, err := os.Open(filepath.Join(hostileDir, "names.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		code, name, ok := strings.Cut(line, "\t")
		if !ok || (code != "3" && code != "5") {
			t.Fatalf("names.txt: bad line %q", line)
		}
		n++
		t.Run(fmt.Sprintf("%02d", n), func(t *testing.T) {
			quoted, _ := json.Marshal(name)
			file := filepath.Join(src, fmt.Sprintf("%02d.yaml", n))
			writeFile(t, file, "name: "+string(quoted)+"\nauto_apply: 0.5\n")
			if code == "5" {
				expectRefusal(t, home, nil, refusal{5, "is a built-in profile"}, "automation-profile", "add", "-c", file)
				expectRefusal(t, home, nil, refusal{5, "is a built-in profile"}, "automation-profile", "remove", name, "--yes")
				return
			}
			expectRefusal(t, home, nil, refusal{3, "name"}, "automation-profile", "add", "--update", "-c", file)
			expectInvalidReport(t, home, file, "")
			// On the command line a malformed name is invalid input, a
			// single well-formed word included: the built-ins are the
			// only bare names.
			arg := refusal{3, "invalid name"}
			expectRefusal(t, home, nil, arg, "automation-profile", "remove", name, "--yes")
			expectRefusal(t, home, nil, arg, "automation-profile", "show", name)
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 30 {
		t.Fatalf("only %d names read", n)
	}
}

// TestHostileAccepted adds the files real editors produce: each must be
// stored with the values it holds, and its stored form must round-trip.
func TestHostileAccepted(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	f64 := func(v float64) *float64 { return &v }
	tests := map[string]struct {
		name  string
		check func(p *profile.AutomationProfile) bool
	}{
		"bom.yaml": {"acme/bom", func(p *profile.AutomationProfile) bool {
			return p.Description == "starts with a byte order mark" && p.AutoApply == 0.25
		}},
		"crlf.yaml": {"acme/crlf", func(p *profile.AutomationProfile) bool {
			return p.Description == "written on Windows" && p.AutoApply == 0.5 && p.Safety.RequireSandbox
		}},
		"bom-crlf.yaml": {"acme/bom-crlf", func(p *profile.AutomationProfile) bool {
			return p.AutoApply == 0.75
		}},
		"merge-keys.yaml": {"acme/merged", func(p *profile.AutomationProfile) bool {
			return reflect.DeepEqual(p.Safety.MaxTotalCost, f64(25)) && p.Guards != nil &&
				reflect.DeepEqual(p.Guards.MaxTotalCost, f64(25)) && slices.Equal(p.Guards.ToolDenylist, []string{"rm", "curl"})
		}},
		"negative-zero.yaml": {"acme/negzero", func(p *profile.AutomationProfile) bool {
			return p.AutoApply == 0 && !math.Signbit(p.AutoApply) && p.AutoExecute == 0 && !math.Signbit(p.AutoExecute) &&
				p.Safety.MaxCostPerPlan != nil && *p.Safety.MaxCostPerPlan == 0 && !math.Signbit(*p.Safety.MaxCostPerPlan)
		}},
	}
	for _, base := range corpus(t, "accepted", tests) {
		t.Run(base, func(t *testing.T) {
			tt := tests[base]
			file := filepath.Join(hostileDir, "accepted", base)
			if r := runHostile(t, home, nil, "automation-profile", "validate", file); r.code != 0 {
				t.Fatalf("validate: exit %d: %s", r.code, r.stderr)
			}
			if r := runHostile(t, home, nil, "automation-profile", "add", "-c", file, "-f", "json"); r.code != 0 || r.stderr != "" {
				t.Fatalf("add: exit %d: %s", r.code, r.stderr)
			}
			p, data := readStored(t, home, tt.name)
			if p == nil || !tt.check(p) {
				t.Fatalf("stored profile does not hold the file's values:\n%s", data)
			}
			if bytes.Contains(data, []byte("-0")) || bytes.Contains(data, []byte("\r")) || bytes.HasPrefix(data, []byte("\ufeff")) {
				t.Errorf("stored form keeps an editor's mark:\n%q", data)
			}
			// What show prints, add takes back unchanged.
			shown := filepath.Join(t.TempDir(), "shown.yaml")
			r := runHostile(t, home, nil, "automation-profile", "show", tt.name, "-f", "yaml")
			writeFile(t, shown, r.stdout)
			if r := runHostile(t, home, nil, "automation-profile", "add", "--update", "-c", shown); r.code != 0 {
				t.Fatalf("re-adding the shown form: exit %d: %s", r.code, r.stderr)
			}
			if _, again := readStored(t, home, tt.name); !bytes.Equal(again, data) {
				t.Errorf("the round trip changed the stored form:\n%s\n%s", data, again)
			}
		})
	}
}

// packRefusals says what verify says of each file of testdata/hostile/pack.
// Every one is refused with exit 6, given as a file and as the configured
// pack.
var packRefusals = map[string]string{
	"binary-garbage.bin":                 "not valid UTF-8",
	"bom.json":                           "failed verification",
	"boundary-id-not-string.json":        "must be a string, got a boolean",
	"boundary-ids-duplicate.json":        "duplicate boundary id",
	"boundary-ids-empty.json":            "must not be empty",
	"boundary-undescribed.json":          `boundary "no_undescribed" has no description`,
	"comment.json":                       "invalid JSON",
	"duplicate-key.json":                 "duplicate key",
	"empty.json":                         "file is empty",
	"invalid-utf8.json":                  "not valid UTF-8",
	"missing-boundary-descriptions.json": "boundary_descriptions: is required",
	"nan.json":                           "invalid JSON",
	"nul-byte.json":                      "in string literal",
	"number-1e400.json":                  "version: must be a string, got a number",
	"pack-id-absolute.json":              "must not contain a path separator",
	"pack-id-cyrillic.json":              "must have the form",
	"pack-id-escape.json":                "must not contain a path separator",
	"pack-id-long.json":                  "at most 100 are allowed",
	"pack-id-major-mismatch.json":        "does not match the pack id",
	"pack-id-number.json":                "pack_id: must be a string, got a number",
	"pack-id-upper.json":                 "must have the form",
	"root-list.json":                     "must be a JSON object, got an array",
	"schema-version-wrong.json":          `must be "1.0.0", got "2.0.0"`,
	"seal-not-hex.json":                  "64 lower-case hex digits",
	"seal-null.json":                     "must be a string, got null",
	"second-document.json":               "more data after the document",
	"trailing-garbage.json":              "invalid JSON",
	"truncated.json":                     "unexpected end of file",
	"unknown-key.json":                   `did you mean "boundary_ids"`,
	"unratified.json":                    "failed verification",
	"version-number.json":                "version: must be a string, got a number",
	"yaml-not-json.json":                 "invalid JSON",
}

// packID is the id the hostile packs carry (when they carry a valid one).
const packID = "acme_safety_v1"

// configurePack puts pack (and report, when not nil) in home as the
// configured pack.
func configurePack(t *testing.T, home string, pack, report []byte) {
	t.Helper()
	dir := filepath.Join(home, "packs", "safety")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, "config.yaml"), "safety_pack: "+packID+"\n")
	writeFile(t, filepath.Join(dir, packID+".json"), string(pack))
	reportFile := filepath.Join(dir, packID+".mastery_report.json")
	if report == nil {
		_ = os.Remove(reportFile)
		return
	}
	writeFile(t, reportFile, string(report))
}

// expectPackRefused checks that the pack in force is refused by the
// commands that load it.
func expectPackRefused(t *testing.T, home, want string) {
	t.Helper()
	for _, args := range [][]string{{"safety-pack", "verify"}, {"safety-pack", "show"}, {"safety-pack", "check"}} {
		expectRefusal(t, home, nil, refusal{6, want}, args...)
	}
}

// ratified returns a ratified copy of the unratified hostile pack, edited
// by edit first, and its mastery report.
func ratified(t *testing.T, edit func(m map[string]any)) (pack, report []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(hostileDir, "pack", "unratified.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(m)
	}
	data, _ = json.MarshalIndent(m, "", "  ")
	file := filepath.Join(t.TempDir(), packID+".json")
	writeFile(t, file, string(data))
	if r := runAgents(t, t.TempDir(), "safety-pack", "ratify", file); r.code != 0 {
		t.Fatalf("ratify: exit %d: %s", r.code, r.stderr)
	}
	pack, err = os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	report, err = os.ReadFile(filepath.Join(filepath.Dir(file), packID+".mastery_report.json"))
	if err != nil {
		t.Fatal(err)
	}
	return pack, report
}

// TestHostilePacks feeds every hostile pack to safety-pack verify as a
// file, and installs it as the configured pack for the commands that load
// the pack in force. Generated cases cover sizes, nesting, tampering, a
// looser pack, hostile mastery reports and a pack that is a link out of
// the home; and the forms editors produce must still verify.
func TestHostilePacks(t *testing.T) {
	for _, base := range corpus(t, "pack", packRefusals) {
		t.Run(base, func(t *testing.T) {
			home := hostileHome(t)
			file := filepath.Join(hostileDir, "pack", base)
			expectRefusal(t, home, nil, refusal{6, packRefusals[base]}, "safety-pack", "verify", file)
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			configurePack(t, home, data, nil)
			expectPackRefused(t, home, "safety pack")
		})
	}

	good, goodReport := ratified(t, nil)
	t.Run("control", func(t *testing.T) {
		home := hostileHome(t)
		configurePack(t, home, good, goodReport)
		for _, args := range [][]string{{"safety-pack", "verify"}, {"safety-pack", "show"}} {
			if r := runHostile(t, home, nil, args...); r.code != 0 {
				t.Fatalf("%v of a ratified pack: exit %d: %s", args, r.code, r.stderr)
			}
		}
	})
	// What editors write around the same content verifies.
	for name, data := range map[string][]byte{
		"bom":  append([]byte("\ufeff"), good...),
		"crlf": bytes.ReplaceAll(good, []byte("\n"), []byte("\r\n")),
	} {
		t.Run("accepted-"+name, func(t *testing.T) {
			home := hostileHome(t)
			configurePack(t, home, data, goodReport)
			if r := runHostile(t, home, nil, "safety-pack", "verify"); r.code != 0 {
				t.Fatalf("verify: exit %d: %s", r.code, r.stderr)
			}
		})
	}

	big := func(n int) []byte {
		return []byte(`{"pack_id": "` + packID + `", "description": "` + strings.Repeat("x", n) + `"}`)
	}
	tampered := bytes.Replace(good, []byte("Nothing is fetched"), []byte("Little is fetched"), 1)
	looser, looserReport := ratified(t, func(m map[string]any) {
		ids := m["boundary_ids"].([]any)
		m["boundary_ids"] = slices.DeleteFunc(slices.Clone(ids), func(v any) bool { return v == "no_hot_path_repair" })
		delete(m["boundary_descriptions"].(map[string]any), "no_hot_path_repair")
	})
	_, otherReport := ratified(t, func(m map[string]any) { m["description"] = "another pack" })
	outside := filepath.Join(t.TempDir(), packID+".json")
	writeFile(t, outside, string(good))
	writeFile(t, filepath.Join(filepath.Dir(outside), packID+".mastery_report.json"), string(goodReport))

	generated := []struct {
		name           string
		pack, report   []byte
		sparse         int64 // a pack file of this size, holding pack then a hole
		sparseReport   int64 // the same for the report
		link           string
		verifyFile     string // what verify of the file says; "" when it verifies
		want           string // what the loader says of it as the configured pack
		boundedLoading bool
	}{
		{name: "2MiB", pack: big(2 << 20), verifyFile: "at most 1048576", want: "at most 1048576"},
		{name: "64MiB-sparse", pack: []byte(`{"pack_id": "`), sparse: 64 << 20, verifyFile: "at most 1048576", want: "at most 1048576", boundedLoading: true},
		{name: "nesting-past-the-limit", pack: []byte(`{"boundary_ids": ` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`), verifyFile: "exceeded max depth", want: "exceeded max depth"},
		{name: "tampered", pack: tampered, report: goodReport, verifyFile: "failed verification", want: "failed verification"},
		{name: "looser", pack: looser, report: looserReport, want: "looser than the shipped pack"},
		{name: "report-64MiB-sparse", pack: good, report: []byte("{"), sparseReport: 64 << 20, verifyFile: "failed verification", want: "failed verification", boundedLoading: true},
		{name: "report-garbage", pack: good, report: []byte("\x00\xff\xfe garbage"), verifyFile: "failed verification", want: "failed verification"},
		{name: "report-of-another-pack", pack: good, report: otherReport, verifyFile: "failed verification", want: "failed verification"},
		{name: "pack-links-out-of-the-home", link: outside, want: "safety pack"},
	}
	for _, g := range generated {
		t.Run(g.name, func(t *testing.T) {
			home := hostileHome(t)
			dir := t.TempDir()
			file := filepath.Join(dir, packID+".json")
			reportFile := filepath.Join(dir, packID+".mastery_report.json")
			if g.link == "" {
				place(t, file, g.pack, g.sparse)
				if g.report != nil {
					place(t, reportFile, g.report, g.sparseReport)
				}
				if g.verifyFile != "" {
					r := expectRefusalWith(t, runMeasured, home, nil, refusal{6, g.verifyFile}, "safety-pack", "verify", file)
					if g.boundedLoading && r.peakRSS > maxPeakRSS {
						t.Errorf("verify used %d MiB", r.peakRSS>>20)
					}
				} else if r := runHostile(t, home, nil, "safety-pack", "verify", file); r.code != 0 {
					t.Errorf("verify of the file: exit %d: %s", r.code, r.stderr)
				}
			}
			// The same files in the home, as the configured pack.
			packs := filepath.Join(home, "packs", "safety")
			if err := os.MkdirAll(packs, 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(home, "config.yaml"), "safety_pack: "+packID+"\n")
			if g.link != "" {
				if err := os.Symlink(g.link, filepath.Join(packs, packID+".json")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.Join(filepath.Dir(g.link), packID+".mastery_report.json"), filepath.Join(packs, packID+".mastery_report.json")); err != nil {
					t.Fatal(err)
				}
			} else {
				place(t, filepath.Join(packs, packID+".json"), g.pack, g.sparse)
				if g.report != nil {
					place(t, filepath.Join(packs, packID+".mastery_report.json"), g.report, g.sparseReport)
				}
			}
			expectPackRefused(t, home, g.want)
			if g.boundedLoading {
				r := runMeasured(t, home, nil, "safety-pack", "show")
				if r.peakRSS > maxPeakRSS {
					t.Errorf("loading the pack used %d MiB", r.peakRSS>>20)
				}
			}
		})
	}
}

// place writes data to path and, when size is larger, extends the file to
// size with a hole, which takes no disk space.
func place(t *testing.T, path string, data []byte, size int64) {
	t.Helper()
	writeFile(t, path, string(data))
	if size > int64(len(data)) {
		if err := os.Truncate(path, size); err != nil {
			t.Fatal(err)
		}
	}
}

// configRefusals says how safety-pack show refuses each config.yaml of
// testdata/hostile/config: exit 3 when the file cannot be read as YAML at
// all, 6 when it cannot say which safety pack is in force.
var configRefusals = map[string]refusal{
	"billion-laughs.yaml":     {3, `unknown field "a"`}, // refused before any alias is expanded
	"binary-garbage.bin":      {3, "file contains a NUL byte"},
	"nul-byte.yaml":           {3, "file contains a NUL byte"},
	"pack-id-bool.yaml":       {6, `"yes" must have the form`},
	"pack-id-custom-tag.yaml": {6, `got a value tagged "!custom"`},
	"pack-id-duplicate.yaml":  {3, "already defined"},
	"pack-id-escape.yaml":     {6, "must not contain a path separator"},
	"pack-id-list.yaml":       {6, "got a list"},
	"pack-id-null.yaml":       {6, "got null"},
	"pack-id-upper.yaml":      {6, "must have the form"},
	"pack-missing.yaml":       {6, "is missing"},
	"second-document.yaml":    {3, "more than one YAML document"},
}

// TestHostileConfig puts every hostile config.yaml in the home: the pack in
// force must be refused, never guessed.
func TestHostileConfig(t *testing.T) {
	for _, base := range corpus(t, "config", configRefusals) {
		t.Run(base, func(t *testing.T) {
			home := hostileHome(t)
			data, err := os.ReadFile(filepath.Join(hostileDir, "config", base))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(home, "config.yaml"), string(data))
			expectRefusal(t, home, nil, configRefusals[base], "safety-pack", "show")
			expectRefusal(t, home, nil, configRefusals[base], "safety-pack", "verify")
		})
	}
	t.Run("64MiB-sparse", func(t *testing.T) {
		home := hostileHome(t)
		file := filepath.Join(home, "config.yaml")
		writeFile(t, file, "safety_pack: "+packID+"\n#")
		if err := os.Truncate(file, 64<<20); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"safety-pack", "show"}, {"automation-profile", "list"}} {
			r := expectRefusalWith(t, runMeasured, home, nil, refusal{3, "larger than 1048576 bytes"}, args...)
			if r.peakRSS > maxPeakRSS {
				t.Errorf("%v used %d MiB for a config.yaml it should refuse unread", args, r.peakRSS>>20)
			}
		}
	})
}

// TestHostileLinks plants links in the store that lead out of it, and
// checks that no write or delete goes through one: each mutation is
// refused, naming the link, and nothing outside changes.
func TestHostileLinks(t *testing.T) {
	src := t.TempDir()
	fx, _ := profileFile(t, src, "x.yaml", "name: acme/x\nauto_apply: 0.25\n")
	fy, _ := profileFile(t, src, "y.yaml", "name: acme/y\nauto_apply: 0.25\n")
	replace := []string{"automation-profile", "add", "--update", "-c", fx}
	addNew := []string{"automation-profile", "add", "-c", fy}
	remove := []string{"automation-profile", "remove", "acme/x", "--yes"}
	tests := []struct {
		name string
		// The link, relative to the home, to a target in a folder outside.
		link, target string
		dir          bool   // the target is a folder holding x.yaml and acme/x.yaml
		want         string // what each refusal says
		newNameWorks bool   // adding acme/y does not go through the link
	}{
		{name: "namespace folder", link: "profiles/acme", target: "ns", dir: true, want: "leads outside the store"},
		{name: "profile file", link: "profiles/acme/x.yaml", target: "x.yaml", want: "it is a symbolic link, not a regular file", newNameWorks: true},
		{name: "profiles folder", link: "profiles", target: "profiles", dir: true, want: "leads outside the store"},
		{name: "history folder", link: "history", target: "history", dir: true, want: "it is a symbolic link, not a folder"},
		{name: "objects folder", link: "objects", target: "objects", dir: true, want: "it is a symbolic link, not a folder"},
		{name: "lock file", link: ".lock", target: "lock", want: ".lock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := hostileHome(t)
			inside, _ := profileFile(t, t.TempDir(), "x.yaml", "name: acme/x\ndescription: inside\n")
			if r := runAgents(t, home, "automation-profile", "add", "-c", inside); r.code != 0 {
				t.Fatalf("add: exit %d: %s", r.code, r.stderr)
			}
			outside := t.TempDir()
			target := filepath.Join(outside, tt.target)
			if tt.dir {
				if err := os.MkdirAll(filepath.Join(target, "acme"), 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(target, "x.yaml"), "name: acme/x\ndescription: outside\n")
				writeFile(t, filepath.Join(target, "acme", "x.yaml"), "name: acme/x\ndescription: outside\n")
			} else {
				writeFile(t, target, "name: acme/x\ndescription: outside\n")
			}
			link := filepath.Join(home, tt.link)
			if err := os.RemoveAll(link); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			before := treeHash(t, outside)
			for _, args := range [][]string{replace, addNew, remove} {
				r := runHostile(t, home, nil, append(args, "-f", "json")...)
				if tt.newNameWorks && slices.Equal(args, addNew) {
					if r.code != 0 {
						t.Errorf("%v: exit %d, but the link is not on its way: %s", args, r.code, r.stderr)
					}
					continue
				}
				// Not the input's fault: the store holds what it never
				// writes, so this is an unexpected failure (1).
				if r.code != 1 {
					t.Errorf("%v: exit %d, want 1: %s", args, r.code, r.stderr)
					continue
				}
				if je := errorOf(t, r.stderr); !strings.Contains(je.text(), tt.want) || !strings.Contains(je.text(), home) {
					t.Errorf("%v: the refusal does not say %q about a path in the store:\n%s", args, tt.want, je.text())
				}
			}
			if after := treeHash(t, outside); after != before {
				t.Error("a mutation changed files outside the store")
			}
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the link was replaced or removed: %v", err)
			}
			// Reading through the link never shows the outside content.
			r := runHostile(t, home, nil, "automation-profile", "show", "acme/x", "-f", "json")
			if strings.Contains(r.stdout, "outside") {
				t.Errorf("show served a profile from outside the store:\n%s", r.stdout)
			}
		})
	}
	// The journal of temporary files names only files inside the store: a
	// line leading out, or a temporary name that is a link, removes nothing
	// outside.
	t.Run("journal", func(t *testing.T) {
		home := hostileHome(t)
		outside := t.TempDir()
		victim := filepath.Join(outside, ".tmp-victim")
		writeFile(t, victim, "keep me\n")
		rel, err := filepath.Rel(home, victim)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(victim, filepath.Join(home, "profiles", "acme", ".tmp-link")); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(home, ".pending"), rel+"\n"+victim+"\nprofiles/acme/.tmp-link\n")
		if r := runHostile(t, home, nil, "automation-profile", "add", "-c", fy); r.code != 0 {
			t.Fatalf("add: exit %d: %s", r.code, r.stderr)
		}
		if data, err := os.ReadFile(victim); err != nil || string(data) != "keep me\n" {
			t.Errorf("a file outside the store was removed or changed: %v", err)
		}
	})
}

// TestHostileActions runs action add on hostile action files: the parser
// hazards of the profile corpus in an action's shape, names that try to
// escape the store, and a hostile inline safety profile.
func TestHostileActions(t *testing.T) {
	home := hostileHome(t)
	const valid = "description: d\ndefinition_of_done: done\nstrategy_actor: local/default\nexecution_actor: local/default\n"
	laughs := "a: &a [x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		laughs += n + ": &" + n + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
		prev = n
	}
	cases := []struct {
		name, content string
		want          refusal
	}{
		{"escape-dots", "name: ../x\n" + valid, refusal{3, `namespace ".."`}},
		{"escape-absolute", "name: /etc/passwd\n" + valid, refusal{3, "name"}},
		{"escape-middle", "name: a/../../b\n" + valid, refusal{3, "name"}},
		{"escape-trailing", "name: qa/..\n" + valid, refusal{3, "name"}},
		{"upper-case", "name: Acme/deploy\n" + valid, refusal{3, "lower-case"}},
		{"look-alike", "name: \u0430cme/deploy\n" + valid, refusal{3, "lower-case"}},
		{"windows-device", "name: acme/con\n" + valid, refusal{3, "reserved device name"}},
		{"long-part", "name: acme/" + strings.Repeat("a", 64) + "\n" + valid, refusal{3, "at most 63"}},
		{"nul-byte", "name: acme/x\x00\n" + valid, refusal{3, "NUL byte"}},
		{"invalid-utf8", "name: acme/x\n" + valid + "description: \xff\xfe\n", refusal{3, "not valid UTF-8"}},
		{"second-document", "name: acme/x\n" + valid + "---\nname: acme/y\n", refusal{3, "more than one YAML document"}},
		{"custom-tag", "name: !custom acme/x\n" + valid, refusal{3, "!custom"}},
		{"duplicate-key", "name: acme/x\nname: acme/y\n" + valid, refusal{3, `duplicate key "name"`}},
		{"unknown-key", "name: acme/x\n" + valid + "automation_profil: manual\n", refusal{3, `did you mean "automation_profile"`}},
		{"billion-laughs", "name: acme/x\n" + valid + laughs + "safety_profile:\n  allowed_skill_categories: *i\n", refusal{3, "unknown"}},
		{"safety-yes", "name: acme/x\n" + valid + "safety_profile:\n  require_sandbox: yes\n", refusal{3, "must be true or false"}},
		{"safety-nan", "name: acme/x\n" + valid + "safety_profile:\n  max_total_cost: .nan\n", refusal{3, "finite"}},
		{"safety-fraction", "name: acme/x\n" + valid + "safety_profile:\n  max_retries_per_step: 1.5\n", refusal{3, "must be an integer"}},
		{"safety-overflow", "name: acme/x\n" + valid + "safety_profile:\n  max_retries_per_step: 99999999999999999999999\n", refusal{3, "out of range"}},
		{"missing-profile", "name: acme/x\n" + valid + "automation_profile: acme/nowhere\n", refusal{3, "acme/nowhere"}},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(dir, c.name+".yaml")
			writeFile(t, file, c.content)
			expectRefusal(t, home, nil, c.want, "action", "add", "-c", file)
		})
	}
	t.Run("64MiB-sparse", func(t *testing.T) {
		file := filepath.Join(dir, "huge.yaml")
		writeFile(t, file, "name: acme/huge\ndescription: |\n")
		if err := os.Truncate(file, 64<<20); err != nil {
			t.Fatal(err)
		}
		r := expectRefusalWith(t, runMeasured, home, nil, refusal{3, "larger than 1048576 bytes"}, "action", "add", "-c", file)
		if r.peakRSS > maxPeakRSS {
			t.Errorf("action add used %d MiB for a file it should refuse unread", r.peakRSS>>20)
		}
	})
}
