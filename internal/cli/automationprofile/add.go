package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/profile"
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
		Short: "Register a custom profile from a YAML file",
		Long: `Register a custom profile from a YAML file ("-" reads standard input).

The file is checked strictly and every problem in it is reported at once.
Its name must have the form namespace/name; the built-in names are reserved.
Without --update, a name that is already registered is a conflict.

It prints one line saying what it did: added, updated, or unchanged when
the content is what is stored already, in which case nothing is written
and the history gains no entry, so registering from CI on every run is
safe. -q prints nothing; -f json and -f yaml print the stored profile
instead (and, when unchanged, say so on stderr).

Safety fields written flat at the top of the file (the format used before the
safety profile was nested) are accepted with a warning and stored nested.`,
		Example: `  # Register a profile
  $ agents automation-profile add -c ./profiles/strict.yaml

  # Replace it after editing the file
  $ agents automation-profile add -c ./profiles/strict.yaml --update

  # Round trip: export, edit, re-import
  $ agents automation-profile show acme/strict -f yaml > strict.yaml
  $ agents automation-profile add -c strict.yaml --update -f json

  # From standard input
  $ agents automation-profile show acme/strict -f yaml | agents automation-profile add -c - --update`,
		RunE: cmdutil.RunEConfig(opts, runF, addRun, &opts.config, "the profile's", "agents automation-profile add -c strict.yaml"),
	}
	cmdutil.ConfigFlags(cmd, &opts.config, &opts.update,
		"path to the profile's YAML file, or - for standard input (required)",
		"replace a profile that is already registered")
	return cmd
}

func addRun(opts *addOptions) error {
	p, err := readProfileFile(opts.UI, opts.config)
	if err != nil {
		return err
	}
	res, err := opts.Reg.AddProfile(p, opts.update)
	if err != nil {
		return err
	}
	return cmdutil.Registered(opts.UI, "profile", res.Stored.Name, res)
}

// readProfileFile reads and decodes a profile file ("-" for standard
// input), printing its warnings.
func readProfileFile(ui *cmdutil.UI, path string) (*profile.AutomationProfile, error) {
	data, name, err := ui.ReadInput(path)
	if err != nil {
		return nil, err
	}
	p, warnings, err := profile.DecodeProfile(data, name)
	for _, w := range cmdutil.ProfileWarnings(warnings) {
		ui.Warn("%s", w)
	}
	return p, err
}
