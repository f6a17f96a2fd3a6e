package cli

import (
	"github.com/spf13/cobra"
)

// EnvironmentHelp is the ENVIRONMENT section of the root help (and so of
// the man page), and the text of 'agents help environment'. Flags beat the
// environment, which beats config.yaml. A variable that chooses the store
// (AGENTS_STORE) belongs right after AGENTS_HOME.
const EnvironmentHelp = `ENVIRONMENT
  AGENTS_HOME          the agents home: store, config.yaml, packs (default
                       $XDG_CONFIG_HOME/agents, else ~/.config/agents);
                       --home beats it
  AGENTS_STORE         the store URL (postgres://…) when --store is not
                       given; beats store: in config.yaml; ignored by a
                       hook, which the agent's environment must not steer
  AGENTS_FORMAT        the output format when -f is not given: json, yaml,
                       plain, table or rich; beats format in config.yaml
  AGENTS_LOCK_TIMEOUT  how long a change waits for the store lock, such as
                       10s or 2m; beats lock_timeout in config.yaml
  NO_COLOR             any non-empty value: rich output without colour
  TERM                 dumb: rich output without colour
  COLUMNS              the width rich and table output are fitted to; by
                       default the terminal's, and none when stdout is not
                       a terminal
  CI                   set to anything: never prompt (remove needs --yes)
  AGENTS_ALLOW_UNRATIFIED_SAFETY
                       exactly 1: load a safety pack whose seal does not
                       verify, while authoring it (never in a hook)

  The policy keys of config.yaml (automation_profile, safety_profile,
  safety_pack, hooks, trusted_projects) are never taken from the
  environment.`

// newEnvironmentCmd is the help topic 'agents help environment'. Having no
// Run, it is listed among the help topics, not the commands.
func newEnvironmentCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "environment",
		Short: "The environment variables agents reads",
		Long: `agents reads a few environment variables. A flag beats the environment, and
the environment beats $AGENTS_HOME/config.yaml, which beats the default.

` + EnvironmentHelp,
	}
}
