package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// agentsBinary builds the command once per test process, without the race
// detector: process-level suites start dozens of copies at once, and a
// race-instrumented binary is too slow on a small machine for any sane lock
// timeout.
func agentsBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agents-bin-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "agents")
		if runtime.GOOS == "windows" {
			builtBin += ".exe"
		}
		cmd := exec.Command("go", "build", "-o", builtBin, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

// removeBuiltBinary deletes the folder agentsBinary built into.
func removeBuiltBinary() {
	if builtBin != "" {
		os.RemoveAll(filepath.Dir(builtBin))
	}
}

// result is what one run of the binary did.
type result struct {
	code           int
	stdout, stderr string
}

// runAgents runs the built binary with the given home and arguments.
func runAgents(t testing.TB, home string, args ...string) result {
	t.Helper()
	cmd := exec.Command(agentsBinary(t), args...)
	cmd.Env = append(os.Environ(), "AGENTS_HOME="+home, "CI=true", "NO_COLOR=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run agents: %v", err)
	}
	return result{code, out.String(), errOut.String()}
}

func profileYAML(name, description string, applyThreshold float64) string {
	return fmt.Sprintf("name: %s\ndescription: %q\nauto_apply: %v\n", name, description, applyThreshold)
}

// TestConcurrentAddUpdate starts 50 processes adding distinct profiles and
// 50 processes replacing one shared profile, all at once. Every distinct
// name must be present afterwards, the shared one must equal one writer's
// version, and no temporary file may remain.
func TestConcurrentAddUpdate(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 100 processes")
	}
	home := t.TempDir()
	src := t.TempDir()
	const n = 50
	var files []string
	for i := 0; i < n; i++ {
		f := filepath.Join(src, fmt.Sprintf("distinct-%d.yaml", i))
		writeFile(t, f, profileYAML(fmt.Sprintf("team/p%d", i), fmt.Sprintf("distinct %d", i), 0.5))
		files = append(files, f)
	}
	for i := 0; i < n; i++ {
		f := filepath.Join(src, fmt.Sprintf("shared-%d.yaml", i))
		writeFile(t, f, profileYAML("team/shared", fmt.Sprintf("writer %d", i), float64(i)/100))
		files = append(files, f)
	}

	var wg sync.WaitGroup
	results := make([]result, len(files))
	for i, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = runAgents(t, home, "--lock-timeout", "5m", "automation-profile", "add", "--update", "-c", f, "-f", "json")
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Errorf("writer %d: exit %d: %s", i, r.code, r.stderr)
		}
	}

	list := runAgents(t, home, "automation-profile", "list", "--namespace", "team", "-f", "plain")
	if list.code != 0 || list.stderr != "" {
		t.Fatalf("list: exit %d, stderr %q", list.code, list.stderr)
	}
	names := strings.Fields(list.stdout)
	if len(names) != n+1 {
		t.Errorf("listed %d profiles, want %d: %v", len(names), n+1, names)
	}
	for i := 0; i < n; i++ {
		want := fmt.Sprintf("team/p%d", i)
		if !slices.Contains(names, want) {
			t.Errorf("profile %s is missing", want)
		}
	}
	shared := runAgents(t, home, "automation-profile", "show", "team/shared", "-f", "json")
	if shared.code != 0 {
		t.Fatalf("show shared: exit %d: %s", shared.code, shared.stderr)
	}
	matched := false
	for i := 0; i < n; i++ {
		if strings.Contains(shared.stdout, fmt.Sprintf(`"description": "writer %d"`, i)) &&
			strings.Contains(shared.stdout, fmt.Sprintf(`"auto_apply": %v,`, float64(i)/100)) {
			matched = true
		}
	}
	if !matched {
		t.Errorf("shared profile matches no writer's version:\n%s", shared.stdout)
	}
	err := filepath.WalkDir(home, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
