// Package project implements the 'agents project' command group: which
// projects' agents.yaml a hook may use.
package project

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
)

// NewCmd returns the project command group.
func NewCmd(deps *cmdutil.Deps) *cobra.Command {
	return cmdutil.Group(deps, "project", &cobra.Command{
		Short: "Trust a project's agents.yaml for the agents' hooks",
		Long: `A project's agents.yaml can choose the automation and safety profiles of the
plans made in it. A hook that names no profile resolves them from the
agent's working folder, and there an agents.yaml counts only for a project
you have trusted: a repository you cloned must not choose full-auto for the
agent that works in it. An untrusted project with an agents.yaml blocks
every tool call of such a hook, with a hint to trust it.

Trust is recorded in the home's config.yaml, under trusted_projects, by the
folder that holds the agents.yaml (the folder named, or the nearest one
above it that holds one), pinned to the sha256 of that agents.yaml: once
the file changes, the project is untrusted until it is trusted again.`,
		Example: `  # Read the project's agents.yaml, then trust it
  $ cat agents.yaml
  $ agents project trust

  # The projects you trust
  $ agents project list

  # Stop trusting one
  $ agents project untrust ~/src/shop`,
	},
		cmdutil.NewVerb("trust", func() *cobra.Command { return newTrustCmd(deps, nil, true) }),
		cmdutil.NewVerb("untrust", func() *cobra.Command { return newTrustCmd(deps, nil, false) }),
		cmdutil.V(deps, "list", newListCmd),
	)
}
