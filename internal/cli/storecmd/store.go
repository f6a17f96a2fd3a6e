// Package storecmd implements the 'agents store' command group: the
// PostgreSQL store's schema migrations, and moving a registry between an
// agents home and PostgreSQL.
package storecmd

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
)

// NewCmd returns the store command group.
func NewCmd(deps *cmdutil.Deps) *cobra.Command {
	return cmdutil.Group(deps, "store", &cobra.Command{
		Short: "Migrate the PostgreSQL store; copy a registry",
		Long: `The registry of custom profiles, actions, plans, objects and history lives in
a store: by default the file store in the agents home, or, for an
organisation whose machines share one registry, a PostgreSQL database named
by --store, AGENTS_STORE or store: in config.yaml (in that order), as a
postgres:// or postgresql:// URL. Connection settings the URL leaves out come
from the libpq environment (PGHOST, PGUSER, PGPASSWORD, PGSERVICE,
PGSSLMODE, ...) and ~/.pgpass, so no password need be written down. A
password is never printed.

'store migrate' creates or upgrades the PostgreSQL schema; every other
command refuses a schema that is not at the version it knows. 'store copy'
moves a registry between an agents home and PostgreSQL, in either direction.
See docs/postgres.md.`,
		Example: `  # Set up a shared registry once, then use it
  $ export AGENTS_STORE='postgres://agents@db.example/agents?sslmode=require'
  $ agents store migrate
  $ agents automation-profile list

  # Move the registry of this machine into it
  $ agents store copy --from ~/.config/agents --to "$AGENTS_STORE"`,
	},
		cmdutil.V(deps, "migrate", newMigrateCmd),
		cmdutil.V(deps, "copy", newCopyCmd),
	)
}
