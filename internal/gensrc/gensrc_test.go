package gensrc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFormats(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.go")
	if err := write(file, []byte("package x\nvar  A=1\n")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(file)
	if err != nil || string(got) != "package x\n\nvar A = 1\n" {
		t.Errorf("wrote %q, %v", got, err)
	}
}

func TestWriteRefusesBrokenSource(t *testing.T) {
	file := filepath.Join(t.TempDir(), "x.go")
	if err := os.WriteFile(file, []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := write(file, []byte("package x\nvar = \n"))
	if err == nil || !strings.Contains(err.Error(), "var = ") {
		t.Fatalf("error %v does not show the source", err)
	}
	if got, _ := os.ReadFile(file); string(got) != "package x\n" {
		t.Errorf("the file was replaced: %q", got)
	}
}
