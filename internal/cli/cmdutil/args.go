package cmdutil

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/strictyaml"
	"github.com/agentsctl/agents/internal/suggest"
)

// ExactArgs is cobra.ExactArgs with a usage error that names what is missing.
func ExactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == n {
			return nil
		}
		if len(args) < n {
			return errs.Usage("missing %s", what).
				WithHint("usage: %s", cmd.UseLine())
		}
		return TooManyArgs(cmd, what, len(args))
	}
}

// NamedArgs is ExactArgs for a command whose arguments each have a name
// ("a plan id", "a profile name"): a usage error names only the ones
// missing.
func NamedArgs(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < len(names):
			return errs.Usage("missing %s", strings.Join(names[len(args):], " and ")).
				WithHint("usage: %s", cmd.UseLine())
		case len(args) > len(names):
			return TooManyArgs(cmd, strings.Join(names, " and "), len(args))
		}
		return nil
	}
}

// NoArgs is cobra.NoArgs with the usage error of ExactArgs: a command that
// takes no arguments says so, where cobra's would call the first one an
// unknown command, as if the command had commands under it.
func NoArgs(cmd *cobra.Command, args []string) error {
	return ExactArgs(0, "no arguments")(cmd, args)
}

// MaximumArgs is cobra.MaximumNArgs with the usage error of ExactArgs.
func MaximumArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) <= n {
			return nil
		}
		return TooManyArgs(cmd, what, len(args))
	}
}

// TooManyArgs is the usage error of a command given n arguments, more
// than it takes; what says what it takes.
func TooManyArgs(cmd *cobra.Command, what string, n int) *errs.Error {
	return errs.Usage("too many arguments: expected %s, got %s", what, arguments(n)).
		WithHint("usage: %s", cmd.UseLine())
}

// arguments is "1 argument", "2 arguments".
func arguments(n int) string {
	if n == 1 {
		return "1 argument"
	}
	return fmt.Sprintf("%d arguments", n)
}

// MinimumArgs is cobra.MinimumNArgs with a usage error that names what is
// missing.
func MinimumArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) >= n {
			return nil
		}
		return errs.Usage("missing %s", what).WithHint("usage: %s", cmd.UseLine())
	}
}

// GroupRunE is the RunE of a command group: with no arguments it prints the
// group's help; an argument that names no verb is a usage error.
func GroupRunE(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return cmd.Help()
	}
	return UnknownCommand(cmd, args[0])
}

// UnknownCommand is the error for a word that names none of cmd's
// commands, suggesting the nearest.
func UnknownCommand(cmd *cobra.Command, word string) *errs.Error {
	e := errs.Usage("unknown command %q for %q", word, cmd.CommandPath())
	if s := NearestCommand(cmd, word); s != "" {
		return e.WithHint("did you mean %q?", s)
	}
	return e.WithHint("run '%s --help' to see its commands", cmd.CommandPath())
}

// NearestCommand is the command of cmd (by name or alias) nearest to
// word, or "".
func NearestCommand(cmd *cobra.Command, word string) string {
	if s := cmd.SuggestionsFor(word); len(s) > 0 {
		return s[0]
	}
	var names []string
	byName := map[string]string{}
	for _, c := range cmd.Commands() {
		if !c.IsAvailableCommand() {
			continue
		}
		for _, n := range append([]string{c.Name()}, c.Aliases...) {
			names = append(names, n)
			byName[n] = c.Name()
		}
	}
	return byName[suggest.Name(word, names)]
}

// RangeArgs is cobra.RangeArgs with a usage error that says what is
// expected.
func RangeArgs(lo, hi int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) >= lo && len(args) <= hi {
			return nil
		}
		if len(args) > hi {
			return TooManyArgs(cmd, what, len(args))
		}
		return errs.Usage("expected %s, got %s", what, arguments(len(args))).
			WithHint("usage: %s", cmd.UseLine())
	}
}

