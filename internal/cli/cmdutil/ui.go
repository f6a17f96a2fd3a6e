package cmdutil

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"syscall"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/storeurl"
	"github.com/agentsctl/agents/internal/strictyaml"
)

// UI is a run function's side of the terminal: it prints views in the
// configured format on stdout, and warnings, information and progress on
// stderr; it reads input files (or stdin) and asks for confirmation. The
// registry's warnings are printed before anything else the command
// prints, so they keep the order they arose in.
type UI struct {
	d *Deps
	// silent drops warnings and information, for shell completion, whose
	// stderr nobody reads.
	silent bool
}

// IO returns the command's streams.
func (u *UI) IO() *iostreams.IOStreams { return u.d.IO }

// Getenv returns the environment variable name, as the command sees it.
func (u *UI) Getenv(name string) string { return u.d.Getenv(name) }

// Args returns the invocation's arguments, as given.
func (u *UI) Args() []string { return u.d.Args }

// Format returns the configured output format.
func (u *UI) Format() string { return u.d.Config.Format }

// Quiet reports whether --quiet is set.
func (u *UI) Quiet() bool { return u.d.Config.Quiet }

// Flush prints the warnings the registry gave since they were last
// printed.
func (u *UI) Flush() {
	if u.d.registry == nil {
		return
	}
	for _, w := range u.d.registry.Warnings() {
		u.warn(w)
	}
}

// silently runs fn with warnings and information dropped, the registry's
// included.
func (u *UI) silently(fn func()) {
	old := u.silent
	u.silent = true
	defer func() { u.silent = old }()
	fn()
	u.Flush()
}

// Renderer returns the renderer for the configured format.
func (u *UI) Renderer() (render.Renderer, error) {
	return render.Lookup(u.d.Config.Format, render.Options{Color: u.d.IO.ColorEnabled(), Width: u.d.IO.TerminalWidth()})
}

// Render writes v to stdout in the configured format.
func (u *UI) Render(v render.View) error {
	u.Flush()
	r, err := u.Renderer()
	if err != nil {
		return err
	}
	return r.Render(u.d.IO.Out, v)
}

// RenderChange prints what a mutation did, as the command contract says:
// one line in the human formats, nothing with --quiet; in json and yaml
// the document on stdout, quiet or not, since it was asked for. A change
// that changed nothing is also told on stderr in json and yaml (unless
// --quiet), since the document alone cannot say so.
func (u *UI) RenderChange(c render.Change) error {
	u.Done(c.Text(), c.Verb == render.Unchanged)
	u.Flush()
	if render.IsMachine(u.d.Config.Format) {
		if err := u.Render(c); err != nil {
			return u.d.OutputLost(err)
		}
		if c.Verb == render.Unchanged {
			u.Info("%s", c.Text())
		}
		return nil
	}
	if u.d.Config.Quiet {
		return nil
	}
	if err := u.Render(c); err != nil {
		return u.d.OutputLost(err)
	}
	return nil
}

// RenderSummary prints what a change that is not one document's did (a
// migration, a copy), as RenderChange does: the document in json and yaml,
// quiet or not; in the human formats, the summary unless --quiet. The
// command says what it did with Done first.
func (u *UI) RenderSummary(v render.View) error {
	if u.d.Config.Quiet && !render.IsMachine(u.d.Config.Format) {
		u.Flush()
		return nil
	}
	if err := u.Render(v); err != nil {
		return u.d.OutputLost(err)
	}
	return nil
}

// Done records what the command changed, in words, once it is changed
// (unchanged: it found nothing to change), so that output that cannot be
// written is not taken for a change not made; see Deps.OutputLost.
func (u *UI) Done(what string, unchanged bool) { u.d.Done(what, unchanged) }

// Warn writes a warning line to stderr.
func (u *UI) Warn(format string, a ...any) {
	u.Flush()
	u.warn(fmt.Sprintf(format, a...))
}

func (u *UI) warn(msg string) {
	if u.silent {
		return
	}
	fmt.Fprintf(u.d.IO.ErrOut, "agents: warning: %s\n", render.Escape(storeurl.RedactText(msg)))
}

