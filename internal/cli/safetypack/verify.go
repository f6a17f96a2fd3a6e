package safetypack

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
)

type verifyOptions struct {
	cmdutil.Run
	file string
}

func newVerifyCmd(deps *cmdutil.Deps, runF func(*verifyOptions) error) *cobra.Command {
	opts := &verifyOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "verify [<pack.json>]",
		Short: "Verify a safety pack's seal",
		Long: `Verify a pack's seal: the pack carries a mastery_report_sha256, its mastery
report exists beside it and names the pack, the report's own sha256 verifies,
the pack carries the report's sha256, and the pack's content is what the
report sealed. Every failed check is listed.

Without a file, verify checks the pack in force (as every command that loads
it does, including that a configured pack keeps every shipped boundary).
With a file it checks that file and never loads the pack in force; a file
named through a link is the file the link leads to, and its report the one
beside that file.
AGENTS_ALLOW_UNRATIFIED_SAFETY does not change what verify reports.`,
		Example: `  # Verify the pack in force
  $ agents safety-pack verify

  # Verify a pack file before configuring it
  $ agents safety-pack verify acme_safety_v1.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return errs.Usage("too many arguments: verify takes at most one pack file, got %d", len(args)).
					WithHint("usage: %s", cmd.UseLine())
			}
			return nil
		},
		RunE: cmdutil.RunEArg(opts, runF, verifyRun, &opts.file),
	}
	cmd.SetUsageTemplate(cmd.UsageTemplate() + `
EXIT STATUS
  0    the seal verifies
  2    usage: bad flag or argument
  3    config.yaml cannot be read or trusted, or fails validation
  4    the pack file named does not exist (or is a link to nothing)
  6    the seal does not verify, or the pack is malformed (or, without a
       file, the pack in force cannot be loaded)
`)
	return cmd
}

func verifyRun(opts *verifyOptions) error {
	l, inForce, err := opts.Reg.VerifyPack(opts.file)
	if err != nil {
		return err
	}
	return opts.UI.Render(render.VerifyView{Loaded: l, InForce: inForce})
}
