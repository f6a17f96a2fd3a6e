// Command cmdtime times whole commands side by side: it runs every command
// once per round, in a new random order each round, and reports for each
// the median wall time over the rounds, its quartiles, and its peak
// resident memory. Interleaving matters on a shared machine: when other
// work comes and goes, it slows every command of the round alike, so the
// ratios between commands hold even when the absolute times drift, where
// timing one command's runs in a block and then the next would compare
// different moments.
//
// Commands are read from standard input, one per line, as tab-separated
// fields:
//
//	label <TAB> expected exit code <TAB> environment (NAME=value ..., or -) <TAB> program and arguments
//
// Arguments are separated by spaces and cannot contain any. A last
// argument of the form <FILE is not passed: the command reads FILE on
// standard input (an agent hook's call, say). Each command runs with the
// given variables added to cmdtime's own environment, with standard input
// empty unless given and its output discarded; a command that exits with
// another code than expected stops the run, since its time would measure
// the wrong thing. The report is tab-separated on standard output:
//
//	label  median_ms  p25_ms  p75_ms  min_ms  runs
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

type command struct {
	label string
	code  int
	env   []string
	argv  []string
	stdin string // a file to read on standard input, or ""

	times []time.Duration
}

func main() {
	rounds := flag.Int("rounds", 100, "measured rounds: each runs every command once")
	warmup := flag.Int("warmup", 5, "rounds run first and not measured (page cache, CPU frequency)")
	flag.Parse()
	cmds, err := parse(os.Stdin)
	if err == nil && len(cmds) == 0 {
		err = errors.New("no commands on standard input")
	}
	if err == nil {
		err = run(cmds, *warmup, *rounds)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "cmdtime:", err)
		os.Exit(1)
	}
	for _, c := range cmds {
		slices.Sort(c.times)
		fmt.Printf("%s\t%.3f\t%.3f\t%.3f\t%.3f\t%d\n", c.label,
			ms(quantile(c.times, 0.5)), ms(quantile(c.times, 0.25)), ms(quantile(c.times, 0.75)),
			ms(c.times[0]), len(c.times))
	}
}

func parse(f *os.File) ([]*command, error) {
	var cmds []*command
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, "\t")
		if len(fields) != 4 {
			return nil, fmt.Errorf("line %d: want 4 tab-separated fields, got %d", line, len(fields))
		}
		code, err := strconv.Atoi(fields[1])
		if err != nil {
			return nil, fmt.Errorf("line %d: exit code %q: %v", line, fields[1], err)
		}
		c := &command{label: fields[0], code: code, argv: strings.Fields(fields[3])}
		if fields[2] != "-" {
			c.env = strings.Fields(fields[2])
		}
		if n := len(c.argv); n > 1 && strings.HasPrefix(c.argv[n-1], "<") {
			c.stdin, c.argv = c.argv[n-1][1:], c.argv[:n-1]
		}
		if len(c.argv) == 0 {
			return nil, fmt.Errorf("line %d: no program", line)
		}
		cmds = append(cmds, c)
	}
	return cmds, sc.Err()
}

func run(cmds []*command, warmup, rounds int) error {
	order := make([]*command, len(cmds))
	copy(order, cmds)
	for r := range warmup + rounds {
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, c := range order {
			d, err := once(c)
			if err != nil {
				return err
			}
			if r >= warmup {
				c.times = append(c.times, d)
			}
		}
	}
	return nil
}

// once runs c and returns its wall time, from just before the process is
// started to just after it has been waited for. (Peak memory is not taken
// from here: the kernel counts a child's memory from before it replaces
// itself with the command, which is cmdtime's own.)
func once(c *command) (time.Duration, error) {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Env = append(os.Environ(), c.env...)
	// Output goes through a pipe, read and dropped, as a caller reads it
	// (a hook whose output is the null device blocks).
	cmd.Stdout = io.Discard
	if c.stdin != "" {
		f, err := os.Open(c.stdin)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", c.label, err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
	default:
		return 0, fmt.Errorf("%s: %v", c.label, err)
	}
	if got := cmd.ProcessState.ExitCode(); got != c.code {
		return 0, fmt.Errorf("%s: exit code %d, want %d (run it by hand to see why)", c.label, got, c.code)
	}
	return d, nil
}

// quantile returns the q-quantile of sorted durations, interpolating.
func quantile(s []time.Duration, q float64) time.Duration {
	pos := q * float64(len(s)-1)
	i := int(pos)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	frac := pos - float64(i)
	return s[i] + time.Duration(frac*float64(s[i+1]-s[i]))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