// RunE is a verb's RunE: parse (when not nil) turns the command line into
// opts, refusing what the run function cannot use; then runF runs, when a
// test gave one, or else run, gh's way. parse is given opts, so that it
// need not capture them: a function literal that captures nothing costs
// no allocation when the command tree is built.
func RunE[T any](opts *T, runF, run func(*T) error, parse func(opts *T, cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if parse != nil {
			if err := parse(opts, cmd, args); err != nil {
				return err
			}
		}
		return dispatch(opts, runF, run)
	}
}

// RunEArg is RunE for a verb whose one argument (a name, an id, a file) is
// all it parses: the argument, when there is one, goes into *arg. The
// verb's Args has already checked how many there are.
func RunEArg[T any](opts *T, runF, run func(*T) error, arg *string) func(*cobra.Command, []string) error {
	return func(_ *cobra.Command, args []string) error {
		if len(args) > 0 {
			*arg = args[0]
		}
		return dispatch(opts, runF, run)
	}
}

// RunEArgs is RunE for a verb whose arguments (files, names) are all it
// parses: they go into *args, in the order given.
func RunEArgs[T any](opts *T, runF, run func(*T) error, args *[]string) func(*cobra.Command, []string) error {
	return func(_ *cobra.Command, given []string) error {
		*args = given
		return dispatch(opts, runF, run)
	}
}

// RunEConfig is RunE for a verb that registers a document from the file
// --config names (see ConfigFlags), which it stores in *config: a command
// line without it is refused, with a hint to pass what's YAML file ("the
// action's") as example shows.
func RunEConfig[T any](opts *T, runF, run func(*T) error, config *string, what, example string) func(*cobra.Command, []string) error {
	return func(*cobra.Command, []string) error {
		if *config == "" {
			return errs.Usage("--config is required").WithHint("pass %s YAML file: %s", what, example)
		}
		return dispatch(opts, runF, run)
	}
}

// dispatch runs runF, when a test gave one, or else run.
func dispatch[T any](opts *T, runF, run func(*T) error) error {
	if runF != nil {
		return runF(opts)
	}
	return run(opts)
}

// Verb is one verb of a command group: its name, and how to build it.
type Verb struct {
	name  string
	build func() *cobra.Command
}

// V is the verb name of a group, built by newCmd when it is needed. The
// name must be the one newCmd's Use gives it (a test holds every group to
// that).
func V[T any](deps *Deps, name string, newCmd func(*Deps, func(*T) error) *cobra.Command) Verb {
	return Verb{name, func() *cobra.Command { return newCmd(deps, nil) }}
}

// NewVerb is the verb name of a group, built by build when it is needed,
// for a constructor V does not fit.
func NewVerb(name string, build func() *cobra.Command) Verb { return Verb{name, build} }

// Group returns cmd as the command group name of the verbs: its usage is
// "name <command>", as every group's is; with no arguments it prints the
// group's help; an argument that names no verb is a usage error. cmd
// carries the group's help text and aliases. When deps.Branch names one
// of the verbs, only that verb is built: a run needs no other, and
// building them all costs every run of any of them.
func Group(deps *Deps, name string, cmd *cobra.Command, verbs ...Verb) *cobra.Command {
	cmd.Use = name + " <command>"
	cmd.Args, cmd.RunE = cobra.ArbitraryArgs, GroupRunE
	only := ""
	if b := deps.Branch; len(b) > 1 && b[0] == name {
		for _, v := range verbs {
			if v.name == b[1] {
				only = v.name
			}
		}
	}
	for _, v := range verbs {
		if only == "" || v.name == only {
			cmd.AddCommand(v.build())
		}
	}
	return cmd
}

// ConfigFlags adds the flags of a command that registers a document from
// a file, --config/-c and --update, into opts' fields, with their help
// texts ("path to the action's YAML file, or - for standard input
// (required)"; "replace an action that is already registered"). Such a
// command takes no arguments: the file is given with --config.
func ConfigFlags(cmd *cobra.Command, config *string, update *bool, configHelp, updateHelp string) {
	cmd.Args = ExactArgs(0, "no arguments (the file is given with --config)")
	cmd.ValidArgsFunction = cobra.NoFileCompletions
	cmd.Flags().StringVarP(config, "config", "c", "", configHelp)
	cmd.Flags().BoolVar(update, "update", false, updateHelp)
	_ = cmd.MarkFlagFilename("config", "yaml", "yml")
}

