package automationprofile

import (
	"slices"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
)

type diffOptions struct {
	cmdutil.Run
	names           []string
	builtin         bool
	onlyDifferences bool
}

func newDiffCmd(deps *cmdutil.Deps, runF func(*diffOptions) error) *cobra.Command {
	opts := &diffOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "diff {<name> <name> [<name>...] | --builtin}",
		Short: "Compare profiles side by side, field by field",
		Long: `Compare two or more profiles side by side: one row per field, one column per
profile, in the order given. The rows are the eleven thresholds grouped by
category, the eight safety settings and the six guard settings. A row whose
values differ is marked with * in every human format and highlighted in rich.

A profile without guards shows null (— in rich) for every guard setting.
Lists compare as sets: the same tools in another order do not differ, but an
absent list (null) and an empty one ([]) do.

--builtin, given alone, prints the eight built-in profiles as one matrix:
the eleven thresholds and the three main safety flags, profiles across in
their customary order, manual to full-auto. A terminal too narrow for all
eight shows them in parts, each with the field names.

--only-differences leaves out the rows whose values are all the same.

-f json and -f yaml print one document:

  {"profiles": ["manual", "review"],
   "differences": 4,
   "fields": [{"field": "auto_strategize", "category": "phase transition",
               "values": [1, 0], "differs": true},
              ...
              {"field": "safety.require_sandbox", "category": "safety", ...},
              {"field": "guards.tool_denylist", "category": "guards", ...}]}

values holds one entry per profile, in the order of profiles, with the
field's type (number, boolean, list of strings, or null); differences counts
the fields that differ, whether or not --only-differences is given.

EXIT STATUS
  0    the comparison was printed (whether or not the profiles differ)
  2    usage: fewer than two names, or names given with --builtin
  3    a name that is neither a built-in nor namespace/name
  4    a profile does not exist`,
		Example: `  # How does cautious differ from review?
  $ agents automation-profile diff review cautious

  # A custom profile against the built-in it started from, differences only
  $ agents automation-profile diff supervised acme/strict --only-differences

  # The built-in matrix
  $ agents automation-profile diff --builtin

  # The names of the fields that differ, for a script
  $ agents automation-profile diff ci acme/strict -f json | jq -r '.fields[] | select(.differs) | .field'`,
		Args: cobra.ArbitraryArgs,
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if b, _ := cmd.Flags().GetBool("builtin"); b {
				return nil, cobra.ShellCompDirectiveNoFileComp // --builtin takes no names
			}
			return cmdutil.CompleteEach(deps, cmdutil.ProfileNames)(cmd, args, toComplete)
		},
		RunE: cmdutil.RunE(opts, runF, diffRun, func(opts *diffOptions, cmd *cobra.Command, args []string) error {
			opts.names = args
			if opts.builtin && len(args) > 0 {
				return errs.Usage("--builtin takes no profile names").
					WithHint("compare the built-ins alone with --builtin, or name the profiles to compare")
			}
			if !opts.builtin && len(args) < 2 {
				return errs.Usage("name at least two profiles to compare").
					WithHint("name two or more profiles, or pass --builtin for the built-in matrix")
			}
			if dup := firstDuplicate(args); dup != "" {
				return errs.Usage("profile %q is named twice", dup).
					WithHint("name each profile once")
			}
			return nil
		}),
	}
	cmd.Flags().BoolVar(&opts.builtin, "builtin", false, "compare the eight built-in profiles: thresholds and safety flags")
	cmd.Flags().BoolVar(&opts.onlyDifferences, "only-differences", false, "leave out rows whose values are all the same")
	return cmd
}

func firstDuplicate(names []string) string {
	for i, n := range names {
		if slices.Contains(names[:i], n) {
			return n
		}
	}
	return ""
}

func diffRun(opts *diffOptions) error {
	var names []string
	if !opts.builtin {
		names = opts.names
	}
	ps, err := opts.Reg.ProfilesNamed(names)
	if err != nil {
		return err
	}
	return opts.UI.Render(render.NewDiffView(ps, opts.builtin, opts.onlyDifferences))
}
