package automationprofile

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
)

// listProgressMinimum is the number of stored profiles above which list
// shows its progress.
const listProgressMinimum = 500

type listOptions struct {
	cmdutil.Run
	filter cmdutil.ListFilter
}

func newListCmd(deps *cmdutil.Deps, runF func(*listOptions) error) *cobra.Command {
	opts := &listOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:     "list [<regex>] [--namespace <ns>]",
		Aliases: []string{"ls"},
		Short:   "List built-in and custom profiles",
		Long: `List the built-in profiles in their customary order, manual to full-auto,
then the custom profiles by name. Each row shows the profile's autonomy
(the mean of 1 − threshold over the eleven gates), how its safety differs
from the default, and its description, shortened to the room the terminal
leaves. The customary order roughly follows how much a person stays
involved; it is not sorted by autonomy, which weighs every gate alike:
review, for one, lets whole phases run alone that supervised and cautious
still gate, so it scores higher than both.

The optional regex (RE2 syntax, unanchored) is matched against the full name.
--namespace lists only the custom profiles of that namespace. Stored files
that cannot be read are reported on stderr; the others still list.`,
		Example: `  # Every profile
  $ agents automation-profile list

  # Profiles whose name starts with "caut"
  $ agents automation-profile list '^caut'

  # The custom profiles of the acme namespace, one name per line
  $ agents automation-profile list --namespace acme -f plain`,
		RunE: cmdutil.RunEArg(opts, runF, listRun, &opts.filter.Regex),
	}
	opts.filter.Add(cmd, deps, "list only custom profiles of this namespace", cmdutil.ProfileNames, cmdutil.Namespaces)
	return cmd
}

func listRun(opts *listOptions) error {
	q, err := opts.filter.Query("'^acme/' or 'caut.*'")
	if err != nil {
		return err
	}
	// A large store takes a moment to read; show a counter then (on a
	// terminal only: see cmdutil.Progress).
	progress := opts.UI.ProgressReported("reading profiles", listProgressMinimum)
	q.Progress = progress.Report
	list, err := opts.Reg.ListProfiles(q)
	progress.Done()
	if err != nil {
		return err
	}
	return opts.UI.Render(render.ProfileListView{Profiles: list})
}
