package automationprofile

import (
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/registry"
	"github.com/agentsctl/agents/internal/strictyaml"
)

type validateOptions struct {
	cmdutil.Run
	files []string
}

func newValidateCmd(deps *cmdutil.Deps, runF func(*validateOptions) error) *cobra.Command {
	opts := &validateOptions{Run: deps.Run()}
	return &cobra.Command{
		Use:   "validate <file>...",
		Short: "Check profile files without registering them",
		Long: `Check one or more profile files with the same rules as 'add', report every
problem in each, and write nothing. A file named - is standard input.

A file that is valid but names a built-in profile (manual, review, ...) is
reported as a conflict, since 'add' refuses it: the built-in names are
reserved.

Exit status is 0 when every file is valid, 4 when a file does not exist,
else 3 when any file is invalid, else 5 when a file names a built-in
profile.`,
		Example: `  $ agents automation-profile validate profiles/*.yaml
  $ agents automation-profile validate strict.yaml -f json | jq '.[].problems'
  $ git show main:profiles/strict.yaml | agents automation-profile validate -`,
		Args: cmdutil.MinimumArgs(1, "at least one file to validate"),
		RunE: cmdutil.RunEArgs(opts, runF, validateRun, &opts.files),
	}
}

func validateRun(opts *validateOptions) error {
	return cmdutil.ValidateFiles(opts.UI, opts.files, func(data []byte, file string) (string, []string, error) {
		p, ws, err := profile.DecodeProfile(data, file)
		warnings := cmdutil.ProfileWarnings(ws)
		if err != nil {
			return "", warnings, err
		}
		if p.IsBuiltin() {
			e := registry.BuiltinConflict(p.Name, file)
			e.Problems[0].Line = keyLine(data, file, "name")
			return "", warnings, e
		}
		// add stores the canonical form, which must fit a stored file.
		if _, _, err := profile.Encode(p); err != nil {
			return "", warnings, err
		}
		return p.Name, warnings, nil
	})
}

// keyLine is the line of key at the top level of the YAML document data
// (a file that has decoded), or 0 when it cannot be told.
func keyLine(data []byte, file, key string) int {
	doc, problems := strictyaml.Parse(data, file)
	if doc == nil || len(problems) > 0 {
		return 0
	}
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == key {
			return root.Content[i].Line
		}
	}
	return 0
}
