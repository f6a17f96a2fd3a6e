package storecmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/store/postgres"
	"github.com/agentsctl/agents/internal/storeurl"
)

type migrateOptions struct {
	cmdutil.Run
	// stores says which store the configuration chose.
	stores cmdutil.Stores
}

func newMigrateCmd(deps *cmdutil.Deps, runF func(*migrateOptions) error) *cobra.Command {
	opts := &migrateOptions{Run: deps.Run(), stores: deps.Stores()}
	return &cobra.Command{
		Use:   "migrate",
		Short: "Create or upgrade the PostgreSQL store's schema",
		Long: `Apply the schema migrations built into this agents to the PostgreSQL store
(--store, AGENTS_STORE or store: in config.yaml), creating its schema (agents,
or the first schema of the URL's search_path) if needed. Migrations run one at
a time under an advisory lock, each in a transaction, so two runs never
interleave and a failed one leaves the schema as it was. Running it again
changes nothing. Afterwards it refreshes the derived fast form of profiles
written by other versions of agents, so listings stay fast after an upgrade.

No other command migrates: they refuse a schema that is not at the version
they know (exit 3), naming this command. The role needs the right to create
the schema (or to own it) and its tables; see docs/postgres.md for the grants
of the roles that then use it.

EXIT STATUS
  0    migrated, or already up to date
  2    no PostgreSQL store is configured (the file store needs no migration)
  3    the schema is newer than this agents knows: upgrade agents
  7    the role may not create the schema or its tables
  75   the server is unreachable, or another migration held the lock past
       --lock-timeout`,
		Example: `  $ agents --store postgres://admin@db.example.com/agents store migrate
  $ AGENTS_STORE=postgres://admin@db/agents agents store migrate -f json`,
		Args:              cmdutil.RangeArgs(0, 0, "no arguments"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              cmdutil.RunE(opts, runF, migrateRun, nil),
	}
}

// migrator is the PostgreSQL store's migration.
type migrator interface {
	Migrate(ctx context.Context) (*postgres.MigrateResult, error)
	Where() string
}

func migrateRun(opts *migrateOptions) error {
	url := opts.stores.URL()
	if url == "" {
		return errs.Usage("no PostgreSQL store to migrate: the store is the file store in %s, which needs no migration", opts.stores.Home()).
			WithHint("pass --store postgres://… or set AGENTS_STORE")
	}
	st, err := opts.Reg.Store()
	if err != nil {
		return err
	}
	m, ok := st.(migrator)
	if !ok {
		return errs.Usage("the store %s has no migrations", storeurl.Redact(url))
	}
	res, err := m.Migrate(opts.stores.Ctx())
	if err != nil {
		return err
	}
	where := storeurl.Redact(url)
	var text string
	switch {
	case res.From == res.To:
		text = fmt.Sprintf("store %s, schema %s: already at version %d", where, res.Schema, res.To)
	default:
		text = fmt.Sprintf("store %s, schema %s: migrated from version %d to %d (%s)", where, res.Schema, res.From, res.To, strings.Join(res.Applied, ", "))
	}
	if res.Redecoded > 0 {
		text += fmt.Sprintf("; refreshed the fast form of %d profile(s)", res.Redecoded)
	}
	opts.UI.Done(text, res.From == res.To && res.Redecoded == 0)
	doc := struct {
		Store string `json:"store"`
		*postgres.MigrateResult
	}{where, res}
	return opts.UI.RenderSummary(render.Line{Text: text, Doc: doc})
}