// Registered prints what registering a document did: res is the
// registry's answer for the document of the kind noun ("action",
// "profile") stored as name, which it added, replaced, or found unchanged.
func Registered[T any](ui *UI, noun, name string, res store.PutResult[*T]) error {
	return ui.RenderChange(render.PutChange(noun, name, res.Stored, res.Unchanged, res.Replaced != nil))
}

// Once makes each flag named a flag that may be given once: a second
// occurrence is a usage error instead of replacing the first. A decision
// is asked about one call; two values for one of its facts (two tools,
// two confidences, --unsafe then --unsafe=false) leave which one it is
// about to the order a wrapper happened to append them in.
func Once(fs *pflag.FlagSet, names ...string) {
	for _, n := range names {
		if f := fs.Lookup(n); f != nil {
			f.Value = &onceValue{Value: f.Value}
		}
	}
}

// Decimal makes the named number flags of fs take plain decimal notation
// only: a whole number as digits without a leading zero, a figure as
// digits with an optional fraction and exponent. strconv would read 010
// as 8 and 0x10 as 16: a caller that pads its counts with zeros would
// state a smaller figure than it means, and the figure is what a limit is
// held to.
func Decimal(fs *pflag.FlagSet, names ...string) {
	for _, n := range names {
		if f := fs.Lookup(n); f != nil {
			f.Value = &decimalValue{Value: f.Value, whole: f.Value.Type() == "int"}
		}
	}
}

// decimalValue is a number flag value that refuses what is not plain
// decimal notation.
type decimalValue struct {
	pflag.Value
	whole bool
}

func (v *decimalValue) Set(s string) error {
	if why := notDecimal(s, v.whole); why != "" {
		return errors.New(why)
	}
	return v.Value.Set(s)
}

// The reasons a Decimal flag gives for a value it refuses, which the
// usage error's hint is chosen by.
const (
	NotWholeDecimal = "not a whole number written in decimal digits"
	LeadingZero     = "a whole number with a leading zero"
	NotDecimal      = "not a number written in decimal notation"
	NearZero        = "closer to 0 than a number is read at full precision"
)

// notDecimal says why s is not a number in plain decimal notation (a
// whole one, if whole), or "" when it is one. A leading minus sign, NaN
// and infinity pass, for the flag's own range check to refuse with its own
// words.
func notDecimal(s string, whole bool) string {
	digits := strings.TrimPrefix(s, "-")
	if whole {
		switch {
		case digits == "" || strings.Trim(digits, "0123456789") != "":
			return NotWholeDecimal
		case len(digits) > 1 && digits[0] == '0':
			return LeadingZero + ", which some programs read as octal: write it without one"
		}
		return ""
	}
	switch strings.ToLower(strings.TrimPrefix(digits, "+")) {
	case "nan", "inf", "infinity":
		return "" // not finite: the flag's range check refuses it by name
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(digits), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	exp = strings.TrimLeft(exp, "+-")
	if (intPart == "" && frac == "") || strings.Trim(intPart+frac, "0123456789") != "" ||
		(hasExp && (exp == "" || strings.Trim(exp, "0123456789") != "")) {
		return NotDecimal + " (such as 0.8, 12 or 1e-3)"
	}
	// As in a file: a figure that is not 0 must not read as 0, or lose
	// digits (1e-400 would read as 0, a confidence of nothing).
	if v, err := strconv.ParseFloat(digits, 64); err == nil && strictyaml.LosesPrecision(digits, v) {
		return fmt.Sprintf("%s (%g): it would read as %g, or lose digits", NearZero, strictyaml.MinNormal, v)
	}
	return ""
}

// onceValue is a flag value that takes one Set.
type onceValue struct {
	pflag.Value
	set bool
}

func (v *onceValue) Set(s string) error {
	if v.set {
		return fmt.Errorf("given more than once (first as %q)", v.Value.String())
	}
	v.set = true
	return v.Value.Set(s)
}
