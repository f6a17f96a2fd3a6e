package safetyprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/profile"
)

type validateOptions struct {
	cmdutil.Run
	files []string
}

func newValidateCmd(deps *cmdutil.Deps, runF func(*validateOptions) error) *cobra.Command {
	opts := &validateOptions{Run: deps.Run()}
	return &cobra.Command{
		Use:   "validate <file>...",
		Short: "Check standalone safety profile files",
		Long: `Check one or more standalone safety profile files, report every problem in
each, and write nothing. A file named - is standard input.

EXIT STATUS
  0    every file is valid
  3    a file is invalid, or is not a regular file
  4    a file does not exist (this wins over 3)
  2    - (standard input) is named more than once`,
		Example: `  $ agents safety-profile validate examples/safety-profiles/*.yaml
  $ agents safety-profile validate deploy.yaml -f json | jq '.[].problems'`,
		Args: cmdutil.MinimumArgs(1, "at least one file to validate"),
		RunE: cmdutil.RunEArgs(opts, runF, validateRun, &opts.files),
	}
}

func validateRun(opts *validateOptions) error {
	return cmdutil.ValidateFiles(opts.UI, opts.files, func(data []byte, file string) (string, []string, error) {
		s, warnings, err := profile.DecodeSafetyProfile(data, file)
		if err != nil {
			return "", warnings, err
		}
		// A plan keeps it in its stored form, which must fit a stored file.
		_, err = profile.EncodeSafety(s)
		return "", warnings, err
	})
}