// Info writes an informational line to stderr unless --quiet is set.
func (u *UI) Info(format string, a ...any) {
	u.Flush()
	if u.d.Config.Quiet || u.silent {
		return
	}
	fmt.Fprintf(u.d.IO.ErrOut, "agents: %s\n", render.Escape(storeurl.RedactText(fmt.Sprintf(format, a...))))
}

// Stdin is the file name that stands for standard input in --config, as in
// most tools.
const Stdin = "-"

// StdinName is how standard input is named in messages.
const StdinName = "<stdin>"

// ReadInput reads the file a --config flag names, "-" meaning standard
// input, with the same 1 MiB bound either way. It returns the content and
// the name to give the file in messages.
func (u *UI) ReadInput(path string) ([]byte, string, error) {
	if path != Stdin {
		data, err := strictyaml.ReadFile(path)
		return data, path, suggestStdin(err)
	}
	if u.d.IO.IsStdinTTY() {
		// Nothing is piped in: the document is to be typed or pasted,
		// and without a word the command would seem to hang.
		u.Info("reading standard input from the terminal: type or paste the document, then end it with %s", endOfInput())
	}
	data, err := io.ReadAll(io.LimitReader(u.d.IO.In, strictyaml.MaxFileSize+1))
	if err != nil {
		return nil, StdinName, StdinError(err, "a YAML document")
	}
	if len(data) > strictyaml.MaxFileSize {
		return nil, StdinName, errs.InvalidProblems(StdinName, []errs.Problem{{File: StdinName,
			Message: fmt.Sprintf("input is larger than %d bytes (1 MiB), the limit", strictyaml.MaxFileSize)}})
	}
	return data, StdinName, nil
}

// StdinError is the error of standard input that could not be read. A
// folder given as standard input (< dir) holds no document: that is the
// input's mistake (invalid input, as a folder named where a file belongs
// is), not a failure of agents; want says what was to be read there.
func StdinError(err error, want string) error {
	if errors.Is(err, syscall.EISDIR) {
		return errs.Invalid("cannot read standard input: it is a folder, not %s", want).
			WithHint("redirect a file (< file) or pipe the input in, not a folder")
	}
	return errs.Wrap(errs.KindInternal, err, "cannot read standard input")
}

// endOfInput names the keys that end the input typed at a terminal.
func endOfInput() string {
	if runtime.GOOS == "windows" {
		return "Ctrl-Z and Enter"
	}
	return "Ctrl-D"
}

// suggestStdin adds to err, when it refuses a pipe or a device named on the
// command line where "-" would read standard input, that "-" can be given
// instead: what the pipe was meant to give can come on standard input.
func suggestStdin(err error) error {
	var e *errs.Error
	if errors.As(err, &e) && e.Hint == strictyaml.NotRegularHint {
		e.Hint += " (give - instead to read standard input)"
	}
	return err
}

// ConfirmRemoval returns the confirmation of removing what (such as
// "profile") called name: yes (--yes was given), or the user agreed at a
// terminal. Without a terminal (or with CI set) and without --yes it is a
// usage error, so that a script never hangs on a question nobody will
// answer.
//
// A user who answers anything but yes (or ends the input) has decided,
// not failed: the answer is false, with a line on stderr saying that
// nothing was removed, and the command ends with exit status 0. With yes
// there is nothing to ask: it returns nil.
func (u *UI) ConfirmRemoval(what, name string, yes bool) func() (bool, error) {
	if yes {
		return nil
	}
	return func() (bool, error) {
		if !u.d.IO.CanPrompt() {
			return false, errs.Usage("refusing to remove %q without confirmation", name).
				WithHint("pass --yes to remove it when not at a terminal or when CI is set")
		}
		u.Flush()
		u.d.IO.DiscardTypedAhead()
		fmt.Fprintf(u.d.IO.ErrOut, "Remove %s %s? [y/N] ", what, render.Escape(name))
		u.d.IO.SetLineOpen(true)
		line, err := bufio.NewReader(u.d.IO.In).ReadString('\n')
		u.d.IO.SetLineOpen(false)
		if err != nil && line == "" {
			fmt.Fprintln(u.d.IO.ErrOut)
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, nil
		}
		fmt.Fprintf(u.d.IO.ErrOut, "agents: kept %s %s; nothing was removed\n", what, render.Escape(name))
		return false, nil
	}
}
