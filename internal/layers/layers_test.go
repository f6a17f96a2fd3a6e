// Package layers holds the test of the import rules docs/architecture.md
// states: which layer of agents may use which.
package layers

import (
	"errors"
	"go/build"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/agentsctl/agents/"

// pkg is a package of the module: what it imports (tests left out: the
// rules are about what ships), and every package it depends on, directly
// or through others.
type pkg struct {
	Imports []string
	Deps    []string
}

// listPackages reads the import graph of the module from its source, with
// go/build as go list does, so that the test cache sees every file it read.
func listPackages(t *testing.T) map[string]pkg {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string][]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		bp, err := build.ImportDir(path, 0)
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		imports[filepath.ToSlash(rel)] = bp.Imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]pkg{}
	for path, imps := range imports {
		seen := map[string]bool{}
		var walk func(imps []string)
		walk = func(imps []string) {
			for _, imp := range imps {
				if seen[imp] {
					continue
				}
				seen[imp] = true
				if in, ok := strings.CutPrefix(imp, module); ok {
					walk(imports[in])
				}
			}
		}
		walk(imps)
		pkgs[path] = pkg{Imports: imps, Deps: slices.Sorted(maps.Keys(seen))}
	}
	return pkgs
}

// under reports whether the package path is dir or below it.
func under(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }

// Forbidden imports, by what they are.
var (
	commandLine = []string{module + "internal/cli", "github.com/spf13/cobra", "github.com/spf13/viper", "github.com/spf13/pflag"}
	rendering   = []string{module + "internal/render"}
	stores      = []string{module + "internal/store"}
	registry    = []string{module + "internal/registry"}
	config      = []string{module + "internal/config"}
)

// rules are the layers and what each must never depend on, directly or
// through another package.
var rules = []struct {
	layer  string
	dirs   []string
	forbid [][]string
}{
	{"the domain", []string{"internal/profile", "internal/plan", "internal/action", "internal/safetypack", "internal/strictyaml",
		"internal/canon", "internal/hook", "internal/config", "internal/jsonread", "internal/suggest"},
		[][]string{commandLine, rendering, stores, registry}},
	{"resolve", []string{"internal/resolve"}, [][]string{commandLine, rendering, stores, registry, config}},
	{"the store", []string{"internal/store"}, [][]string{commandLine, rendering, registry}},
	{"rendering", []string{"internal/render"}, [][]string{commandLine, stores, registry}},
	{"the registry", []string{"internal/registry"}, [][]string{commandLine, rendering}},
}

func TestLayers(t *testing.T) {
	pkgs := listPackages(t)
	for _, r := range rules {
		for path, p := range pkgs {
			in := false
			for _, d := range r.dirs {
				in = in || under(path, d)
			}
			if !in {
				continue
			}
			for _, dep := range p.Deps {
				for _, group := range r.forbid {
					for _, f := range group {
						if under(dep, f) {
							t.Errorf("%s (%s) depends on %s", path, r.layer, dep)
						}
					}
				}
			}
		}
	}
}

// TestCommandGroupsStandApart: no command group imports another; what they
// share is in internal/cli/cmdutil or below the command line.
func TestCommandGroupsStandApart(t *testing.T) {
	pkgs := listPackages(t)
	group := func(path string) string {
		rest, ok := strings.CutPrefix(path, "internal/cli/")
		if !ok || rest == "cmdutil" || strings.HasPrefix(rest, "cmdutil/") {
			return ""
		}
		g, _, _ := strings.Cut(rest, "/")
		return g
	}
	seen := 0
	for path, p := range pkgs {
		from := group(path)
		if from == "" {
			continue
		}
		seen++
		for _, imp := range p.Imports {
			if to := group(strings.TrimPrefix(imp, module)); to != "" && to != from {
				t.Errorf("command group %s imports command group %s", path, imp)
			}
		}
	}
	if seen < 5 {
		t.Fatalf("found %d command groups; the test no longer sees them", seen)
	}
}

// TestRulesSeeTheirPackages keeps the rules honest: each names packages
// that exist.
func TestRulesSeeTheirPackages(t *testing.T) {
	pkgs := listPackages(t)
	for _, r := range rules {
		for _, d := range r.dirs {
			if _, ok := pkgs[d]; !ok {
				t.Errorf("rule for %s names %s, which is no package", r.layer, d)
			}
		}
	}
}
