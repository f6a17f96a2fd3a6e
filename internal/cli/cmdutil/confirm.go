package cmdutil

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
)

// ConfirmRemoval returns nil when what (such as "profile") called name may
// be removed: --yes was given, or the user agreed at a terminal. Without a
// terminal (or with CI set) and without --yes it is a usage error, so that
// a script never hangs on a question nobody will answer.
func ConfirmRemoval(deps *Deps, what, name string, yes bool) error {
	if yes {
		return nil
	}
	if !deps.IO.CanPrompt() {
		return errs.Usage("refusing to remove %q without confirmation", name).
			WithHint("pass --yes to remove it when not at a terminal")
	}
	fmt.Fprintf(deps.IO.ErrOut, "Remove %s %s? [y/N] ", what, render.Escape(name))
	line, err := bufio.NewReader(deps.IO.In).ReadString('\n')
	if err != nil && line == "" {
		return errs.Usage("no answer given; %q was not removed", name)
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	return errs.Usage("not removed: %q", name)
}
