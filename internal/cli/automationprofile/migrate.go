package automationprofile

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/atomicfile"
	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
)

// migrateProgressMinimum is the number of files above which migrate shows
// its progress.
const migrateProgressMinimum = 50

type migrateOptions struct {
	ui    *cmdutil.UI
	files []string
	write bool
}

func newMigrateCmd(deps *cmdutil.Deps, runF func(*migrateOptions) error) *cobra.Command {
	opts := &migrateOptions{ui: deps.UI()}
	cmd := &cobra.Command{
		Use:   "migrate <file>... [--write]",
		Short: "Convert legacy flat profiles to the nested format",
		Long: `Convert profile files that carry require_sandbox, require_checkpoints and
allow_unsafe_tools at their top level (the format used before the safety
profile was nested) into the canonical format, with those fields under
safety:.

Without --write the converted profiles are printed. With --write each legacy
file is replaced atomically; files already in the nested format are left
untouched. Comments are not carried over.`,
		Example: `  # See the converted profile
  $ agents automation-profile migrate old/strict.yaml -f yaml

  # Convert a folder of profiles in place
  $ agents automation-profile migrate profiles/*.yaml --write`,
		Args: cmdutil.MinimumArgs(1, "at least one file to migrate"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.files = args
			if runF != nil {
				return runF(opts)
			}
			return migrateRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.write, "write", false, "rewrite legacy files in place")
	return cmd
}

type migration struct {
	File     string                     `json:"file"`
	Name     string                     `json:"name"`
	Legacy   bool                       `json:"legacy"`
	Written  bool                       `json:"written"`
	Profile  *profile.AutomationProfile `json:"-"`
	encoding []byte
}

func migrateRun(opts *migrateOptions) error {
	ui := opts.ui
	// Decode every file before writing any, so one bad file leaves all
	// files as they were.
	var ms []*migration
	var progress *cmdutil.Progress
	if len(opts.files) > migrateProgressMinimum {
		progress = ui.Progress("reading files", len(opts.files))
	}
	defer progress.Done()
	for i, f := range opts.files {
		data, err := profile.ReadFile(f)
		if err != nil {
			return err
		}
		p, _, err := profile.DecodeProfile(data, f)
		if err != nil {
			return err
		}
		enc, err := canon.YAML(p)
		if err != nil {
			return errs.Wrap(errs.KindInternal, err, "encode %s", f)
		}
		progress.Set(i + 1)
		ms = append(ms, &migration{File: f, Name: p.Name, Legacy: profile.HasLegacyFlatFields(data), Profile: p, encoding: enc})
	}
	progress.Done()
	if !opts.write {
		profiles := make([]*profile.AutomationProfile, len(ms))
		for i, m := range ms {
			profiles[i] = m.Profile
		}
		return ui.Render(migratedView{profiles})
	}
	if len(ms) > migrateProgressMinimum {
		progress = ui.Progress("rewriting files", len(ms))
	}
	for i, m := range ms {
		// The counter is cleared for each message and drawn again after
		// it, so the two never share a line.
		progress.Done()
		if !m.Legacy {
			ui.Info("%s: already in the nested format; left unchanged", m.File)
		} else {
			if err := atomicfile.WriteFile(m.File, m.encoding, 0o644); err != nil {
				return errs.Wrap(errs.KindInternal, err, "rewrite %s", m.File)
			}
			m.Written = true
			ui.Warn("%s: rewritten in the nested format; comments in it were not kept", m.File)
		}
		progress.Set(i + 1)
	}
	progress.Done()
	// A change prints nothing with --quiet but the document asked for.
	if ui.Quiet() && !render.IsMachine(ui.Format()) {
		return nil
	}
	return ui.Render(migrateSummary{ms})
}

// migratedView prints converted profiles: the canonical documents in json
// and yaml, the YAML text itself in the human formats.
type migratedView struct{ profiles []*profile.AutomationProfile }

func (v migratedView) Data() any {
	if len(v.profiles) == 1 {
		return v.profiles[0]
	}
	return v.profiles
}

func (v migratedView) Plain(w *render.Writer) {
	for i, p := range v.profiles {
		if i > 0 {
			w.Raw("---\n")
		}
		b, err := canon.YAML(p)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
			w.Line(line)
		}
	}
}

func (v migratedView) Tables() []render.Table {
	var ts []render.Table
	for _, p := range v.profiles {
		ts = append(ts, render.ProfileView{Profile: p}.Tables()...)
	}
	return ts
}

func (v migratedView) Rich(*render.Theme) string {
	var b strings.Builder
	v.Plain(render.NewWriter(&b))
	return b.String()
}

type migrateSummary struct{ ms []*migration }

func (v migrateSummary) Data() any { return v.ms }

func (v migrateSummary) Plain(w *render.Writer) {
	for _, m := range v.ms {
		if m.Written {
			w.Line(m.File, ": migrated")
		} else {
			w.Line(m.File, ": unchanged")
		}
	}
}

func (v migrateSummary) Tables() []render.Table {
	t := render.Table{Header: []string{"FILE", "NAME", "RESULT"}, Fits: []render.Fit{render.FitWrap, render.FitKeep, render.FitKeep}}
	for _, m := range v.ms {
		res := "unchanged"
		if m.Written {
			res = "migrated"
		}
		t.Rows = append(t.Rows, []string{m.File, m.Name, res})
	}
	return []render.Table{t}
}
