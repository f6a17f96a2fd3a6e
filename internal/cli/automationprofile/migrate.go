package automationprofile

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
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
	cmdutil.Run
	files []string
	write bool
}

func newMigrateCmd(deps *cmdutil.Deps, runF func(*migrateOptions) error) *cobra.Command {
	opts := &migrateOptions{Run: deps.Run()}
	cmd := &cobra.Command{
		Use:   "migrate <file>... [--write]",
		Short: "Convert legacy flat profiles to the nested format",
		Long: `Convert profile files that carry require_sandbox, require_checkpoints and
allow_unsafe_tools at their top level (the format used before the safety
profile was nested) into the canonical format, with those fields under
safety:.

Without --write the converted profiles are printed ("-" reads a file from
standard input): with -f json or yaml, one file's as one document (ready to be
saved as a profile file), several files' as an array of documents in the order
given. With --write each legacy file is replaced atomically; files already in
the nested format are left untouched. Comments are not carried over.

Every file is read and checked before any is printed or written: when some
are missing or invalid, the error lists every problem of each, nothing is
written, and the exit status is 4 if a file is missing, else 3.`,
		Example: `  # See the converted profile
  $ agents automation-profile migrate old/strict.yaml -f yaml

  # Convert a folder of profiles in place
  $ agents automation-profile migrate profiles/*.yaml --write`,
		Args: cmdutil.MinimumArgs(1, "at least one file to migrate"),
		RunE: cmdutil.RunE(opts, runF, migrateRun, func(opts *migrateOptions, _ *cobra.Command, args []string) error {
			opts.files = args
			if opts.write && slices.Contains(args, cmdutil.Stdin) {
				return errs.Usage("--write cannot rewrite standard input (%q)", cmdutil.Stdin).
					WithHint("leave out --write to print the converted profile, or name the file to rewrite it")
			}
			return cmdutil.StdinOnce(args)
		}),
	}
	cmd.Flags().BoolVar(&opts.write, "write", false, "rewrite legacy files in place")
	return cmd
}

// migration is one file to migrate: what the summary tells of it, its
// profile and the profile's canonical encoding.
type migration struct {
	render.Migration
	profile  *profile.AutomationProfile
	encoding []byte
	// commented is true when the file has comments, which the rewrite
	// loses.
	commented bool
}

func migrateRun(opts *migrateOptions) error {
	ui := opts.UI
	// Decode every file before writing any, so one bad file leaves all
	// files as they were.
	var ms []*migration
	var progress *cmdutil.Progress
	if len(opts.files) > migrateProgressMinimum {
		progress = ui.Progress("reading files", len(opts.files))
	}
	defer progress.Done()
	// A file missing or invalid does not stop the reading: the others'
	// problems are reported with its own, as validate does.
	var failed []failedFile
	for i, f := range opts.files {
		data, name, err := ui.ReadInput(f)
		f = name
		var p *profile.AutomationProfile
		if err == nil {
			p, _, err = profile.DecodeProfile(data, f)
		}
		if err != nil {
			if !errs.Is(err, errs.KindNotFound) && !errs.Is(err, errs.KindInvalid) {
				return err
			}
			failed = append(failed, failedFile{f, err})
			progress.Set(i + 1)
			continue
		}
		enc, err := canon.YAML(p)
		if err != nil {
			return errs.Wrap(errs.KindInternal, err, "encode %s", f)
		}
		progress.Set(i + 1)
		ms = append(ms, &migration{Migration: render.Migration{File: f, Name: p.Name, Legacy: profile.HasLegacyFlatFields(data)}, profile: p, encoding: enc, commented: profile.HasComments(data)})
	}
	progress.Done()
	if err := migrateFailure(failed, len(opts.files), opts.write); err != nil {
		return err
	}
	if !opts.write {
		profiles := make([]*profile.AutomationProfile, len(ms))
		for i, m := range ms {
			profiles[i] = m.profile
		}
		return ui.Render(render.MigratedView{Profiles: profiles})
	}
	// A link among the files stops the rewrite before any file changes.
	for _, m := range ms {
		if m.Legacy && atomicfile.NotLink(m.File) != nil {
			return linkRefusal(m.File)
		}
	}
	if len(ms) > migrateProgressMinimum {
		progress = ui.Progress("rewriting files", len(ms))
	}
	for i, m := range ms {
		// The counter is cleared for each message and drawn again after
		// it, so the two never share a line.
		progress.Done()
		// A file already nested is left as it is; the summary on
		// stdout says "unchanged" of it, once.
		if m.Legacy {
			if err := atomicfile.WriteFile(m.File, m.encoding, 0o644); err != nil {
				if errors.Is(err, atomicfile.ErrLink) {
					return linkRefusal(m.File)
				}
				return errs.Wrap(errs.KindInternal, err, "rewrite %s", m.File)
			}
			m.Written = true
			if m.commented {
				ui.Warn("%s: rewritten in the nested format; comments in it were not kept", m.File)
			}
		}
		progress.Set(i + 1)
	}
	progress.Done()
	summary := make([]render.Migration, len(ms))
	written := 0
	for i, m := range ms {
		summary[i] = m.Migration
		if m.Written {
			written++
		}
	}
	ui.Done(fmt.Sprintf("rewrote %d of %d files in the nested format", written, len(ms)), written == 0)
	// A change prints nothing with --quiet but the document asked for.
	return ui.RenderSummary(render.MigrateSummary{Migrations: summary})
}

// linkRefusal refuses to rewrite a file that is a symbolic link: the
// rewrite would replace the link, and the file it names would stay as it
// was.
func linkRefusal(file string) error {
	target, _ := filepath.EvalSymlinks(file)
	return errs.Usage("%s is a link to %s: --write rewrites files, not links, and left every file as it was", file, target).
		WithHint("migrate the file itself: agents automation-profile migrate %s --write", cmdutil.ShellWord(target))
}

// failedFile is a file migrate cannot read or decode, and why.
type failedFile struct {
	file string
	err  error
}

// migrateFailure is the error of a migration some files of which are
// missing or invalid (nil when none is): the file's own error when one
// failed; else one listing every failing file's problems, not found (4)
// when a file is missing, which wins over invalid (3).
func migrateFailure(failed []failedFile, total int, write bool) error {
	switch len(failed) {
	case 0:
		return nil
	case 1:
		var e *errs.Error
		if !write || total == 1 || !errors.As(failed[0].err, &e) {
			return failed[0].err
		}
		// Its own error, saying that the others were left as they were.
		c := *e
		c.Hint = strings.TrimPrefix(c.Hint+fmt.Sprintf("; none of the %d files was rewritten: fix this one, then migrate them again", total), "; ")
		return &c
	}
	kind := errs.KindInvalid
	var problems []errs.Problem
	for _, f := range failed {
		if errs.Is(f.err, errs.KindNotFound) {
			kind = errs.KindNotFound
		}
		var e *errs.Error
		if errors.As(f.err, &e) && len(e.Problems) > 0 {
			problems = append(problems, e.Problems...)
		} else {
			problems = append(problems, errs.Problem{File: f.file, Message: f.err.Error()})
		}
	}
	e := errs.New(kind, "%d of %d files cannot be migrated", len(failed), total)
	if write {
		e.Msg += ", so none was rewritten"
	}
	e.Problems = problems
	if kind == errs.KindNotFound {
		return e.WithHint("check the path of each file not found, and fix the problems listed")
	}
	return e.WithHint("fix the problems listed (each with its file, line and field), then migrate again")
}
