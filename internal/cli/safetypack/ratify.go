package safetypack

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/registry"
	"github.com/agentsctl/agents/internal/render"
	sp "github.com/agentsctl/agents/internal/safetypack"
)

type ratifyOptions struct {
	reg  *registry.Registry
	ui   *cmdutil.UI
	file string
}

func newRatifyCmd(deps *cmdutil.Deps, runF func(*ratifyOptions) error) *cobra.Command {
	opts := &ratifyOptions{reg: deps.Registry(), ui: deps.UI()}
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
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			if runF != nil {
				return runF(opts)
			}
			return ratifyRun(opts)
		},
	}
	cmd.SetUsageTemplate(cmd.UsageTemplate() + `
EXIT STATUS
  0    the pack is sealed (or already was)
  1    a file could not be written
  2    usage: bad flag or argument
  4    the pack file does not exist
  6    the pack file is malformed
`)
	return cmd
}

func ratifyRun(opts *ratifyOptions) error {
	res, err := opts.reg.RatifyPack(opts.file)
	if err != nil {
		return err
	}
	return opts.ui.RenderChange(ratifyChange(res))
}

// ratifyChange tells what ratify did in one line; its document is
// RatifyView's, with both files and both digests.
func ratifyChange(res *sp.RatifyResult) render.Change {
	c := render.Change{Verb: "ratified", Subject: res.Pack.PackID, Doc: RatifyView{Result: res}.Data()}
	var wrote []string
	if res.PackWritten {
		wrote = append(wrote, res.PackFile)
	}
	if res.ReportWritten {
		wrote = append(wrote, res.ReportFile+" (its mastery report, the seal)")
	}
	if len(wrote) == 0 {
		c.Verb, c.Detail = render.Unchanged, "already sealed by "+res.ReportFile
		return c
	}
	c.Detail = "wrote " + strings.Join(wrote, " and ")
	return c
}
