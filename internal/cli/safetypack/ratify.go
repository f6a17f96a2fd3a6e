package safetypack

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
)

type ratifyOptions struct {
	cmdutil.Run
	file string
}

func newRatifyCmd(deps *cmdutil.Deps, runF func(*ratifyOptions) error) *cobra.Command {
	opts := &ratifyOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "ratify <pack.json>",
		Short: "Seal a safety pack with its mastery report",
		Long: `Seal the pack file: write its companion <pack_id>.mastery_report.json beside
it (the sha256 of the pack's content, and the report's own sha256) and set
the pack's mastery_report_sha256 to the report's. Both files are rewritten
in canonical form, atomically, and only when their bytes change, so a second
ratify changes nothing.

The pack must pass every check of the format first. ratify never loads the
pack in force, so it also repairs a configured pack that refuses to load.
Ratify only a pack whose every change you have reviewed: the seal says the
content is approved.`,
		Example: `  # Seal an authored pack
  $ agents safety-pack ratify acme_safety_v1.json

  # Re-seal the configured pack after a reviewed edit
  $ agents safety-pack ratify ~/.config/agents/packs/safety/acme_safety_v1.json`,
		Args: cmdutil.ExactArgs(1, "the pack file to ratify"),
		RunE: cmdutil.RunEArg(opts, runF, ratifyRun, &opts.file),
	}
	cmd.SetUsageTemplate(cmd.UsageTemplate() + `
EXIT STATUS
  0    the pack is sealed (or already was)
  1    a file could not be written
  2    usage: bad flag or argument
  4    the pack file does not exist
  6    the pack file is malformed; it or its report is a link; or another
       file beside it bears its pack id (<pack_id>.json), whose mastery
       report ratifying this one would replace
`)
	return cmd
}

func ratifyRun(opts *ratifyOptions) error {
	res, err := opts.Reg.RatifyPack(opts.file)
	if err != nil {
		return err
	}
	return opts.UI.RenderChange(render.RatifyChange(res))
}
