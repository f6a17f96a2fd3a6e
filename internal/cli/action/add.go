package action

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/action"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
)

type addOptions struct {
	cmdutil.Run
	config string
	update bool
}

func newAddCmd(deps *cmdutil.Deps, runF func(*addOptions) error) *cobra.Command {
	opts := &addOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "add --config <file> [--update]",
		Short: "Register an action from a YAML file",
		Long: `Register an action from a YAML file ("-" reads standard input).

The file is checked strictly and every problem in it is reported at once. It
needs name (namespace/name), description, definition_of_done, strategy_actor
and execution_actor; automation_profile (a profile name) and safety_profile
(an inline safety profile, each field left out taking its default) are
optional. A named automation profile must exist when the action is added.
Without --update, a name that is already registered is a conflict.

It prints one line saying what it did: added, updated, or unchanged when
the content is what is stored already (nothing is written then). -q prints
nothing; -f json and -f yaml print the stored action instead.

EXIT STATUS
  0    added, updated or unchanged
  2    usage: no --config
  3    the file is invalid or not a regular file (standard input is -c -),
       or names an automation profile that does not exist
  4    the file does not exist
  5    the action exists and --update was not given`,
		Example: `  # Register an action
  $ agents action add -c examples/actions/secure-deploy.yaml

  # Round trip: export, edit, re-import
  $ agents action show local/secure-deploy -f yaml > deploy.yaml
  $ agents action add -c deploy.yaml --update`,
		RunE: cmdutil.RunEConfig(opts, runF, addRun, &opts.config, "the action's", "agents action add -c deploy.yaml"),
	}
	cmdutil.ConfigFlags(cmd, &opts.config, &opts.update,
		"path to the action's YAML file, or - for standard input (required)",
		"replace an action that is already registered")
	return cmd
}

func addRun(opts *addOptions) error {
	data, name, err := opts.UI.ReadInput(opts.config)
	if err != nil {
		return err
	}
	a, err := action.Decode(data, name)
	if err != nil {
		return err
	}
	res, err := opts.Reg.AddAction(a, name, opts.update)
	if err != nil {
		return err
	}
	return cmdutil.Registered(opts.UI, "action", res.Stored.Name, res)
}
