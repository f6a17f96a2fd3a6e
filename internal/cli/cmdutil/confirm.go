package cmdutil

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
)

// ConfirmRemoval reports whether what (such as "profile") called name may
// be removed: --yes was given, or the user agreed at a terminal. Without a
// terminal (or with CI set) and without --yes it is a usage error, so that
// a script never hangs on a question nobody will answer.
//
// A user who answers anything but yes (or ends the input) has decided,
// not failed: the answer is false, with a line on stderr saying that
// nothing was removed, and the command ends with exit status 0.
func ConfirmRemoval(deps *Deps, what, name string, yes bool) (bool, error) {
	if yes {
		return true, nil
	}
	if !deps.IO.CanPrompt() {
		return false, errs.Usage("refusing to remove %q without confirmation", name).
			WithHint("pass --yes to remove it when not at a terminal")
	}
	fmt.Fprintf(deps.IO.ErrOut, "Remove %s %s? [y/N] ", what, render.Escape(name))
	line, err := bufio.NewReader(deps.IO.In).ReadString('\n')
	if err != nil && line == "" {
		fmt.Fprintln(deps.IO.ErrOut)
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	fmt.Fprintf(deps.IO.ErrOut, "agents: kept %s %s; nothing was removed\n", what, render.Escape(name))
	return false, nil
}
