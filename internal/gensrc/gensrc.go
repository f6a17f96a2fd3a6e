// Package gensrc is what the code generators of the repository share:
// a generated file is written only once it is valid, formatted Go, so a
// broken generator leaves the file it would replace as it was. It is run
// by go generate only, never linked into agents.
package gensrc

import (
	"fmt"
	"go/format"
	"os"
)

// Main is a generator's main: it writes the source that source returns to
// file, formatted, or prints why it could not after the generator's name
// and exits 1, as a command run by go generate does.
func Main(name, file string, source func() ([]byte, error)) {
	src, err := source()
	if err == nil {
		err = write(file, src)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}

// write formats src as gofmt does and writes it to file. Source that does
// not parse is an error that shows it, and nothing is written.
func write(file string, src []byte) error {
	out, err := format.Source(src)
	if err != nil {
		return fmt.Errorf("formatting %s: %w\n%s", file, err, src)
	}
	return os.WriteFile(file, out, 0o644)
}
