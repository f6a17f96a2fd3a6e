package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
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

A file that is valid but names a built-in profile (manual, review, ...) is
reported as a conflict, since 'add' refuses it: the built-in names are
reserved.

Exit status is 0 when every file is valid, 4 when a file does not exist,
else 3 when any file is invalid, else 5 when a file names a built-in
profile.`,
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
		p, ws, err := profile.LoadProfile(path)
		warnings := cmdutil.ProfileWarnings(ws)
		if err != nil {
			return "", warnings, err
		}
		if p.IsBuiltin() {
			return "", warnings, builtinConflict(p.Name, path)
		}
		return p.Name, warnings, nil
	})
}

// builtinConflict is what add answers a file that names a built-in
// profile: the conflict (exit 5) validate reports too.
func builtinConflict(name, file string) *errs.Error {
	msg := "\"" + name + "\" is a built-in profile and cannot be replaced"
	e := errs.Conflict("%s", msg).WithHint("give the profile a custom name such as acme/%s", name)
	if file != "" {
		e.Problems = []errs.Problem{{File: file, Path: "name", Message: msg + "; give it a custom name such as acme/" + name}}
	}
	return e
}
