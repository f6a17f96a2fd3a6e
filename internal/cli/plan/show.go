package plan

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/render"
)

type showOptions struct {
	cmdutil.Run
	id string
}

func newShowCmd(deps *cmdutil.Deps, runF func(*showOptions) error) *cobra.Command {
	opts := &showOptions{Run: deps.Run()}
	return &cobra.Command{
		Use:   "show <id>",
		Short: "Show a plan's recorded resolution and its drift",
		Long: `Show a plan as recorded: its automation profile and safety profile, the level
each came from (provenance), whether the safety profile is standalone or
composed, the sha256 of each snapshot, and the trace of what every level set.

When the plan's safety profile is standalone and looser on any field than
the safety composed in its automation profile, which it replaces whole,
safety_loosened lists those fields and a warning says so.

Then resolve again now and compare: "drift" is null when the answer would be
the same, and otherwise says what differs (another profile, another level, a
profile whose content changed, or a resolution that now fails). The plan
keeps its recorded profiles either way; 'plan set-automation-profile'
resolves it again.

The record is also checked against the snapshots it cites, which the store
keeps by sha256 (a built-in's may come from the binary): "record" says
whether every snapshot is there and the record says what they say. A record
that does not verify (edited by hand, or its snapshots removed) is shown,
with a warning; check-gate and check-guard refuse to decide under it.

EXIT STATUS
  0    shown (with or without drift)
  2    usage: a plan id prefix that more than one plan begins with
  3    invalid input: what is not a plan id, nor the start of one
  4    the plan does not exist
  6    the safety pack in force was refused`,
		Example: `  $ agents plan show 01jq3v6m4x8b2c7d9e0f1g2h3k
  $ agents plan show 01jq3v6m4x8b2c7d9e0f1g2h3k -f json | jq .drift_details`,
		Args:              cmdutil.ExactArgs(1, "a plan id"),
		ValidArgsFunction: cmdutil.CompleteFromList(deps, cmdutil.PlanIDs),
		RunE:              cmdutil.RunEArg(opts, runF, showRun, &opts.id),
	}
}

func showRun(opts *showOptions) error {
	s, err := opts.Reg.ShowPlan(opts.id)
	if err != nil {
		return err
	}
	return opts.UI.Render(render.PlanView{Plan: s.Plan, Drift: s.Drift, Loosened: s.Loosened, Record: s.Record})
}
