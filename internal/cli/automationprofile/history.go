package automationprofile

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/store"
)

type historyOptions struct {
	deps *cmdutil.Deps
	name string
}

func newHistoryCmd(deps *cmdutil.Deps, runF func(*historyOptions) error) *cobra.Command {
	opts := &historyOptions{deps: deps}
	cmd := &cobra.Command{
		Use:   "history <name>",
		Short: "List every version of a profile the store has written",
		Long: `List the versions of a profile, oldest first: the sha256 of each version's
canonical content, when it was written or removed, and which version is in
the store now.

Every version stays in the store's objects, even after the profile is
removed, so a plan that cites a digest can always be checked against what the
registry really held ('agents safety-pack check --plan'). A built-in profile
has one version, the one compiled into agents.`,
		Example: `  $ agents automation-profile history acme/strict
  $ agents automation-profile history acme/strict -f json | jq -r '.versions[].digest'`,
		Args:              cmdutil.ExactArgs(1, "a profile name"),
		ValidArgsFunction: cmdutil.CompleteProfileNames(deps, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			if runF != nil {
				return runF(opts)
			}
			return historyRun(opts)
		},
	}
	return cmd
}

// version is one entry of a profile's history.
type version struct {
	Digest  string     `json:"digest"`
	Time    *time.Time `json:"time"`
	Event   string     `json:"event"`
	Current bool       `json:"current"`
}

type historyDoc struct {
	Name     string    `json:"name"`
	Builtin  bool      `json:"builtin"`
	Versions []version `json:"versions"`
}

func historyRun(opts *historyOptions) error {
	deps := opts.deps
	doc := historyDoc{Name: opts.name, Versions: []version{}}
	if profile.IsBuiltinName(opts.name) {
		p, err := deps.LookupProfile(opts.name)
		if err != nil {
			return err
		}
		data, _, err := profile.Encode(p)
		if err != nil {
			return errs.Wrap(errs.KindInternal, err, "built-in profile %s", opts.name)
		}
		doc.Builtin = true
		doc.Versions = append(doc.Versions, version{Digest: canon.Digest(data), Event: "built-in", Current: true})
		return deps.Render(historyView{doc})
	}
	if err := cmdutil.CheckProfileArg(opts.name); err != nil {
		return err
	}
	st, err := deps.Store()
	if err != nil {
		return err
	}
	entries, err := st.Profiles().History(deps.Ctx(), opts.name)
	if err != nil {
		return err
	}
	current := ""
	if p, err := st.Profiles().Get(deps.Ctx(), opts.name); err == nil {
		if data, _, err := profile.Encode(p); err == nil {
			current = canon.Digest(data)
		}
	} else if !errs.Is(err, errs.KindNotFound) {
		return err
	}
	// The version in the store now is the last put of its digest, if the
	// profile was not removed after it.
	last := -1
	for i, e := range entries {
		if e.Event == store.EventPut && e.Digest == current {
			last = i
		}
	}
	for i, e := range entries {
		t := e.Time
		doc.Versions = append(doc.Versions, version{Digest: e.Digest, Time: &t, Event: e.Event, Current: i == last})
	}
	return deps.Render(historyView{doc})
}

type historyView struct{ doc historyDoc }

func (v historyView) Data() any { return v.doc }

func (v historyView) rows() [][]string {
	var rows [][]string
	for _, ver := range v.doc.Versions {
		when := "-"
		if ver.Time != nil {
			when = ver.Time.UTC().Format(time.RFC3339)
		}
		cur := ""
		if ver.Current {
			cur = "current"
		}
		rows = append(rows, []string{when, ver.Event, ver.Digest, cur})
	}
	return rows
}

// Plain implements render.View: one version a line, tab-separated time,
// event, digest and "current" on the version in the store now.
func (v historyView) Plain(w *render.Writer) {
	for _, r := range v.rows() {
		if r[3] == "" {
			r = r[:3]
		}
		for i, cell := range r {
			if i > 0 {
				w.Raw("\t")
			}
			w.Raw(render.Escape(cell))
		}
		w.Raw("\n")
	}
}

func (v historyView) Tables() []render.Table {
	return []render.Table{{
		Title:  "history of " + v.doc.Name,
		Header: []string{"TIME", "EVENT", "DIGEST", ""},
		Rows:   v.rows(),
		// A digest is shortened, as git shortens commit ids, when the
		// terminal is too narrow for it whole; plain and json keep it.
		Fits: []render.Fit{render.FitKeep, render.FitKeep, render.FitWrap, render.FitKeep},
	}}
}
