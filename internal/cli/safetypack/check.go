package safetypack

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/resolve"
	sp "github.com/agentsctl/agents/internal/safetypack"
)

type checkOptions struct {
	deps        *cmdutil.Deps
	contextFile string
	plan        string
	profile     string
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
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
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
			opts.builders = contextBuilders(opts)
			if runF != nil {
				return runF(opts)
			}
			return checkRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.contextFile, "context", "", "judge the fields of this JSON context file")
	cmd.Flags().StringVar(&opts.plan, "plan", "", "judge the sources this plan cites, and the pack's predicates under its profiles")
	_ = cmd.RegisterFlagCompletionFunc("plan", cmdutil.CompleteFlag(deps, cmdutil.PlanIDs))
	cmd.Flags().StringVar(&opts.profile, "profile", "", "judge the pack's predicates under this automation profile")
	_ = cmd.RegisterFlagCompletionFunc("profile", cmdutil.CompleteFlag(deps, cmdutil.ProfileNames))
	cmd.Flags().BoolVar(&opts.enforce, "enforce", false, "exit 6 when a boundary is violated (except in warn or audit mode)")
	cmd.SetUsageTemplate(cmd.UsageTemplate() + `
EXIT STATUS
  0    the verdict was printed (whatever it says, without --enforce)
  2    usage: bad flag or argument
  3    the context file is not valid
  4    the context file, the plan or the profile does not exist
  6    the pack in force refused to load; or, with --enforce, a boundary
       is violated (not counting those in warn or audit mode)
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
	if l.Pack.HasPredicates() {
		pv, err := opts.policyVerdict(l)
		if err != nil {
			return err
		}
		v = v.WithPolicy(pv)
	}
	if err := opts.deps.Render(VerdictView{Verdict: v}); err != nil {
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

// policyVerdict judges the pack's own predicates under the profiles
// --plan or --profile names, or that resolve here. A plan or a profile
// named on the command line that does not exist is an error; a context
// that cannot be had otherwise (what resolves here names a profile that
// is gone) fails closed, each predicate violated with the reason.
func (opts *checkOptions) policyVerdict(l *sp.Loaded) (sp.PolicyVerdict, error) {
	deps := opts.deps
	var ctx sp.PolicyContext
	switch {
	case opts.plan != "":
		p, err := cmdutil.LookupPlan(deps, opts.plan)
		if err != nil {
			return sp.PolicyVerdict{}, err
		}
		if ctx, err = PlanPolicy(deps, p); err != nil {
			return l.Pack.Unjudged("the plan's recorded profiles cannot be read: " + err.Error()), nil
		}
	case opts.profile != "":
		p, err := deps.LookupProfile(opts.profile)
		if err != nil {
			return sp.PolicyVerdict{}, err
		}
		ctx = ProfilePolicy(p)
	default:
		r, err := resolveHere(deps)
		if err != nil {
			return l.Pack.Unjudged("no profile resolves here: " + err.Error()), nil
		}
		ctx = ResolutionPolicy(r, nil, nil)
	}
	return Judge(deps, l, ctx), nil
}

// resolveHere resolves the profiles a plan made in the working directory
// would get, with no action and no choice of its own.
func resolveHere(deps *cmdutil.Deps) (*resolve.Result, error) {
	dir, err := cmdutil.ProjectDir("")
	if err != nil {
		return nil, err
	}
	env, err := cmdutil.ResolveEnv(deps)
	if err != nil {
		return nil, err
	}
	return env.Resolve(resolve.Request{Own: plan.Setting{Level: plan.LevelPlan}, ProjectDir: dir})
}

func pluralize(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
