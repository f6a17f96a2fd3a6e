package cmdutil

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/registry"
	"github.com/agentsctl/agents/internal/render"
)

// RemoveHelp ends the long help of every remove verb: how it asks before
// it removes and what it prints are the same for every kind of document,
// so the help says it in one place; each verb's help first says what
// removing its kind means.
const RemoveHelp = `At a terminal the command asks for confirmation; answering anything but y
keeps it, says so on stderr and ends with exit status 0, since nothing
failed. Elsewhere (a script, a pipe, or CI set in the environment) it needs
--yes and otherwise refuses with exit status 2.

It prints one line saying what was removed (nothing with -q); -f json and
-f yaml print the removed document instead, which add --config accepts to
restore it.`

// YesFlag gives a remove verb --yes/-y, which removes without asking:
// the only way to remove where nobody can be asked (see RemoveHelp).
func YesFlag(cmd *cobra.Command, yes *bool) {
	cmd.Flags().BoolVarP(yes, "yes", "y", false, "remove without asking for confirmation")
}

// Remove is the run of a remove verb: remove, the registry's call for the
// kind what ("action", "profile"), removes the document called name once
// the user agrees (or yes), and the change is printed under the name the
// store had (nameOf). When the user keeps it, nothing more is printed.
func Remove[T any](ui *UI, what, name string, yes bool, remove func(string, registry.Confirm) (*T, error), nameOf func(*T) string) error {
	removed, err := remove(name, ui.ConfirmRemoval(what, name, yes))
	if removed == nil || err != nil {
		return err
	}
	return ui.RenderChange(render.Change{Verb: "removed", Subject: nameOf(removed), Doc: removed})
}
