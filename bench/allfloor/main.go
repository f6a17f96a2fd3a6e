// Command allfloor links every library agents is built on (bench/depsfloor's,
// the PostgreSQL driver and migration library, and the predicate language)
// and catches SIGINT, SIGTERM and SIGHUP as agents does from its start, then does
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

// The signals are caught where and as agents catches them (see
// internal/interrupt): ignored in a package's initialisation, then caught
// once a goroutine has put the handler in place.
func init() {
	signals := []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
	signal.Ignore(signals...)
	go signal.Notify(make(chan os.Signal, 2), signals...)
}

func main() {}
