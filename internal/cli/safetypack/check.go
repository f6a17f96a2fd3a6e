package safetypack

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/registry"
	"github.com/agentsctl/agents/internal/render"
)

type checkOptions struct {
	cmdutil.Run
	contextFile string
	plan        string
	profile     string
	enforce     bool
	// evidence assembles the context from real state, in order, in place
	// of what the flags choose (nil); a later part's fields replace an
	// earlier one's.
	evidence []registry.Evidence
}

func newCheckCmd(deps *cmdutil.Deps, runF func(*checkOptions) error) *cobra.Command {
	opts := &checkOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "check [--plan <id> | --profile <name>] [--context <file>] [--enforce]",
		Short: "Judge the safety pack's boundaries against real state",
		Long: `Judge every boundary of the pack in force and print the verdict: for each
boundary whether it is upheld, why, whether the evidence allowed judging it
at run time, and the evidence; then whether all are upheld, which are
violated, and how many were judged. A boundary the context holds no
evidence for is "not judged": it counts as upheld without being checked,
so the verdict says "every boundary upheld" only when every one was
judged, and otherwise how many were.

Without flags the context is the current state: the built-in profiles as
embedded in the binary are hashed and compared with what a lookup by their
names serves (no_identity_override). --plan ID adds the plan's evidence
(no_fabricated_source): the digests it cites, its automation profile's
snapshot and its safety profile's, against those the registry vouches for,
the built-ins' as embedded and every version the store has written under
the profile's name (the safety snapshot is vouched for when the store holds
it). With --context FILE alone the context is exactly that JSON file's
fields: field_state.versor_condition (the versor condition: how far a
caller's state has drifted from closure, by its own measure, which
preserve_versor_closure requires below 1e-6), cited_source_shas,
allowed_source_shas, last_refusal_was_typed,
identity_manifold_hash_before, identity_manifold_hash_after. A boundary
whose evidence is absent is upheld and not runtime-checkable. With both
--plan and --context, the file's fields override the plan's.

A boundary the pack gives a predicate of its own (boundary_predicates) is
judged against the profiles in force: with --plan, the automation profile
and safety profile the plan recorded, the plan and its action; with
--profile NAME, that profile and its composed safety profile; otherwise
what a plan made here would resolve to (project and global levels). Its
result carries its mode (enforce, warn or audit; null for the boundaries
agents judges itself) and the predicate as evidence; a violated boundary
in warn mode is also listed under warnings and printed on stderr.

check observes: it exits 0 whatever the verdict, unless --enforce is given,
which turns a violated boundary into exit 6, except one in warn or audit
mode.`,
		Example: `  # Judge the current state
  $ agents safety-pack check

  # Judge what a plan cites
  $ agents safety-pack check --plan 01jq3v6m4x8b2c7d9e0f1g2h3k

  # Would a plan under full-auto cross the pack's own boundaries?
  $ agents safety-pack check --profile full-auto

  # Judge a recorded context, failing on any violation
  $ agents safety-pack check --context ctx.json --enforce

  # The violated boundaries, one per line
  $ agents safety-pack check --context ctx.json -f json | jq -r '.violated_boundaries[]'`,
		Args:              cmdutil.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: cmdutil.RunE(opts, runF, checkRun, func(opts *checkOptions, cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("plan") && opts.plan == "" {
				return errs.Usage("--plan must not be empty").WithHint("give a plan id: see 'agents plan list'")
			}
			if cmd.Flags().Changed("profile") && opts.profile == "" {
				return errs.Usage("--profile must not be empty").WithHint("name a profile: see 'agents automation-profile list'")
			}
			if opts.plan != "" && opts.profile != "" {
				return errs.Usage("--plan and --profile cannot be combined").
					WithHint("a plan's boundaries are judged under the profile it recorded")
			}
			return nil
		}),
	}
	cmd.Flags().StringVar(&opts.contextFile, "context", "", "judge the fields of this JSON context file")
	cmdutil.NameFlag(cmd, deps, &opts.plan, "plan", "judge the sources this plan cites, and the pack's predicates under its profiles", cmdutil.PlanIDs)
	cmdutil.NameFlag(cmd, deps, &opts.profile, "profile", "judge the pack's predicates under this automation profile", cmdutil.ProfileNames)
	cmd.Flags().BoolVar(&opts.enforce, "enforce", false, "exit 6 when a boundary is violated (except in warn or audit mode)")
	cmd.SetUsageTemplate(cmd.UsageTemplate() + `
EXIT STATUS
  0    the verdict was printed (whatever it says, without --enforce)
  2    usage: bad flag or argument
  3    the context file is not valid; an invalid profile name; a --plan
       that is not a plan id nor the start of one; a store folder or
       file the check reads that another user owns or anyone can write
  4    the context file, the plan or the profile does not exist
  6    the pack in force refused to load; or, with --enforce, a boundary
       is violated (not counting those in warn or audit mode)
`)
	return cmd
}

func checkRun(opts *checkOptions) error {
	v, err := opts.Reg.CheckPack(registry.Check{ContextFile: opts.contextFile, Plan: opts.plan, Profile: opts.profile, Evidence: opts.evidence})
	if err != nil {
		return err
	}
	if err := opts.UI.Render(render.VerdictView{Verdict: v}); err != nil {
		return err
	}
	enforced := v.Enforced()
	if opts.enforce && len(enforced) > 0 {
		return errs.New(errs.KindSafetyPack, "safety check: %s violated: %s",
			pluralize(len(enforced), "boundary", "boundaries"), strings.Join(enforced, ", ")).
			WithHint("the verdict above gives each boundary's reason and evidence")
	}
	return nil
}

func pluralize(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
