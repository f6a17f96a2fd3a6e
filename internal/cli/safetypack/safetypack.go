// Package safetypack implements the 'agents safety-pack' command group:
// show, ratify, verify and check the safety pack.
package safetypack

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/errs"
	sp "github.com/agentsctl/agents/internal/safetypack"
)

// EnvAllowUnratified is the environment variable that, set to exactly "1",
// lets an unratified or tampered pack load while it is being authored.
const EnvAllowUnratified = "AGENTS_ALLOW_UNRATIFIED_SAFETY"

// EnvSeedAllowUnratified is the override's name in the specification the
// safety pack comes from. agents does not read it; set, it earns a warning
// naming the variable that counts.
const EnvSeedAllowUnratified = "CORE_ALLOW_UNRATIFIED_SAFETY"

// NewCmd returns the safety-pack command group.
func NewCmd(deps *cmdutil.Deps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "safety-pack <command>",
		Short: "Show, ratify, verify and check the safety pack",
		Long: `The safety pack lists the boundaries no automation profile may cross. Exactly
one pack is in force: the ratified core_safety_axes_v1 built into agents; or
the pack the system configuration names (` + sp.SystemDir + `/config.yaml, read
from ` + sp.SystemDir + `/packs/safety/, owned by root: an organisation's
lock-down); or the stricter pack that $AGENTS_HOME/config.yaml names with
safety_pack: <id> (read from $AGENTS_HOME/packs/safety/<id>.json), which must
then be at least as strict as the system pack.

A pack is ratified when its companion <pack_id>.mastery_report.json seals its
content and itself, and the pack carries the report's sha256. Commands that
need the pack refuse to run (exit 6) when the pack in force is missing,
malformed, unratified, tampered, or lacks a boundary of the shipped pack;
they never fall back to another pack.

Setting AGENTS_ALLOW_UNRATIFIED_SAFETY=1 in the environment skips only the
seal check of the user's pack, for authoring (never the system pack's);
every command that loads the pack then says so.`,
		Example: `  # Show the pack in force
  $ agents safety-pack show

  # Seal an authored pack, then verify it
  $ agents safety-pack ratify acme_safety_v1.json
  $ agents safety-pack verify acme_safety_v1.json

  # Judge the boundaries against the current state
  $ agents safety-pack check`,
		Args: cobra.ArbitraryArgs,
		RunE: cmdutil.GroupRunE,
	}
	cmd.AddCommand(newShowCmd(deps, nil))
	cmd.AddCommand(newRatifyCmd(deps, nil))
	cmd.AddCommand(newVerifyCmd(deps, nil))
	cmd.AddCommand(newCheckCmd(deps, nil))
	return cmd
}

// LoadInForce loads the pack in force for a command that depends on it:
// the shipped pack, or the one $AGENTS_HOME/config.yaml names. The override
// comes from the environment only, counts only when exactly "1", and is
// announced on stderr every time it is in effect. Any refusal is a
// KindSafetyPack error (exit 6).
func LoadInForce(deps *cmdutil.Deps) (*sp.Loaded, error) {
	allow := allowUnratified(deps)
	id, err := configuredPackID(deps.Config.Home)
	if err != nil {
		return nil, err
	}
	l, err := sp.Load(sp.LoadOptions{Home: deps.Config.Home, PackID: id, AllowUnratified: allow, SystemDir: sp.SystemDir})
	if err != nil {
		return nil, err
	}
	for _, p := range l.SealProblems {
		deps.Warn("safety pack %s loaded without a valid seal: %s", l.Pack.PackID, p.String())
	}
	return l, nil
}

// configuredPackID names the pack the configuration selects, reading
// config.yaml with the strict configuration decoder. A bad safety_pack
// value leaves the pack in force undetermined: that is a safety pack
// refusal (exit 6). Any other problem in the file is invalid input (exit
// 3): a misspelt key must never let the shipped pack stand in silently
// for the one meant.
func configuredPackID(home string) (string, error) {
	g, err := config.LoadGlobal(home)
	if err == nil {
		return g.SafetyPack, nil
	}
	ps := config.ProblemsAt(err, config.KeySafetyPack)
	if len(ps) == 0 {
		return "", err
	}
	return "", &errs.Error{
		Kind:     errs.KindSafetyPack,
		Msg:      "cannot tell which safety pack is in force: " + ps[0].String(),
		Problems: ps,
		Hint:     fmt.Sprintf("set %s in %s to a pack id such as acme_safety_v1, or remove it to use the shipped pack", config.KeySafetyPack, config.GlobalPath(home)),
	}
}

// allowUnratified reports whether the override is in effect, warning
// whenever the variable is set.
func allowUnratified(deps *cmdutil.Deps) bool {
	if v := deps.Getenv(EnvSeedAllowUnratified); v != "" {
		deps.Warn("%s is not read by agents; the development override is %s=1", EnvSeedAllowUnratified, EnvAllowUnratified)
	}
	v := deps.Getenv(EnvAllowUnratified)
	switch v {
	case "":
		return false
	case "1":
		deps.Warn("%s=1: safety pack seals are not enforced; use this only while authoring a pack", EnvAllowUnratified)
		return true
	}
	deps.Warn("%s=%q is ignored: only the value 1 turns the override on", EnvAllowUnratified, v)
	return false
}
