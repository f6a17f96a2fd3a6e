// Command allfloor links every library agents is built on (bench/depsfloor's,
// the PostgreSQL driver and migration library, and the predicate language)
// and catches SIGINT and SIGTERM as agents does from its start, then does
// nothing else. It is the floor of any agents built to its design: what it
// costs over bench/hello every agents process pays before it reads its
// first argument, and what agents costs over it is agents' own.
package main

import (
	"os"
	"os/signal"
	"syscall"

	_ "github.com/charmbracelet/lipgloss"
	_ "github.com/charmbracelet/lipgloss/table"
	_ "github.com/expr-lang/expr"
	_ "github.com/gofrs/flock"
	_ "github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/olekukonko/tablewriter"
	_ "github.com/pressly/goose/v3"
	_ "github.com/spf13/cobra"
	_ "github.com/spf13/viper"
	_ "go.yaml.in/yaml/v3"
)

// The signals are caught where agents catches them, in a package's
// initialisation (see internal/interrupt), which costs more than the same
// call from main: the initialisation runs locked to the main thread, so
// the runtime's signal thread answers it from another one.
func init() {
	signal.Notify(make(chan os.Signal, 2), os.Interrupt, syscall.SIGTERM)
}

func main() {}
