package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestNoFilesWhereNoArgumentIsTaken: a command that takes no argument
// completes none, rather than the shell's file names, which it would
// refuse (add takes its file with --config, not as an argument).
func TestNoFilesWhereNoArgumentIsTaken(t *testing.T) {
	root := bareRoot()
	checked := 0
	for _, path := range commandPaths(root, nil) {
		cmd, _, err := root.Find(path)
		if err != nil {
			t.Fatal(err)
		}
		if !cmd.Runnable() || cmd.Args == nil || cmd.Args(cmd, nil) != nil || cmd.Args(cmd, []string{"x"}) == nil {
			continue
		}
		checked++
		name := strings.Join(path, " ")
		if cmd.ValidArgsFunction == nil {
			t.Errorf("%s takes no argument, yet completes file names", name)
			continue
		}
		if _, dir := cmd.ValidArgsFunction(cmd, nil, ""); dir&cobra.ShellCompDirectiveNoFileComp == 0 {
			t.Errorf("%s takes no argument, yet its completion allows file names (directive %d)", name, dir)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d commands take no argument", checked)
	}
}
