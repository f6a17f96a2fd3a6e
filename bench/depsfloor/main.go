// Command depsfloor links the libraries agents is built on (cobra, viper,
// lipgloss, tablewriter, yaml, flock) and does nothing else: what it costs
// over bench/hello is what those libraries' package initialisation costs
// every agents process before main runs, whatever the command. bench/cli.sh
// reports it to show how much of agents' own figure is left to agents.
package main

import (
	_ "github.com/charmbracelet/lipgloss"
	_ "github.com/charmbracelet/lipgloss/table"
	_ "github.com/gofrs/flock"
	_ "github.com/olekukonko/tablewriter"
	_ "github.com/spf13/cobra"
	_ "github.com/spf13/viper"
	_ "go.yaml.in/yaml/v3"
)

func main() {}
