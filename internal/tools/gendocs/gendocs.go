// Command gendocs writes the reference documentation of agents from its
// command tree: one markdown page per command under docs/cli and one man
// page per command under docs/man. The output depends on nothing but the
// command tree, so running it twice gives the same files; a test fails when
// the checked-in pages differ from what it would write.
//
//	go run ./internal/tools/gendocs [-markdown docs/cli] [-man docs/man] [-date 2026-01-01]
//
// An empty -markdown or -man skips that kind of page.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/agentsctl/agents/internal/cli"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/profiles"
)

// DefaultDate is the date the man pages carry. It is fixed, rather than
// today's, so the pages change only when the commands do; a release may
// pass its own with -date.
const DefaultDate = "2026-11-01"

// FixCommand is how to bring the checked-in pages up to date; the staleness
// test prints it.
const FixCommand = "'make docs' (or 'go run ./internal/tools/gendocs' from the repository root) and commit docs/cli and docs/man"

func main() {
	md := flag.String("markdown", "docs/cli", "write markdown pages to this folder (empty: none)")
	man := flag.String("man", "docs/man", "write man pages to this folder (empty: none)")
	date := flag.String("date", DefaultDate, "the date of the man pages, YYYY-MM-DD")
	flag.Parse()
	d, err := time.Parse("2006-01-02", *date)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gendocs: bad -date %q: %v\n", *date, err)
		os.Exit(2)
	}
	if err := Generate(*md, *man, d); err != nil {
		fmt.Fprintf(os.Stderr, "gendocs: %v\n", err)
		os.Exit(1)
	}
}

// Generate writes the markdown pages to mdDir and the man pages to manDir
// (either may be empty to skip it), first removing pages of commands that
// no longer exist.
func Generate(mdDir, manDir string, date time.Time) error {
	if mdDir != "" {
		if err := clean(mdDir, "agents*.md"); err != nil {
			return err
		}
		if err := doc.GenMarkdownTree(newRoot(false), mdDir); err != nil {
			return fmt.Errorf("markdown: %w", err)
		}
	}
	if manDir != "" {
		if err := clean(manDir, "agents*.1"); err != nil {
			return err
		}
		header := &doc.GenManHeader{Section: "1", Date: &date, Source: "agents", Manual: "agents manual"}
		if err := doc.GenManTree(newRoot(true), header, manDir); err != nil {
			return fmt.Errorf("man pages: %w", err)
		}
	}
	return nil
}

// clean creates dir and removes the generated pages in it, leaving any
// other file alone.
func clean(dir, pattern string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		return err
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	return nil
}

// newRoot builds the command tree as agents does, with dependencies that
// read nothing from the machine, and readies it for the generator of man
// pages (man) or of markdown.
func newRoot(man bool) *cobra.Command {
	ios, _, _, _ := iostreams.Test()
	deps := &cmdutil.Deps{
		IO:       ios,
		Builtins: profiles.Builtin,
		Getenv:   func(string) string { return "" },
	}
	root := cli.NewRootCmd(deps)
	prepare(root, man)
	return root
}

// angles escapes < and >, which markdown would take for HTML tags and
// drop, so that <name> reads as it does in the terminal.
var angles = strings.NewReplacer("<", `\<`, ">", `\>`)

// prepare turns off cobra's dated "Auto generated" footer on every command
// and makes each description read well as markdown. The man generator also
// puts the usage line through markdown, outside a code block, so for man
// pages that is escaped too.
func prepare(cmd *cobra.Command, man bool) {
	cmd.DisableAutoGenTag = true
	cmd.Long = fenceIndented(cmd.Long)
	if man {
		cmd.Use = angles.Replace(cmd.Use)
	}
	for _, c := range cmd.Commands() {
		prepare(c, man)
	}
}

// fenceIndented puts each run of indented lines in a description (exit
// status tables, commands to type, sample output) in a fenced code block.
// In a terminal the indentation sets them apart; markdown would run them
// into the paragraph above.
func fenceIndented(s string) string {
	if s == "" {
		return s
	}
	lines := strings.Split(s, "\n")
	var out []string
	inBlock := false
	for _, l := range lines {
		indented := strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "\t")
		switch {
		case indented && !inBlock:
			if len(out) > 0 && strings.TrimSpace(out[len(out)-1]) != "" {
				out = append(out, "")
			}
			out = append(out, "```")
			inBlock = true
		case !indented && inBlock:
			out = append(out, "```")
			if strings.TrimSpace(l) != "" {
				out = append(out, "")
			}
			inBlock = false
		}
		if inBlock {
			l = strings.TrimPrefix(l, "  ")
		} else {
			l = angles.Replace(l)
		}
		out = append(out, l)
	}
	if inBlock {
		out = append(out, "```")
	}
	return strings.Join(out, "\n")
}
