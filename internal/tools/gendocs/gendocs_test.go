package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestCheckedInDocsAreCurrent regenerates the reference pages and compares
// them with docs/cli and docs/man: a command, flag or help text changed
// without regenerating the pages fails here.
func TestCheckedInDocsAreCurrent(t *testing.T) {
	date, err := time.Parse("2006-01-02", DefaultDate)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	md, man := filepath.Join(tmp, "cli"), filepath.Join(tmp, "man")
	if err := Generate(md, man, date); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join("..", "..", "..", "docs")
	compareDirs(t, md, filepath.Join(repo, "cli"), "docs/cli", "agents*.md")
	compareDirs(t, man, filepath.Join(repo, "man"), "docs/man", "agents*.1")
}

func compareDirs(t *testing.T, fresh, checkedIn, name, pattern string) {
	t.Helper()
	want := pages(t, fresh, pattern)
	got := pages(t, checkedIn, pattern)
	if len(want) == 0 {
		t.Fatalf("the generator wrote no %s pages", name)
	}
	var stale []string
	for _, f := range want {
		a, _ := os.ReadFile(filepath.Join(fresh, f))
		b, err := os.ReadFile(filepath.Join(checkedIn, f))
		switch {
		case err != nil:
			stale = append(stale, f+" is missing")
		case !bytes.Equal(a, b):
			stale = append(stale, f+" differs")
		}
	}
	for _, f := range got {
		if !slices.Contains(want, f) {
			stale = append(stale, f+" is for a command that no longer exists")
		}
	}
	if len(stale) > 0 {
		t.Errorf("%s is out of date with the command tree:\n  %s\nrun %s",
			name, strings.Join(stale, "\n  "), FixCommand)
	}
}

func pages(t *testing.T, dir, pattern string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	return out
}

// TestGenerateIsReproducible runs the generator twice: the pages must not
// depend on the time, the machine or the order of anything.
func TestGenerateIsReproducible(t *testing.T) {
	date := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	a, b := t.TempDir(), t.TempDir()
	t.Setenv("SOURCE_DATE_EPOCH", "0")
	t.Setenv("AGENTS_HOME", t.TempDir())
	for _, dir := range []string{a, b} {
		if err := Generate(filepath.Join(dir, "cli"), filepath.Join(dir, "man"), date); err != nil {
			t.Fatal(err)
		}
	}
	for _, sub := range []string{"cli", "man"} {
		for _, f := range pages(t, filepath.Join(a, sub), "*") {
			x, _ := os.ReadFile(filepath.Join(a, sub, f))
			y, err := os.ReadFile(filepath.Join(b, sub, f))
			if err != nil || !bytes.Equal(x, y) {
				t.Errorf("%s/%s differs between two runs", sub, f)
			}
			if bytes.Contains(x, []byte("Auto generated")) {
				t.Errorf("%s/%s carries cobra's dated footer", sub, f)
			}
		}
	}
	man, err := os.ReadFile(filepath.Join(a, "man", "agents.1"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(man, []byte(`.TH "AGENTS" "1" "Mar 2026" "agents" "agents manual"`)) {
		t.Errorf("man page header does not carry the given date:\n%s", man[:min(len(man), 200)])
	}
}

// TestGenerateRemovesPagesOfRemovedCommands checks that a page left from a
// command that no longer exists is removed, and other files are kept.
func TestGenerateRemovesPagesOfRemovedCommands(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "cli")
	if err := os.MkdirAll(md, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"agents_gone.md", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(md, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Generate(md, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(md, "agents_gone.md")); !os.IsNotExist(err) {
		t.Errorf("stale page kept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(md, "notes.txt")); err != nil {
		t.Errorf("other file removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "man")); !os.IsNotExist(err) {
		t.Errorf("an empty -man wrote man pages")
	}
}

func TestFenceIndented(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"EXIT STATUS\n  0    ok\n  2    usage", "EXIT STATUS\n\n```\n0    ok\n2    usage\n```"},
		{"Run:\n\n  $ agents list\n\nthen <name>.", "Run:\n\n```\n$ agents list\n```\n\nthen \\<name\\>."},
		{"a\n  b\nc", "a\n\n```\nb\n```\n\nc"},
	}
	for _, tt := range tests {
		if got := fenceIndented(tt.in); got != tt.want {
			t.Errorf("fenceIndented(%q) =\n%q\nwant\n%q", tt.in, got, tt.want)
		}
	}
}
