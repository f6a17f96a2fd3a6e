package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/profile"
)

type validateOptions struct {
	deps  *cmdutil.Deps
	files []string
}

func newValidateCmd(deps *cmdutil.Deps, runF func(*validateOptions) error) *cobra.Command {
	opts := &validateOptions{deps: deps}
	cmd := &cobra.Command{
		Use:   "validate <file>...",
		Short: "Check profile files without registering them",
		Long: `Check one or more profile files with the same rules as 'add', report every
problem in each, and write nothing.

Exit status is 0 when every file is valid, 3 when any file is invalid, and 4
when a file does not exist.`,
		Example: `  $ agents automation-profile validate profiles/*.yaml
  $ agents automation-profile validate strict.yaml -f json | jq '.[].problems'`,
		Args: cmdutil.MinimumArgs(1, "at least one file to validate"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.files = args
			if runF != nil {
				return runF(opts)
			}
			return validateRun(opts)
		},
	}
	return cmd
}

func validateRun(opts *validateOptions) error {
	return cmdutil.ValidateFiles(opts.deps, opts.files, func(path string) (string, []string, error) {
		p, warnings, err := profile.LoadProfile(path)
		if err != nil {
			return "", warnings, err
		}
		return p.Name, warnings, nil
	})
}
