package cli

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/strictyaml"
	"github.com/agentsctl/agents/internal/suggest"
)

// unknownCommand matches cobra's error for a word that names no command.
// It is compiled when first needed, as invalidArgument is: compiled at
// start-up, the two cost every run of agents, most of which parse fine.
var unknownCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^unknown command "(.*)" for "(.*)"`)
})

// usageError turns an error from cobra's own parsing of cmd's arguments
// into a usage error of one line with a hint: cobra's messages may carry
// several lines ("Did you mean this?" and the candidates below it), which
// an error line and a JSON message must not.
func usageError(cmd *cobra.Command, err error) *errs.Error {
	msg := err.Error()
	if m := unknownCommand().FindStringSubmatch(msg); m != nil {
		// A command with no commands under it was given a word it does
		// not take: an argument too many, not an unknown command.
		if !cmd.HasSubCommands() {
			return cmdutil.TooManyArgs(cmd, "no arguments", len(cmd.Flags().Args()))
		}
		// cobra quotes the word with %q; UnknownCommand quotes it again,
		// so it takes the word as typed, not its quoted form ("a\\b").
		word, uerr := strconv.Unquote(`"` + m[1] + `"`)
		if uerr != nil {
			word = m[1]
		}
		return cmdutil.UnknownCommand(cmd, word)
	}
	first, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	return &errs.Error{Kind: errs.KindUsage, Msg: first, Hint: usageHint(cmd)}
}

// outputFlags are flags other tools use to choose an output format; here
// -f (--format) does.
var outputFlags = map[string]string{"o": "", "output": "", "json": "json", "yaml": "yaml", "yml": "yaml", "out": ""}

// flagError is the error for a flag cmd cannot parse: the flag named the
// way it is typed, what is wrong with its value in words rather than
// strconv's, and a hint: -f for the output flags of other tools, the
// nearest flag for a misspelt one.
func flagError(cmd *cobra.Command, err error) error {
	// A group parses flags only when its first word named none of its
	// verbs: that word, not the flag meant for the verb, is the mistake.
	if cmd.HasAvailableSubCommands() {
		if args := cmd.Flags().Args(); len(args) > 0 {
			return cmdutil.UnknownCommand(cmd, args[0])
		}
	}
	msg := err.Error()
	e := &errs.Error{Kind: errs.KindUsage, Msg: msg, Hint: usageHint(cmd)}
	var name string
	switch {
	case strings.HasPrefix(msg, "unknown flag: --"):
		name = strings.TrimPrefix(msg, "unknown flag: --")
		name, _, _ = strings.Cut(name, "=")
	case strings.HasPrefix(msg, "unknown shorthand flag: '"):
		name = strings.TrimPrefix(msg, "unknown shorthand flag: '")
		name, _, _ = strings.Cut(name, "'")
	default:
		return valueError(cmd, err, e)
	}
	if format, ok := outputFlags[name]; ok {
		if format == "" {
			format = "json"
		}
		return e.WithHint("the output format is chosen with -f (--format): -f %s; the formats are %s",
			format, strings.Join(render.Names(), ", "))
	}
	var flags []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			flags = append(flags, f.Name)
		}
	})
	if len(name) > 1 {
		if s := suggest.Name(name, flags); s != "" {
			return e.WithHint("did you mean --%s?", s)
		}
	}
	return e.WithHint("run '%s --help' for its flags", cmd.CommandPath())
}

// invalidArgument matches pflag's error for a value that does not parse.
var invalidArgument = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid argument "(.*)" for "(.*)" flag: (.*)$`)
})

// valueError rewrites pflag's error for a value that does not parse, whose
// reason comes from strconv or time, in words.
func valueError(cmd *cobra.Command, err error, e *errs.Error) error {
	m := invalidArgument().FindStringSubmatch(err.Error())
	if m == nil {
		first, _, _ := strings.Cut(e.Msg, "\n")
		e.Msg = first
		return e
	}
	value, flag, why := m[1], m[2], m[3]
	// pflag quotes the value (%q): it is quoted again below, as typed.
	if v, err := strconv.Unquote(`"` + value + `"`); err == nil {
		value = v
	}
	if i := strings.LastIndex(flag, ", "); i >= 0 {
		flag = flag[i+2:]
	}
	var reason, hint string
	switch {
	case strings.Contains(why, "ParseFloat") && strings.Contains(why, "out of range"):
		reason = "a number beyond the range that can be read"
		hint = fmt.Sprintf("give a number such as 0.8: %s 0.8", flag)
	case (strings.Contains(why, "ParseInt") || strings.Contains(why, "ParseUint")) && strings.Contains(why, "out of range"):
		reason = "a whole number beyond the range that can be read"
		hint = fmt.Sprintf("give a whole number such as 3: %s 3", flag)
	case strings.Contains(why, "ParseFloat"), strings.HasPrefix(why, cmdutil.NotDecimal):
		reason = "not a number"
		if strings.Contains(value, ",") && !strings.Contains(value, ".") {
			hint = fmt.Sprintf("write the number with a decimal point: %s %s", flag, strings.ReplaceAll(value, ",", "."))
		} else {
			hint = fmt.Sprintf("give a number such as 0.8: %s 0.8", flag)
		}
	case strings.Contains(why, "ParseInt"), strings.Contains(why, "ParseUint"), strings.HasPrefix(why, cmdutil.NotWholeDecimal):
		reason = "not a whole number"
		hint = fmt.Sprintf("give a whole number such as 3: %s 3", flag)
	case strings.HasPrefix(why, cmdutil.NearZero):
		reason = why
		hint = fmt.Sprintf("write 0, or a number of at least %g: %s 0", strictyaml.MinNormal, flag)
	case strings.HasPrefix(why, cmdutil.LeadingZero):
		reason = why
		hint = fmt.Sprintf("give a whole number such as 3: %s 3", flag)
	case strings.Contains(why, "ParseBool"):
		reason = "not true or false"
		hint = fmt.Sprintf("write %s=true or %s=false, or %s alone for true", flag, flag, flag)
	case strings.Contains(why, "duration"):
		reason = "not a duration"
		hint = fmt.Sprintf("give a duration such as 10s or 2m: %s 10s", flag)
	default:
		reason = why
	}
	e.Msg = fmt.Sprintf("invalid value %q for %s: %s", value, flag, reason)
	if hint != "" {
		e.Hint = hint
	}
	return e
}
