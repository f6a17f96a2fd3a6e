package automationprofile

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/schema"
)

type schemaOptions struct {
	cmdutil.Run
	kind string
}

func newSchemaCmd(deps *cmdutil.Deps, runF func(*schemaOptions) error) *cobra.Command {
	opts := &schemaOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "schema [--kind " + strings.Join(schema.Names(), "|") + "]",
		Short: "Print the JSON Schema of a kind of document",
		Long: `Print the JSON Schema (draft 2020-12) of an automation profile, or with --kind
that of a standalone safety profile, an action or a safety pack. The schema
stands alone: the schemas it refers to are bundled under $defs, so an editor
needs nothing else.

json, plain and rich print the schema as JSON; yaml prints the same document
as YAML; table lists its fields.

Editors that use yaml-language-server (the YAML extension of VS Code, and
Neovim, Helix or Zed with that server) check and complete a file whose first
line names its schema, as a path relative to the file or a URL:

  # yaml-language-server: $schema=./automation_profile.schema.json

A schema cannot judge everything agents checks: that max_cost_per_plan does
not exceed max_total_cost, duplicate keys, several documents in one file,
files over 1 MiB, and YAML values JSON cannot hold (.nan, .inf, timestamps).
The schema's description lists them; 'agents automation-profile validate'
checks everything. The legacy flat safety flags (require_sandbox,
require_checkpoints, allow_unsafe_tools at the top of a profile) are
accepted and marked deprecated, as agents reads them with a warning.`,
		Example: `  # Save the profile schema next to your profiles
  $ agents automation-profile schema > automation_profile.schema.json

  # then start each profile file with this line
  # yaml-language-server: $schema=./automation_profile.schema.json

  # The schema of a standalone safety profile, as YAML
  $ agents automation-profile schema --kind safety-profile -f yaml

  # The fields of an action at a glance
  $ agents automation-profile schema --kind action -f table`,
		Args:              cmdutil.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: cmdutil.RunE(opts, runF, schemaRun, func(opts *schemaOptions, cmd *cobra.Command, args []string) error {
			if _, err := schema.File(opts.kind); err != nil {
				return errs.Usage("invalid --kind %q", opts.kind).
					WithHint("use one of: %s", strings.Join(schema.Names(), ", "))
			}
			return nil
		}),
	}
	cmd.Flags().StringVar(&opts.kind, "kind", schema.Profile, "which schema: "+strings.Join(schema.Names(), ", "))
	_ = cmd.RegisterFlagCompletionFunc("kind", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return schema.Names(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func schemaRun(opts *schemaOptions) error {
	doc, err := schema.Bundle(opts.kind)
	if err != nil {
		return err
	}
	v, err := render.NewSchemaView(doc)
	if err != nil {
		return err
	}
	return opts.UI.Render(v)
}
