package safetypack

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
)

type showOptions struct {
	cmdutil.Run
}

func newShowCmd(deps *cmdutil.Deps, runF func(*showOptions) error) *cobra.Command {
	opts := &showOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Show the safety pack in force",
		Long: `Show the safety pack in force: its id, version, boundaries and their
descriptions, where it was loaded from, and whether its seal verifies.
With -f json or -f yaml the document holds the pack's own fields plus
ratified, source ("embedded" or the pack file's path), level (shipped,
system or user: which level chose the pack) and system_pack (for a user's
pack under a system pack, that pack's pack_id and source; else null).`,
		Example: `  # The pack in force, for people
  $ agents safety-pack show

  # Its boundary ids, one per line
  $ agents safety-pack show -f json | jq -r '.boundary_ids[]'`,
		Args:              cmdutil.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              cmdutil.RunE(opts, runF, showRun, nil),
	}
	cmd.SetUsageTemplate(cmd.UsageTemplate() + exitStatusLoad)
	return cmd
}

func showRun(opts *showOptions) error {
	l, err := opts.Reg.Pack()
	if err != nil {
		return err
	}
	return opts.UI.Render(render.PackView{Loaded: l})
}

const exitStatusLoad = `
EXIT STATUS
  0    the pack in force loaded
  2    usage: bad flag or argument
  3    config.yaml cannot be read or trusted, or fails validation
  6    the pack in force is missing, malformed, unratified, tampered, names
       another pack id, lacks a boundary of the shipped pack, or is in files
       another user owns or anyone else can write
`
