package safetypack

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	sp "github.com/agentsctl/agents/internal/safetypack"
)

type checkOptions struct {
	deps        *cmdutil.Deps
	contextFile string
	plan        string
	enforce     bool
	// builders assemble the context from real state, in order; a later
	// builder's fields replace an earlier one's.
	builders []ContextBuilder
	// check is the predicate registry; nil means the defaults.
	check *sp.SafetyCheck
}

func newCheckCmd(deps *cmdutil.Deps, runF func(*checkOptions) error) *cobra.Command {
	opts := &checkOptions{deps: deps}
	cmd := &cobra.Command{
		Use:   "check [--plan <id>] [--context <file>] [--enforce]",
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

check observes: it exits 0 whatever the verdict, unless --enforce is given,
which turns a violation into exit 6.`,
		Example: `  # Judge the current state
  $ agents safety-pack check

  # Judge what a plan cites
  $ agents safety-pack check --plan 01jq3v6m4x8b2c7d9e0f1g2h3k

  # Judge a recorded context, failing on any violation
  $ agents safety-pack check --context ctx.json --enforce

  # The violated boundaries, one per line
  $ agents safety-pack check --context ctx.json -f json | jq -r '.violated_boundaries[]'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("plan") && opts.plan == "" {
				return errs.Usage("--plan must not be empty").WithHint("give a plan id: see 'agents plan list'")
			}
			opts.builders = contextBuilders(opts)
			if runF != nil {
				return runF(opts)
			}
			return checkRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.contextFile, "context", "", "judge the fields of this JSON context file")
	cmd.Flags().StringVar(&opts.plan, "plan", "", "judge the sources this plan cites")
	_ = cmd.RegisterFlagCompletionFunc("plan", cmdutil.CompleteFlag(deps, cmdutil.PlanIDs))
	cmd.Flags().BoolVar(&opts.enforce, "enforce", false, "exit 6 when a boundary is violated")
	cmd.SetUsageTemplate(cmd.UsageTemplate() + `
EXIT STATUS
  0    the verdict was printed (whatever it says, without --enforce)
  2    usage: bad flag or argument
  3    the context file is not valid
  4    the context file or the plan does not exist
  6    the pack in force refused to load; or, with --enforce, a boundary
       is violated
`)
	return cmd
}

// contextBuilders chooses where the context comes from. With --context
// alone the file alone speaks; otherwise the current state does, with the
// plan's evidence when --plan is given, and the file's fields over it when
// both are.
func contextBuilders(opts *checkOptions) []ContextBuilder {
	switch {
	case opts.plan != "" && opts.contextFile != "":
		return []ContextBuilder{PlanContext(opts.plan), FileContext(opts.contextFile)}
	case opts.contextFile != "":
		return []ContextBuilder{FileContext(opts.contextFile)}
	case opts.plan != "":
		return []ContextBuilder{BuiltinIdentityContext(), PlanContext(opts.plan)}
	}
	return []ContextBuilder{BuiltinIdentityContext()}
}

func checkRun(opts *checkOptions) error {
	l, err := LoadInForce(opts.deps)
	if err != nil {
		return err
	}
	ctx := &sp.Context{}
	for _, b := range opts.builders {
		part, err := b.Build(opts.deps)
		if err != nil {
			return err
		}
		ctx = ctx.Merge(part)
	}
	check := opts.check
	if check == nil {
		check = sp.NewSafetyCheck()
	}
	v := check.Check(ctx, l.Pack)
	if err := opts.deps.Render(VerdictView{Verdict: v}); err != nil {
		return err
	}
	if opts.enforce && !v.Upheld {
		return errs.New(errs.KindSafetyPack, "safety check: %s violated: %s",
			pluralize(len(v.ViolatedBoundaries), "boundary", "boundaries"), strings.Join(v.ViolatedBoundaries, ", ")).
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
