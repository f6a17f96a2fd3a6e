package cmdutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/iostreams"
)

// clock is a fake time that moves only when told.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestProgressShowsOnlyToAPerson(t *testing.T) {
	tests := []struct {
		name  string
		tty   bool
		quiet bool
		total int
		shows bool
	}{
		{"terminal", true, false, 10, true},
		{"not a terminal", false, false, 10, false},
		{"quiet", true, true, 10, false},
		{"nothing to count", true, false, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, out, errOut := iostreams.Test()
			ios.SetStderrTTY(tt.tty)
			c := &clock{t: time.Unix(0, 0)}
			d := &Deps{IO: ios, Now: c.now, Config: Config{Quiet: tt.quiet}}
			p := d.UI().Progress("reading profiles", tt.total)
			for i := range tt.total {
				p.Set(i + 1)
				c.t = c.t.Add(time.Second)
			}
			p.Done()
			if out.Len() != 0 {
				t.Errorf("progress wrote to stdout: %q", out.String())
			}
			got := errOut.String()
			if !tt.shows {
				if got != "" {
					t.Errorf("stderr %q, want nothing", got)
				}
				return
			}
			for _, want := range []string{"\ragents: reading profiles 1/10", "\ragents: reading profiles 10/10"} {
				if !strings.Contains(got, want) {
					t.Errorf("stderr %q lacks %q", got, want)
				}
			}
			// Done leaves the cursor at the start of a blank line.
			line := "agents: reading profiles 10/10"
			if !strings.HasSuffix(got, "\r"+strings.Repeat(" ", len(line))+"\r") {
				t.Errorf("the counter was not cleared: %q", got)
			}
		})
	}
}

func TestProgressRedrawsAtMostOncePerInterval(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	ios.SetStderrTTY(true)
	c := &clock{t: time.Unix(0, 0)}
	d := &Deps{IO: ios, Now: c.now}
	p := d.UI().Progress("reading files", 1000)
	// The clock stands still: only the first and the last count draw.
	for i := range 1000 {
		p.Set(i + 1)
	}
	if got := strings.Count(errOut.String(), "\r"); got != 2 {
		t.Errorf("%d redraws, want 2: %q", got, errOut.String())
	}
	if !strings.Contains(errOut.String(), "1000/1000") {
		t.Errorf("the last count was not drawn: %q", errOut.String())
	}
}

// TestProgressReportedStartsAtTheFirstReport: the counter is decided by
// the total of the first report, above the minimum or not, once.
func TestProgressReportedStartsAtTheFirstReport(t *testing.T) {
	tests := []struct {
		name   string
		totals []int // the total of each report, done counting from 1
		want   string
	}{
		{"above the minimum", []int{11, 11}, "\ragents: reading 1/11"},
		{"at the minimum", []int{10, 10}, ""},
		{"a later total above it", []int{10, 11}, ""},
		{"no report", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, errOut := iostreams.Test()
			ios.SetStderrTTY(true)
			c := &clock{t: time.Unix(0, 0)}
			d := &Deps{IO: ios, Now: c.now}
			r := d.UI().ProgressReported("reading", 10)
			for i, total := range tt.totals {
				r.Report(i+1, total)
			}
			r.Done()
			got := errOut.String()
			if tt.want == "" && got != "" || !strings.HasPrefix(got, tt.want) {
				t.Errorf("stderr %q, want it to begin %q", got, tt.want)
			}
		})
	}
}

func TestProgressNilIsSilent(t *testing.T) {
	var p *Progress
	p.Set(1)
	p.Set(3)
	p.Done()
}

func TestProgressShorterLineCoversLonger(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	ios.SetStderrTTY(true)
	c := &clock{t: time.Unix(0, 0)}
	d := &Deps{IO: ios, Now: c.now}
	p := d.UI().Progress("x", 100)
	p.Set(100)
	errOut.Reset()
	c.t = c.t.Add(time.Second)
	p.Set(5) // shorter than "100/100"
	if got, want := errOut.String(), "\ragents: x 5/100  "; got != want {
		t.Errorf("redraw %q, want %q", got, want)
	}
}

// TestGlobalDecodesWhatWasRead: config.yaml is read once, when the
// configuration is resolved; its policy settings are decoded from what was
// read then, whatever the file holds by the time they are needed.
func TestGlobalDecodesWhatWasRead(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("automation_profile: manual\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := &Deps{Config: Config{Home: home, GlobalRead: true, GlobalData: []byte("automation_profile: cautious\n")}, configured: true}
	g, err := d.Global()
	if err != nil || g.AutomationProfile == nil || *g.AutomationProfile != "cautious" {
		t.Fatalf("Global = %+v, %v; want what was read", g, err)
	}
	d = &Deps{Config: Config{Home: home, GlobalRead: true, GlobalErr: errs.Invalid("unreadable")}, configured: true}
	if _, err := d.Global(); !errs.Is(err, errs.KindInvalid) {
		t.Errorf("Global after a failed read = %v, want that failure", err)
	}
}

// On a terminal narrower than the counter, the line is cut to fit, the
// count kept: a line that wraps cannot be redrawn nor cleared in place.
func TestProgressFitsANarrowTerminal(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	ios.SetStderrTTY(true)
	ios.SetErrWidth(20)
	c := &clock{t: time.Unix(0, 0)}
	p := (&Deps{IO: ios, Now: c.now}).UI().Progress("reading profiles", 20000)
	p.Set(12345)
	p.Done()
	for _, draw := range strings.Split(errOut.String(), "\r") {
		if len(draw) > 19 {
			t.Errorf("drawn %q: %d columns on a terminal of 20", draw, len(draw))
		}
	}
	if !strings.Contains(errOut.String(), "12345/20000") {
		t.Errorf("stderr %q lacks the count", errOut.String())
	}
}
