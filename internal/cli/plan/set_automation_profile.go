package plan

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/cli/safetypack"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/resolve"
)

type setAutomationProfileOptions struct {
	deps    *cmdutil.Deps
	id      string
	profile string
}

func newSetAutomationProfileCmd(deps *cmdutil.Deps, runF func(*setAutomationProfileOptions) error) *cobra.Command {
	opts := &setAutomationProfileOptions{deps: deps}
	cmd := &cobra.Command{
		Use:   "set-automation-profile <id> <profile>",
		Short: "Choose a plan's automation profile and resolve it again",
		Long: `Set the automation profile at the plan's own level, the most specific, then
resolve the plan again, as 'plan use' did, and record the new answer and
snapshots. The plan keeps its own --safety-profile, if it had one; the
action, the project (looked for where the plan was made) and the global
configuration are read as they are now, so any drift is taken up.

EXIT STATUS
  0    the plan was resolved again
  3    invalid input: agents.yaml or config.yaml
  4    not found: the plan, the profile, the plan's action
  6    the safety pack in force was refused`,
		Example:           `  $ agents plan set-automation-profile 01jq3v6m4x8b2c7d9e0f1g2h3k cautious`,
		Args:              cmdutil.ExactArgs(2, "a plan id and a profile name"),
		ValidArgsFunction: cmdutil.CompleteArgs(deps, cmdutil.PlanIDs, cmdutil.ProfileNames),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.id, opts.profile = args[0], args[1]
			if opts.profile == "" {
				return errs.Usage("the profile name must not be empty")
			}
			if runF != nil {
				return runF(opts)
			}
			return setAutomationProfileRun(opts)
		},
	}
	return cmd
}

func setAutomationProfileRun(opts *setAutomationProfileOptions) error {
	deps := opts.deps
	if _, err := safetypack.LoadInForce(deps); err != nil {
		return err
	}
	p, err := cmdutil.LookupPlan(deps, opts.id)
	if err != nil {
		return err
	}
	env, err := cmdutil.ResolveEnv(deps)
	if err != nil {
		return err
	}
	own := p.Own()
	name := opts.profile
	own.AutomationProfile = &name
	r, err := env.Resolve(resolve.Request{Own: own, Action: p.Action, ProjectDir: p.ProjectDir})
	if err != nil {
		return err
	}
	if err := cmdutil.JudgeResolution(deps, r, p, deps.Now()); err != nil {
		return err
	}
	if err := r.Record(env.Ctx, env.Store, p, deps.Now()); err != nil {
		return err
	}
	put, err := env.Store.Plans().Put(env.Ctx, p, true)
	if err != nil {
		return err
	}
	stored := put.Stored
	loosened := r.Loosened()
	cmdutil.WarnLoosened(deps, stored, loosened)
	return deps.RenderChange(render.PlanChange("updated", stored, loosened))
}
