package cmdutil

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agentsctl/agents/internal/iostreams"
)

// progressInterval is how often a progress counter is redrawn at most, so a
// fast loop does not spend its time writing to the terminal.
const progressInterval = 100 * time.Millisecond

// Progress shows how far a long command has got as one counter line on
// stderr, redrawn in place. It shows only to a person: when stderr is not a
// terminal, or --quiet is set, every method does nothing, so a script's
// stderr carries warnings and errors alone. A nil *Progress is valid and
// silent.
type Progress struct {
	io    *iostreams.IOStreams
	w     io.Writer
	now   func() time.Time
	label string
	// width is that of stderr's terminal, 0 when unknown: a line as wide
	// wraps, and then a carriage return redraws only its last row.
	width int
	total int
	done  int
	// drawn is the width of the line on screen, 0 when none is.
	drawn int
	last  time.Time
}

// Progress returns a counter for total steps, labelled with what they are
// ("reading profiles"). Call Add or Set as steps finish and Done at the
// end, which clears the line before anything else is printed.
func (u *UI) Progress(label string, total int) *Progress {
	d := u.d
	if d.Config.Quiet || d.IO == nil || !d.IO.IsStderrTTY() || total <= 0 {
		return nil
	}
	u.Flush()
	now := d.Now
	if now == nil {
		now = time.Now
	}
	return &Progress{io: d.IO, w: d.IO.ErrOut, now: now, label: label, width: d.IO.ErrWidth(), total: total}
}

// Reported is a counter for a use case that reports how far it has got
// (done of total) as it goes, so that the total is known only at its
// first report: the counter starts then, when the total is above the
// minimum given, and not at all otherwise. A use case that reports
// nothing shows none.
type Reported struct {
	u       *UI
	label   string
	minimum int
	started bool
	p       *Progress
}

// ProgressReported returns a counter labelled label that a use case's
// reports start, when their total is above minimum (see Reported). Pass
// its Report to the use case and call Done at the end.
func (u *UI) ProgressReported(label string, minimum int) *Reported {
	return &Reported{u: u, label: label, minimum: minimum}
}

// Report records that done of total steps have finished.
func (r *Reported) Report(done, total int) {
	if !r.started {
		r.started = true
		if total > r.minimum {
			r.p = r.u.Progress(r.label, total)
		}
	}
	r.p.Set(done)
}

// Done clears the counter line, as Progress.Done does.
func (r *Reported) Done() { r.p.Done() }

// Set records that done steps have finished.
func (p *Progress) Set(done int) {
	if p == nil {
		return
	}
	p.done = min(max(done, 0), p.total)
	t := p.now()
	// The first count and the last always show; those between, at most
	// once an interval.
	if p.drawn > 0 && p.done < p.total && t.Sub(p.last) < progressInterval {
		return
	}
	p.last = t
	p.draw(fmt.Sprintf("agents: %s %d/%d", p.label, p.done, p.total))
}

// Done clears the counter line. Call it before printing anything else on
// stderr too; a later Add or Set draws the counter again.
func (p *Progress) Done() {
	if p == nil || p.drawn == 0 {
		return
	}
	// Spaces rather than an erase-line escape: they work on every
	// terminal, TERM=dumb included.
	fmt.Fprint(p.w, "\r"+strings.Repeat(" ", p.drawn)+"\r")
	p.drawn = 0
	p.io.SetLineOpen(false)
}

func (p *Progress) draw(line string) {
	// Keep the end, which holds the count, one column short of the edge,
	// where some terminals wrap already. The line is ASCII.
	if p.width > 1 && len(line) > p.width-1 {
		line = line[len(line)-(p.width-1):]
	}
	pad := ""
	if n := p.drawn - len(line); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	fmt.Fprint(p.w, "\r"+line+pad)
	p.drawn = len(line)
	p.io.SetLineOpen(true)
}
