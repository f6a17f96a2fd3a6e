package storecmd

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/storeurl"
)

type copyOptions struct {
	cmdutil.Run
	// stores opens the stores the arguments name: a URL, or an agents
	// home (that must exist, for the source).
	stores   cmdutil.Stores
	from, to string
	force    bool
}

func newCopyCmd(deps *cmdutil.Deps, runF func(*copyOptions) error) *cobra.Command {
	opts := &copyOptions{Run: deps.Run(), stores: deps.Stores()}
	cmd := &cobra.Command{
		Use:   "copy --from <home|url> --to <home|url> [--force]",
		Short: "Copy a registry between an agents home and PostgreSQL",
		Long: `Copy every custom profile, action and plan, every object and the whole
history from one store to another. Each side is an agents home (a folder) or
a postgres:// URL, so a registry moves from a machine into PostgreSQL, back
out of it, or between two databases. The PostgreSQL store must be migrated
first ('agents store migrate').

The copy is lossless: documents keep their canonical bytes and digests,
history events their times, so a round trip file → PostgreSQL → file gives
the same files and the same history. It is idempotent: a second run finds
nothing to write. A name the target holds with other content is a conflict
and nothing is copied, unless --force: the source's version then replaces
it, and the target's history keeps its own events with the source's after
them. Histories are merged, never cut. Into PostgreSQL, the copy is one
transaction that excludes every writer: all of it or nothing. Into a home,
it holds the home's lock, and running it again completes a copy that was cut
off.

A progress counter shows on a terminal; at the end a summary gives the
counts and a digest of the source and of the target (over the same names),
which are equal when the target holds what the source does.

EXIT STATUS
  0    copied (or nothing to copy)
  2    bad arguments, or both sides are the same store
  3    the source holds a document that does not parse, or history citing
       an object it lacks; or a PostgreSQL side is not migrated
  4    the source home does not exist
  5    the target holds other content under a name the source has (use
       --force)
  7    the target's role may not write
  75   a server is unreachable, or a writer held a lock past --lock-timeout`,
		Example: `  # Move this machine's registry into the organisation's database
  $ agents store copy --from ~/.config/agents --to postgres://agents@db/agents

  # Back it up to a folder, as files
  $ agents store copy --from postgres://agents@db/agents --to ./registry-backup -f json`,
		Args:              cmdutil.RangeArgs(0, 0, "no arguments (give --from and --to)"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: cmdutil.RunE(opts, runF, copyRun, func(opts *copyOptions, cmd *cobra.Command, args []string) error {
			if opts.from == "" || opts.to == "" {
				return errs.Usage("store copy needs both --from and --to").
					WithHint("usage: %s", cmd.UseLine())
			}
			return nil
		}),
	}
	cmd.Flags().StringVar(&opts.from, "from", "", "the store to copy from: an agents home folder or a postgres:// URL")
	cmd.Flags().StringVar(&opts.to, "to", "", "the store to copy into: an agents home folder (created if needed) or a postgres:// URL")
	cmd.Flags().BoolVar(&opts.force, "force", false, "replace the target's documents that differ from the source's")
	_ = cmd.MarkFlagFilename("from")
	_ = cmd.MarkFlagFilename("to")
	return cmd
}

func copyRun(opts *copyOptions) error {
	if same(opts.from, opts.to) {
		return errs.Usage("--from and --to name the same store (%s)", storeurl.Redact(opts.from)).
			WithHint("give two different stores")
	}
	from, err := opts.stores.OpenAt(opts.from, true)
	if err != nil {
		return onSide(err, "--from")
	}
	defer closeStore(from)
	to, err := opts.stores.OpenAt(opts.to, false)
	if err != nil {
		return onSide(err, "--to")
	}
	defer closeStore(to)
	if a, b := identity(from), identity(to); a != "" && a == b {
		return errs.Usage("--from and --to name the same store (%s and %s)", storeurl.Redact(opts.from), storeurl.Redact(opts.to)).
			WithHint("give two different stores")
	}
	src, ok1 := from.(store.Transferer)
	dst, ok2 := to.(store.Transferer)
	if !ok1 || !ok2 {
		return errs.Usage("these stores cannot be copied")
	}
	progress := opts.UI.ProgressReported("copying", 0)
	report, err := store.Copy(opts.stores.Ctx(), src, dst, store.CopyOptions{
		Force:    opts.force,
		Now:      opts.stores.Now,
		Progress: progress.Report,
	})
	progress.Done()
	if err != nil {
		return err
	}
	fromName, toName := storeurl.Redact(opts.from), storeurl.Redact(opts.to)
	opts.UI.Done(fmt.Sprintf("copied %s to %s", fromName, toName), !report.Changed())
	return opts.UI.RenderSummary(copyView(fromName, toName, report))
}

// onSide says which flag named a store that is not one: a path that is
// not a folder is the flag's mistake, not the home's.
func onSide(err error, flag string) error {
	var e *errs.Error
	if errors.As(err, &e) && e.Subject.About == errs.AboutHome && e.Hint == "" {
		switch e.Subject.Detail {
		case errs.DetailDanglingLink:
			return e.WithHint("create the folder the link leads to, or give %s an agents home (a folder) or a postgres:// URL", flag)
		case errs.DetailLinkLoop:
			return e.WithHint("replace the link with the folder it should lead to, or give %s an agents home (a folder) or a postgres:// URL", flag)
		}
		return e.WithHint("give %s an agents home (a folder) or a postgres:// URL", flag)
	}
	return err
}

// same reports whether two arguments name one store.
func same(a, b string) bool {
	if storeurl.LooksLikeURL(a) || storeurl.LooksLikeURL(b) {
		return a == b
	}
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	if err1 != nil || err2 != nil {
		return a == b
	}
	if rx, err := filepath.EvalSymlinks(x); err == nil {
		x = rx
	}
	if ry, err := filepath.EvalSymlinks(y); err == nil {
		y = ry
	}
	return x == y
}

// identity names the registry a store holds, where the store can say:
// "" otherwise. URLs that differ as text may name one registry.
func identity(s store.Store) string {
	if i, ok := s.(interface{ Identity() string }); ok {
		return i.Identity()
	}
	return ""
}

func closeStore(s store.Store) {
	if c, ok := s.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}

// copyDoc is the JSON and YAML form of a copy's summary.
type copyDoc struct {
	From string `json:"from"`
	To   string `json:"to"`
	*store.CopyReport
	Changed bool `json:"changed"`
	Match   bool `json:"match"`
}

func copyView(from, to string, r *store.CopyReport) render.View {
	doc := copyDoc{From: from, To: to, CopyReport: r, Changed: r.Changed(), Match: r.SourceDigest == r.TargetDigest}
	pairs := []render.Pair{{Key: "from", Value: from}, {Key: "to", Value: to}}
	for _, coll := range store.CollectionNames {
		c := r.Collections[coll]
		pairs = append(pairs, render.Pair{Key: coll, Value: fmt.Sprintf("%d added, %d replaced, %d removed, %d unchanged; %d history events added",
			c.Added, c.Replaced, c.Removed, c.Unchanged, c.Events)})
	}
	pairs = append(pairs,
		render.Pair{Key: "objects", Value: fmt.Sprintf("%d added (the source holds %d)", r.Objects, r.ObjectsHeld)},
		render.Pair{Key: "source digest", Value: r.SourceDigest},
		render.Pair{Key: "target digest", Value: r.TargetDigest + matchNote(doc.Match)},
	)
	title := "copied"
	if !doc.Changed {
		title = "nothing to copy: the target holds it all"
	}
	return render.KV{Title: strings.ToUpper(title[:1]) + title[1:], Pairs: pairs, Doc: doc}
}

func matchNote(match bool) string {
	if match {
		return " (the same: the target holds what the source does)"
	}
	return " (differs)"
}
