// Package safetypack implements the 'agents safety-pack' command group:
// show, ratify, verify and check the safety pack.
package safetypack

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	sp "github.com/agentsctl/agents/internal/safetypack"
)

// NewCmd returns the safety-pack command group.
func NewCmd(deps *cmdutil.Deps) *cobra.Command {
	return cmdutil.Group(deps, "safety-pack", &cobra.Command{
		Short: "Show, ratify, verify and check the safety pack",
		Long: `The safety pack lists the boundaries no automation profile may cross. Exactly
one pack is in force: the ratified core_safety_axes_v1 built into agents; or
the pack the system configuration names (` + sp.SystemDir + `/config.yaml, read
from ` + sp.SystemDir + `/packs/safety/, owned by root: an organisation's
lock-down); or the stricter pack that $AGENTS_HOME/config.yaml names with
safety_pack: <id> (read from $AGENTS_HOME/packs/safety/<id>.json), which must
then be at least as strict as the system pack.

A pack is ratified when its companion <pack_id>.mastery_report.json seals its
content and itself, and the pack carries the report's sha256. The mastery
report is the record of the pack's ratification; the sha256 the pack
carries is its seal, so an edit to either file breaks it. Commands that
need the pack refuse to run (exit 6) when the pack in force is missing,
malformed, unratified, tampered, lacks a boundary of the shipped pack, or
is in files another user owns or anyone else can write; they never fall
back to another pack.

Setting AGENTS_ALLOW_UNRATIFIED_SAFETY=1 in the environment skips only the
seal check of the shipped pack and of the user's, for authoring (never the
system pack's, and never in a hook); every command that loads the pack then
says so.`,
		Example: `  # Show the pack in force
  $ agents safety-pack show

  # Seal an authored pack, then verify it
  $ agents safety-pack ratify acme_safety_v1.json
  $ agents safety-pack verify acme_safety_v1.json

  # Judge the boundaries against the current state
  $ agents safety-pack check`,
	},
		cmdutil.V(deps, "show", newShowCmd),
		cmdutil.V(deps, "ratify", newRatifyCmd),
		cmdutil.V(deps, "verify", newVerifyCmd),
		cmdutil.V(deps, "check", newCheckCmd),
	)
}
