// Command agents decides how much autonomy an AI agent system gets.
package main

import (
	"os"

	"github.com/agentsctl/agents/internal/cli"
)

func main() { os.Exit(cli.Main()) }
