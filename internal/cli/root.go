// Package cli builds the agents command tree, resolves configuration, and is
// the one place where errors become exit codes.
package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/cli/action"
	"github.com/agentsctl/agents/internal/cli/automationprofile"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/cli/plan"
	"github.com/agentsctl/agents/internal/cli/project"
	"github.com/agentsctl/agents/internal/cli/safetypack"
	"github.com/agentsctl/agents/internal/cli/safetyprofile"
	"github.com/agentsctl/agents/internal/cli/storecmd"
	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/hook"
	"github.com/agentsctl/agents/internal/interrupt"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/store/postgres/early"
	"github.com/agentsctl/agents/internal/storeurl"
	"github.com/agentsctl/agents/internal/strictyaml"
	"github.com/agentsctl/agents/internal/version"
	"github.com/agentsctl/agents/profiles"
)

// DefaultLockTimeout is how long a mutation waits for the store lock.
const DefaultLockTimeout = early.DefaultLockTimeout

// Main runs agents with the process's arguments and streams and returns the
// exit code.
//
// SIGINT, SIGTERM and SIGHUP are caught from as early as Go allows (see package
// interrupt): the process ends with 130 (2 for a hook), at once, or, when
// the command was waiting on its context, once the command has returned.
func Main() int {
	sig := interrupt.Process()
	deps := &cmdutil.Deps{
		IO:        iostreams.System(),
		Builtins:  profiles.Builtin,
		Now:       time.Now,
		Getenv:    os.Getenv,
		LookupEnv: os.LookupEnv,
		Context:   sig.Context(),
		OpenStore: openStore,
		Exits:     true,
	}
	// The registry every command runs its use case through: built once,
	// here, over the store, the built-ins, the home, the clock and what the
	// environment decides, each read when first needed.
	deps.Registry()
	args := os.Args[1:]
	agent, hooked := hookArg(args)
	if hooked && !slices.Contains(args, "--print-config") && outputDiscarded() {
		// The answer is stdout: written to nowhere, a deny would let the
		// call through on exit 0. Block.
		fmt.Fprintln(os.Stderr, "agents: error: the hook's answer would be lost: its standard output is "+os.DevNull+" (or was closed), so the tool call is blocked")
		return ExitUsage
	}
	if hooked {
		// An agent kills a hook that runs past its timeout and then lets
		// the call proceed: give up first, and block.
		t := time.AfterFunc(hook.Deadline*time.Second, func() {
			msg := fmt.Sprintf("the hook did not decide within %ds, so the tool call is blocked", hook.Deadline)
			fmt.Fprintf(os.Stderr, "agents: error: %s\n", msg)
			denyNow(agent, "agents: "+msg)
			os.Exit(ExitUsage)
		})
		defer t.Stop()
		// A hook stopped by a signal blocks too, whatever it was doing:
		// package interrupt ends it with 2 (see interrupt.ExitCode), and
		// the deny goes out first, as for every other failure.
		sig.SetExit(func(code int) {
			denyNow(agent, "agents: blocked: the hook was stopped before it decided")
			os.Exit(code)
		})
	} else {
		// An interrupted command says so on stderr, in its format, as
		// every other failure does; what it had written to stdout is cut
		// off where the signal came. The format is the one resolved, or
		// what the flags and the environment say: nothing that reads a
		// file, which could hang the exit.
		sig.SetExit(func(code int) {
			// A question or a counter may have left stderr's line
			// unfinished: the error starts a line of its own.
			deps.IO.EndLine()
			sayInterrupted(os.Stderr, interruptFormat(deps, args))
			os.Exit(code)
		})
	}
	code := Run(deps, args)
	if err := deps.IO.Flush(); err != nil {
		switch code {
		case ExitOK:
			printError(deps.IO.ErrOut, errorFormat(deps, args), deps.OutputLost(err))
			code = ExitFailure
			if hooked {
				code = ExitUsage
			}
		case ExitApproval, ExitBlocked:
			// The status already refuses the step; the answer that
			// says why was lost, and that is said, not left silent.
			printError(deps.IO.ErrOut, errorFormat(deps, args), errs.Wrap(errs.KindInternal, err, "writing the decision"))
		}
	}
	// A connection begun at start-up for a store the command did not read
	// after all (it failed first, say) is ended as a client ends one, so
	// the server logs nothing.
	early.Release()
	if sig.Caught() {
		return afterSignal(deps, args, hooked, code, sig.Code())
	}
	return code
}

// afterSignal ends a command a signal reached that went on to its end
// (the signal cancelled what waited on it): with the signal's code, and
// saying so on stderr.
func afterSignal(deps *cmdutil.Deps, args []string, hooked bool, code, sigCode int) int {
	if hooked {
		// A hook that went on to its answer still ends with 2, and says
		// why on stderr, without which Codex lets the call proceed on
		// exit 2 (its answer on stdout is not read then).
		fmt.Fprintln(deps.IO.ErrOut, "agents: error: the hook was stopped by a signal, so the tool call is blocked")
		_ = deps.IO.Flush()
		return sigCode
	}
	if code == ExitOK {
		// The command finished all the same (a change it had begun to
		// write is written whole): it has said nothing of the signal.
		interruptedOnce.Do(func() { printError(deps.IO.ErrOut, errorFormat(deps, args), interruptedDone) })
	}
	return sigCode
}

// interrupted is the error of a command a signal stopped.
var interrupted = errs.New(errs.KindInterrupted, "interrupted by a signal before the command finished")

// interruptedDone is the error of a command a signal came to too late to
// stop: what it printed is whole, and a change it made is made.
var interruptedDone = errs.New(errs.KindInterrupted, "interrupted by a signal, but the command had gone too far to stop and finished: what it printed is complete, and any change it made is made, with its history")

// sayInterrupted prints interrupted once, whichever of the signal's
// goroutine and the command's comes to it first.
func sayInterrupted(w io.Writer, format string) {
	interruptedOnce.Do(func() { printError(w, format, interrupted) })
}

var interruptedOnce sync.Once

// interruptFormat is the format an interrupted command's error is written
// in: the one resolved, else the one the flags or the environment name.
func interruptFormat(deps *cmdutil.Deps, args []string) string {
	if f := deps.Format(); f != "" {
		return f
	}
	if f, ok := argValue(args, "f", "format"); ok {
		return f
	}
	return deps.Getenv("AGENTS_FORMAT")
}

// Run executes one invocation with the given dependencies and arguments and
// returns the exit code. Tests call it with their own Deps.
//
// An invocation that answers an agent's hook (--hook) ends in exit 0 with
// its answer, or in exit 2 with the reason on stderr: every agent lets a
// tool call proceed on any other exit status, so whatever goes wrong in a
// hook (a bad flag, bad input, a broken configuration, a refused pack, an
// interrupt, a bug) must block the call.
func Run(deps *cmdutil.Deps, args []string) int { return run(deps, args, true) }

// run is Run, building only the branch of the command tree that args name
// when branch is set, and the whole tree otherwise.
func run(deps *cmdutil.Deps, args []string, branch bool) (code int) {
	agent, hooked := hookArg(args)
	if hooked {
		defer func() {
			if code != ExitOK {
				code = ExitUsage
			}
		}()
	}
	defer func() {
		if v := recover(); v != nil {
			_ = deps.IO.Flush()
			deps.UI().Flush()
			err := errs.New(errs.KindInternal, "internal error: %v", v)
			printError(deps.IO.ErrOut, errorFormat(deps, args), err)
			code = ExitFailure
			if hooked {
				writeHookDeny(deps, agent, args, err)
			}
		}
	}()
	if deps.Getenv == nil {
		deps.Getenv = func(string) string { return "" }
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	defer deps.CloseStore()
	deps.Args = args
	if branch {
		deps.Branch = commandWords(args)
	}
	root := NewRootCmd(deps)
	root.SetArgs(args)
	root.SetIn(deps.IO.In)
	root.SetOut(deps.IO.Out)
	root.SetErr(deps.IO.ErrOut)
	// cobra adds --help to a command only once it has found the command;
	// until then it reads "agents --help -f json" as --help taking -f for
	// its value, and json for a command. Added first, it is a switch.
	root.InitDefaultHelpFlag()
	cmd, err := root.ExecuteC()
	// --hook was looked for anywhere in args, before anything was parsed:
	// a "--" may be a flag's value. Once the command has run without an
	// error, its flags say for certain: "--hook" given as another flag's
	// value, or as an argument after a real "--", asked for no hook. Any
	// failure (one while parsing the flags above all, which may stop
	// before --hook) is still answered as a hook's.
	if hooked && err == nil && cmd != nil && cmd.Flags().Parsed() {
		if f := cmd.Flags().Lookup("hook"); f == nil || !f.Changed {
			hooked = false
		}
	}
	// The registry's warnings come before the error, as they arose.
	deps.UI().Flush()
	if err == nil && hooked && !deps.HookMode && !deps.HookPrinted && !completing(cmd) {
		// Exit 0 lets the call through: with --hook it must carry a
		// decision, and help text, or a command that takes no hook, is
		// none.
		err = errs.Usage("--hook was given, but %s gave no hook answer", cmd.CommandPath()).
			WithHint("a hook runs 'agents automation-profile check-guard [PROFILE] --hook <agent>' and nothing else; see --print-config")
	}
	if err == nil {
		return ExitOK
	}
	if deps.Context != nil && deps.Context.Err() != nil && !errs.Is(err, errs.KindInterrupted) {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			// The failure is the interruption itself, in Go's words.
			err = errs.Interrupted(err, "interrupted")
		} else {
			err = &errs.Error{Kind: errs.KindInterrupted, Msg: "interrupted", Err: err}
		}
	}
	// A decision that does not allow has printed its answer: its kind
	// sets the exit status, and nothing more is printed.
	var d *errs.Decision
	if errors.As(err, &d) && !hooked {
		return exitCode(err)
	}
	var e *errs.Error
	if !errors.As(err, &e) {
		// Errors that are not ours come from cobra's own argument and
		// command parsing: usage errors.
		if !ranVerb(cmd) {
			err = usageError(cmd, err)
		}
	}
	// Whatever the command wrote comes before the error, as it was written.
	_ = deps.IO.Flush()
	printError(deps.IO.ErrOut, errorFormat(deps, args), err)
	if hooked {
		writeHookDeny(deps, agent, args, err)
	}
	return exitCode(err)
}

// hookArg returns the value of --hook in args, and whether --hook is there
// at all, anywhere in args: a "--" may be a flag's value (--category --),
// and a hook taken for a plain command could end non-blocking. Given more
// than once, the last value that names an agent counts, as the last value
// does for the flag itself: an error's deny is then written in the
// protocol the answer would have used.
func hookArg(args []string) (agent string, hooked bool) {
	set := func(v string) {
		// A value that names no agent (a --hook at the end, or one after
		// "--") does not take the place of one that does: the deny is
		// still written in a protocol the agent reads.
		if agent == "" || slices.Contains(hook.Agents(), v) {
			agent = v
		}
	}
	for i, a := range args {
		switch {
		case a == "--hook":
			hooked = true
			if i+1 < len(args) {
				set(args[i+1])
			}
		case strings.HasPrefix(a, "--hook="):
			hooked = true
			set(strings.TrimPrefix(a, "--hook="))
		}
	}
	return agent, hooked
}

// outputDiscarded reports whether stdout is the null device: a hook's
// caller that closed it (which the Go runtime then opens on the null
// device) or sent it there reads no answer.
func outputDiscarded() bool {
	out, err := os.Stdout.Stat()
	if err != nil {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(out, null)
}

// denyNow writes a deny for agent straight to stdout, for a hook that is
// about to end without returning: the exit status blocks the call, and the
// answer says so to an agent that reads stdout regardless.
func denyNow(agent, reason string) {
	if b := hook.DenyAnswer(agent, reason); b != nil {
		_, _ = os.Stdout.Write(append(b, '\n'))
	}
}

// completing reports whether cmd is cobra's hidden completion command,
// which a shell runs with the words typed so far, --hook among them.
func completing(cmd *cobra.Command) bool {
	return cmd != nil && (cmd.Name() == cobra.ShellCompRequestCmd || cmd.Name() == cobra.ShellCompNoDescRequestCmd)
}

// writeHookDeny adds a deny to stdout, in the agent's protocol, for a hook
// that failed: the exit status and stderr already block the call, and
// the answer says the same to an agent that reads stdout regardless.
// Nothing is added when the agent is not known or the command was
// printing the hook's settings.
func writeHookDeny(deps *cmdutil.Deps, agent string, args []string, err error) {
	if !hook.IsAgent(agent) || slices.Contains(args, "--print-config") {
		return
	}
	reason := "agents: blocked, because the hook could not decide: " + err.Error()
	var e *errs.Error
	if errors.As(err, &e) && len(e.Problems) > 1 {
		for _, p := range e.Problems {
			reason += "; " + p.String()
		}
	}
	if b := hook.DenyAnswer(agent, storeurl.RedactText(reason)); b != nil {
		fmt.Fprintf(deps.IO.Out, "%s\n", b)
		_ = deps.IO.Flush()
	}
}

const ranAnnotation = "agents/ran"

func ranVerb(cmd *cobra.Command) bool {
	return cmd != nil && cmd.Annotations != nil && cmd.Annotations[ranAnnotation] == "1"
}

// markRan records that the command's own code ran, so errors it returns
// are not taken for cobra's parsing errors.
func markRan(cmd *cobra.Command) {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[ranAnnotation] = "1"
}

func usageHint(cmd *cobra.Command) string {
	if cmd == nil {
		return "run 'agents --help' for usage"
	}
	return fmt.Sprintf("run '%s --help' for usage", cmd.CommandPath())
}

// errorFormat is the format errors are printed in: the configured one when
// configuration was resolved, else what -f/--format the arguments name,
// AGENTS_FORMAT, or format: in the home's config.yaml, in that order (a
// usage error can come before configuration is resolved).
func errorFormat(deps *cmdutil.Deps, args []string) string {
	if deps.Config.Format != "" {
		return deps.Config.Format
	}
	if f, ok := argValue(args, "f", "format"); ok {
		return f
	}
	if f := deps.Getenv("AGENTS_FORMAT"); f != "" {
		return f
	}
	flag, _ := argValue(args, "", "home")
	if home, err := resolveHome(deps, flag); err == nil {
		if g, err := config.LoadGlobal(home); err == nil {
			return g.Format
		}
	}
	return ""
}

// argValue returns the value the arguments give a flag (by its short name,
// "" for none, or its long one), up to "--".
func argValue(args []string, short, long string) (string, bool) {
	for i, a := range args {
		switch {
		case a == "--":
			return "", false
		case (short != "" && a == "-"+short || a == "--"+long) && i+1 < len(args):
			return args[i+1], true
		case strings.HasPrefix(a, "--"+long+"="):
			return strings.TrimPrefix(a, "--"+long+"="), true
		case short != "" && strings.HasPrefix(a, "-"+short) && !strings.HasPrefix(a, "--") && len(a) > 2:
			return strings.TrimPrefix(a[2:], "="), true
		}
	}
	return "", false
}

type globalFlags struct {
	home        string
	store       string
	format      string
	lockTimeout time.Duration
	// lockTimeoutText is --lock-timeout as typed, which an error quotes.
	lockTimeoutText string
	quiet           bool
}

// typedDuration is a duration flag that keeps the text typed, so that an
// error about the value quotes it as written (25h, not 25h0m0s).
type typedDuration struct {
	d    *time.Duration
	text *string
}

func (t typedDuration) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*t.d, *t.text = d, s
	return nil
}

func (t typedDuration) Type() string { return "duration" }

func (t typedDuration) String() string {
	if t.d == nil {
		return ""
	}
	return t.d.String()
}

// rootCommands are the commands under the root: each name, and how to
// build it (help sorts them by name).
var rootCommands = []struct {
	name string
	new  func(deps *cmdutil.Deps) *cobra.Command
}{
	{"automation-profile", automationprofile.NewCmd},
	{"safety-pack", safetypack.NewCmd},
	{"safety-profile", safetyprofile.NewCmd},
	{"action", action.NewCmd},
	{"plan", plan.NewCmd},
	{"project", project.NewCmd},
	{"store", storecmd.NewCmd},
	{"version", func(deps *cmdutil.Deps) *cobra.Command { return newVersionCmd(deps, nil) }},
	{"environment", func(*cmdutil.Deps) *cobra.Command { return newEnvironmentCmd() }},
	{"completion", newCompletionCmd},
}

// treeFor names the one command under the root that args run, when their
// first word after the global flags names it (see commandWords): only that
// branch of the tree is then built. Anything else (help, completion's
// __complete, a word that is no command and needs the others for its
// suggestion, a flag that is not one of the global ones) builds the whole
// tree: "".
func treeFor(args []string) string {
	words := commandWords(args)
	if len(words) == 0 {
		return ""
	}
	for _, c := range rootCommands {
		if c.name == words[0] {
			return c.name
		}
	}
	return ""
}

// globalValueFlags are the root's persistent flags that take a value, as
// they may be written before the command: --home DIR, -f json.
var globalValueFlags = []string{"--home", "--store", "--format", "-f", "--lock-timeout"}

// commandWords returns args from the command's first word on, past the
// global flags written before it (the hook snippet's --home, say), so that
// 'agents --home DIR automation-profile check-guard …' builds one branch
// as 'agents automation-profile check-guard …' does. Any other flag first,
// a flag with its value missing, or "--" gives nil: the whole tree is
// built, and cobra says what is wrong.
func commandWords(args []string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !strings.HasPrefix(a, "-"):
			return args[i:]
		case slices.Contains(globalValueFlags, a):
			i++ // its value
		case a == "-q" || a == "--quiet" || strings.HasPrefix(a, "--quiet="):
		case strings.HasPrefix(a, "-f") && a != "-f" && !strings.HasPrefix(a, "--"):
			// -fjson
		case strings.Contains(a, "=") && slices.Contains(globalValueFlags, a[:strings.Index(a, "=")]):
		default:
			return nil
		}
	}
	return nil
}

// NewRootCmd builds the command tree: the whole tree, or, when deps.Branch
// names a command under the root (see treeFor), only that branch. Building
// the whole tree touches the code of every command, a cost each run would
// otherwise pay for the one command it runs.
func NewRootCmd(deps *cmdutil.Deps) *cobra.Command {
	only := treeFor(deps.Branch)
	g := &globalFlags{}
	var showVersion bool
	root := &cobra.Command{
		Use:   "agents <command>",
		Short: "Decide how much autonomy an AI agent system gets",
		Long: `agents manages automation profiles: eleven confidence thresholds that gate
each phase of a plan, a composed safety profile of hard constraints, and
guards on tool calls. Eight built-in profiles ship inside the binary; custom
profiles are namespace/name YAML files in the store.

Every command prints in the format -f names: rich (the default), table,
plain, json or yaml. A change prints one line saying what it did (nothing
with -q); -f json and -f yaml print the document instead. Errors go to
stderr, as one JSON line or one YAML document with -f json or -f yaml.

` + ExitStatusHelp + `

` + EnvironmentHelp,
		Example: `  # List the built-in and custom profiles
  $ agents automation-profile list

  # Register a custom profile, then show it as YAML
  $ agents automation-profile add -c examples/profiles/acme-strict.yaml
  $ agents automation-profile show acme/strict -f yaml`,
		SilenceErrors: true,
		SilenceUsage:  true,
		// Alone, agents prints its help; --version is 'agents version'.
		// Args is left unset: cobra then names a word that is no command
		// as an unknown command before it parses any flag.
		RunE: func(cmd *cobra.Command, args []string) error {
			if showVersion {
				return versionRun(&versionOptions{Run: deps.Run(), info: version.Get})
			}
			return cmd.Help()
		},
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if skipsConfig(cmd) {
				// It reads no configuration, but a format given it that
				// no command knows is still a mistake to say so.
				if cmd.Flags().Changed("format") {
					if _, err := render.Lookup(g.format, render.Options{}); err != nil {
						return err
					}
				}
				markRan(cmd)
				return nil
			}
			cfg, err := resolveConfig(deps, cmd.Flags(), g)
			if err != nil {
				return err
			}
			deps.SetConfig(cfg)
			markRan(cmd)
			return nil
		},
	}
	// Shell completion runs without the pre-run hook above; the global
	// flags it parsed are the same pflag values, so resolving from the
	// root's persistent flags gives the same answer.
	deps.ResolveConfig = func() (cmdutil.Config, error) {
		return resolveConfig(deps, root.PersistentFlags(), g)
	}
	root.SetFlagErrorFunc(flagError)
	// Suggestions are made as hints (see usageError); cobra's own would add
	// lines to the message.
	root.DisableSuggestions = true
	pf := root.PersistentFlags()
	pf.StringVar(&g.home, "home", "", "agents home directory (default $AGENTS_HOME or $XDG_CONFIG_HOME/agents)")
	pf.StringVar(&g.store, "store", "", "store URL: postgres://… for a shared PostgreSQL registry (default $AGENTS_STORE, else store: in config.yaml, else the file store in the home)")
	pf.StringVarP(&g.format, "format", "f", "", "output format: "+strings.Join(render.Names(), ", ")+" (default rich)")
	g.lockTimeout = DefaultLockTimeout
	pf.Var(typedDuration{&g.lockTimeout, &g.lockTimeoutText}, "lock-timeout", "how long a change waits for the store lock")
	pf.BoolVarP(&g.quiet, "quiet", "q", false, "print no progress, no informational messages and no line for a change (a document asked for with -f json or yaml is still printed)")
	_ = root.RegisterFlagCompletionFunc("format", cmdutil.CompleteFlag(deps, cmdutil.FormatNames))

	root.CompletionOptions.DisableDefaultCmd = true
	root.SetHelpCommand(newHelpCmd())
	for _, c := range rootCommands {
		if only == "" || c.name == only {
			root.AddCommand(c.new(deps))
		}
	}
	root.Flags().BoolVar(&showVersion, "version", false, "print the version, as 'agents version' does")
	wrapFlagUsages(root, deps.IO.TerminalWidth)
	return root
}

// resolveConfig works out home, format and lock timeout: flag, then
// environment, then $AGENTS_HOME/config.yaml, then the default. On an error
// after the home is known, the configuration returned still names the home.
//
// config.yaml is decoded strictly here, for every command: a misspelt key
// is an error wherever it would otherwise be ignored. A bad value says
// where it came from, and is usage (2) from a flag or the environment,
// invalid input (3) from the file.
func resolveConfig(deps *cmdutil.Deps, flags *pflag.FlagSet, g *globalFlags) (cmdutil.Config, error) {
	if flags.Changed("home") && g.home == "" {
		// An empty --home (a variable that was never set, say) is a
		// mistake, as an empty -f or --lock-timeout is: falling back to
		// AGENTS_HOME or the default would work on another home than the
		// one meant. (An empty --store has a meaning: the file store.)
		return cmdutil.Config{}, errs.Usage("--home is empty").
			WithHint("give the agents home folder (--home DIR), or leave --home out to use AGENTS_HOME or the default")
	}
	if !flags.Changed("home") && deps.SetButEmpty("AGENTS_HOME") {
		// The same mistake in the environment (AGENTS_HOME=$UNSET in a
		// CI job): the default home may hold another configuration, and
		// another pack, than the one meant.
		return cmdutil.Config{}, errs.Usage("AGENTS_HOME is set but empty").
			WithHint("set it to the agents home folder, or unset it (unset AGENTS_HOME) to use the default")
	}
	home, err := resolveHome(deps, g.home)
	if err != nil {
		return cmdutil.Config{}, err
	}
	v := viper.New()
	v.SetDefault("format", render.Default)
	v.SetDefault("lock_timeout", DefaultLockTimeout)
	from := map[string]string{"format": "", "lock_timeout": ""}
	storeURL, storeFromFile, fileStore := deps.Getenv(cmdutil.EnvStore), false, ""
	cfgFile := config.GlobalPath(home)
	// config.yaml is read here, once: at most 1 MiB and a byte (a huge
	// file is refused unread), and only from a file the user owns and no
	// one else can write. What is read feeds viper (the presentation
	// settings) and the strict decoder (the policy settings); every later
	// use decodes these bytes, or the error, again.
	cfg := cmdutil.Config{Home: home, GlobalRead: true}
	cfg.GlobalData, cfg.GlobalErr = config.ReadGlobal(home)
	if cfg.GlobalErr != nil {
		return cfg, cfg.GlobalErr
	}
	if data := cfg.GlobalData; data != nil {
		// A bad safety_pack is left to the commands that load the pack in
		// force, which refuse it as a safety pack error (exit 6); any
		// other problem, a misspelt key or broken YAML first of all, stops
		// every command, reported by the strict decoder with its line.
		global, err := config.DecodeGlobal(data, cfgFile)
		switch {
		case err == nil:
			cfg.Global = global
		case !onlyAt(err, config.KeySafetyPack):
			var e *errs.Error
			if errors.As(err, &e) && e.Hint == "" {
				e.WithHint("fix %s, or move it aside to use no configuration", cfgFile)
			}
			return cfg, err
		}
		fv, err := configValues(data, cfgFile)
		if err != nil {
			return cfg, err
		}
		for _, key := range []string{"format", "lock_timeout"} {
			if fv.IsSet(key) && fv.Get(key) != nil {
				v.Set(key, fv.Get(key))
				from[key] = key + " in " + cfgFile
			}
		}
		// A format the file names is checked even where a flag or the
		// environment overrides it, as its lock_timeout is: a broken
		// setting is found where it is written, not on the day nothing
		// overrides it.
		if from["format"] != "" {
			name := v.GetString("format")
			if _, err := render.Lookup(name, render.Options{}); err != nil {
				return cfg, badSetting(err, from["format"], "unknown format %q", name)
			}
		}
		if fv.IsSet(config.KeyStore) {
			u, err := fileStoreURL(fv.Get(config.KeyStore), cfgFile)
			if err != nil {
				return cfg, err
			}
			fileStore = u
			if storeURL == "" {
				storeURL, storeFromFile = u, true
				warnReadablePassword(deps, cfgFile, u)
			}
		}
	}
	// A hook reads no store from the environment, which the agent running
	// it sets: only --store (the snippet's) or the home's store: counts.
	cfg.HookStore = fileStore
	if flags.Changed("store") {
		storeURL, storeFromFile = g.store, false
		cfg.HookStore = g.store
	}
	// A hook ignores AGENTS_STORE, so a value there that names no store
	// does not stop one: what the environment of the agent running it
	// says is not its concern. (Should --hook turn out to be another
	// flag's value, the store is checked when it is opened.)
	fromEnv := storeURL != "" && !storeFromFile && !flags.Changed("store")
	if _, hooked := hookArg(deps.Args); storeURL != "" && !storeurl.IsPostgres(storeURL) && !(fromEnv && hooked) {
		return cfg, cmdutil.UnsupportedStore(storeURL)
	}
	if s := deps.Getenv("AGENTS_FORMAT"); s != "" {
		v.Set("format", s)
		from["format"] = "AGENTS_FORMAT"
	}
	if s := deps.Getenv("AGENTS_LOCK_TIMEOUT"); s != "" {
		v.Set("lock_timeout", s)
		from["lock_timeout"] = "AGENTS_LOCK_TIMEOUT"
	}
	if flags.Changed("format") {
		v.Set("format", g.format)
		from["format"] = "--format"
	}
	if flags.Changed("lock-timeout") {
		v.Set("lock_timeout", g.lockTimeoutText)
		from["lock_timeout"] = "--lock-timeout"
	}
	cfg.Store, cfg.Format, cfg.Quiet = storeURL, v.GetString("format"), g.quiet
	cfg.StoreFromFile = storeFromFile && storeURL != ""
	if _, err := render.Lookup(cfg.Format, render.Options{}); err != nil {
		cfg.Format = ""
		return cfg, badSetting(err, from["format"], "unknown format %q", v.GetString("format"))
	}
	lt, why := durationOf(v.Get("lock_timeout"))
	if why != "" {
		// A value that is not a duration says just that; a negative one,
		// or one past the maximum, says why it cannot be used. The flag's
		// value is quoted as typed, in the words of every bad flag value.
		value := fmt.Sprint(v.Get("lock_timeout"))
		hint := "give a duration such as 10s or 2m"
		if lt > config.MaxLockTimeout {
			hint += ", at most " + config.FormatDuration(config.MaxLockTimeout)
		}
		if from["lock_timeout"] == "--lock-timeout" {
			return cfg, errs.Usage("invalid value %q for --lock-timeout: %s", value, strings.TrimPrefix(why, "is ")).
				WithHint("%s: --lock-timeout 10s", hint)
		}
		msg, args := "invalid lock timeout %q", []any{value}
		if why != "is not a duration" {
			msg, args = msg+": %s", append(args, why)
		}
		e := errs.Usage(msg, args...).WithHint("%s", hint)
		return cfg, badSetting(e, from["lock_timeout"], msg, args...)
	}
	cfg.LockTimeout = lt
	return cfg, nil
}

// onlyAt reports whether every problem of err is at the key.
func onlyAt(err error, key string) bool {
	var e *errs.Error
	if !errors.As(err, &e) || len(e.Problems) == 0 {
		return false
	}
	return len(config.ProblemsAt(err, key)) == len(e.Problems)
}

// badSetting is err, a usage error about a presentation setting, with its
// message saying where the value came from (msg, with a, is the message
// without that) and, for a value from config.yaml, of kind invalid.
func badSetting(err error, from, msg string, a ...any) error {
	var e *errs.Error
	if from == "" || !errors.As(err, &e) {
		return err
	}
	c := *e
	c.Msg = fmt.Sprintf(msg, a...) + " (from " + from + ")"
	if strings.HasPrefix(from, "--") {
		return &c // a flag: the hint stands as it is
	}
	if _, file, ok := strings.Cut(from, " in "); ok {
		c.Kind = errs.KindInvalid
		c.Hint = "fix it in " + file + ": " + c.Hint
	} else {
		c.Hint += "; or unset " + from
	}
	return &c
}

// settings are the keys of config.yaml that viper reads.
type settings interface {
	IsSet(key string) bool
	Get(key string) any
}

// writtenSettings are the top-level scalars of a config.yaml in the form
// agents writes, as viper's YAML codec gives them.
type writtenSettings map[string]any

func (w writtenSettings) IsSet(key string) bool { _, ok := w[key]; return ok }
func (w writtenSettings) Get(key string) any    { return w[key] }

// configValues reads the settings viper takes from config.yaml. A file
// in the form agents writes (strictyaml.ParseWritten) whose values are all
// scalars under lower-case keys is read from that tree, which the strict
// decoder reads too, so that yaml.v3 does not parse the file a second
// time on every command; every other file goes to viper, whose error, on
// one line, is the one reported. TestConfigValuesMatchViper holds the
// two ways to the same answers.
func configValues(data []byte, file string) (settings, error) {
	if root, ok := strictyaml.ParseWritten(data); ok {
		if w, ok := scalarSettings(root); ok {
			return w, nil
		}
	}
	fv := viper.New()
	fv.SetConfigType("yaml")
	if err := fv.ReadConfig(bytes.NewReader(data)); err != nil {
		// The parser's message spans lines ("yaml: unmarshal errors:"
		// then one indented line each): one line, as every error is.
		msg := strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
		msg = strings.ReplaceAll(msg, ":;", ":")
		return nil, errs.New(errs.KindInvalid, "%s: cannot read configuration: %s", file, msg).
			WithHint("fix the YAML in %s", file)
	}
	return fv, nil
}

// scalarSettings returns a mapping's scalar values as Go values, and false
// when a value is not a scalar or a key comes twice (viper's codec then
// decides).
func scalarSettings(root *yaml.Node) (writtenSettings, bool) {
	w, seen := writtenSettings{}, map[string]bool{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i].Value, root.Content[i+1]
		if seen[k] || v.Kind != yaml.ScalarNode {
			return nil, false
		}
		seen[k] = true
		var err error
		switch v.Tag {
		case "!!str":
			w[k] = v.Value
		case "!!null":
			// viper counts a key whose value is null as not set.
		case "!!bool":
			w[k] = v.Value == "true"
		case "!!int":
			w[k], err = strconv.Atoi(v.Value)
		case "!!float":
			w[k], err = strconv.ParseFloat(v.Value, 64)
		default:
			return nil, false
		}
		if err != nil {
			return nil, false
		}
	}
	return w, true
}

// durationOf reads a lock timeout as a flag, the environment or
// config.yaml gives it, and returns why it cannot be used, or "". A bare
// number counts seconds. Nothing is converted that could wrap: a number of
// seconds past the maximum is refused before it becomes a duration.
func durationOf(v any) (time.Duration, string) {
	var d time.Duration
	switch t := v.(type) {
	case time.Duration:
		d = t
	case string:
		var err error
		if d, err = time.ParseDuration(t); err != nil {
			return 0, "is not a duration"
		}
	case int:
		return secondsOf(float64(t))
	case int64:
		return secondsOf(float64(t))
	case uint64:
		return secondsOf(float64(t))
	case float64:
		return secondsOf(t)
	default:
		return 0, "is not a duration"
	}
	return d, config.CheckLockTimeout(d)
}

// secondsOf is config.SecondsDuration, returning past the maximum a
// duration past it too (never the wrapped conversion) so that the caller
// can tell why.
func secondsOf(secs float64) (time.Duration, string) {
	d, why := config.SecondsDuration(secs)
	if why != "" && secs > config.MaxLockTimeout.Seconds() {
		d = config.MaxLockTimeout + 1
	}
	return d, why
}

// resolveHome returns the home directory from --home, AGENTS_HOME, or
// $XDG_CONFIG_HOME/agents (~/.config/agents).
func resolveHome(deps *cmdutil.Deps, flag string) (string, error) {
	home := flag
	if home == "" {
		home = deps.Getenv("AGENTS_HOME")
	}
	if home == "" {
		if x := deps.Getenv("XDG_CONFIG_HOME"); x != "" {
			home = filepath.Join(x, "agents")
		}
	}
	if home == "" {
		h := deps.Getenv("HOME")
		if h == "" {
			// A minimal container or a service may run with no HOME:
			// the account's home from the user database is the same
			// folder a login would have given.
			if u, err := user.Current(); err == nil && u.HomeDir != "" {
				h = u.HomeDir
			}
		}
		if h == "" {
			return "", errs.Usage("cannot find the agents home directory: HOME is not set and the account has no home folder").
				WithHint("set AGENTS_HOME or pass --home")
		}
		home = filepath.Join(h, ".config", "agents")
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return "", errs.Wrap(errs.KindUsage, err, "bad home directory %q", home)
	}
	return abs, nil
}

func openStore(cfg cmdutil.Config) (store.Store, error) {
	if cfg.ForHook {
		return cmdutil.OpenHookStore(cfg.Store, cfg.Home, cfg.LockTimeout)
	}
	return cmdutil.OpenStore(cfg.Store, cfg.Home, cfg.LockTimeout)
}

// fileStoreURL checks the store: key of config.yaml as the root command
// reads it: a string naming a supported store. The value is never quoted
// whole: it may hold a password.
func fileStoreURL(v any, file string) (string, error) {
	s, ok := v.(string)
	if !ok && v != nil {
		return "", errs.Invalid("%s: store must be a string holding a store URL", file).
			WithHint("write store: postgres://user@host/dbname, or remove the key for the file store in the home")
	}
	if s != "" && !storeurl.IsPostgres(s) {
		return "", errs.Invalid("%s: store %q is not a store URL", file, storeurl.Redact(s)).
			WithHint("give a postgres:// or postgresql:// URL, or remove the key for the file store in the home")
	}
	return s, nil
}

// warnReadablePassword warns when config.yaml holds the store's password
// and others may read the file.
func warnReadablePassword(deps *cmdutil.Deps, file, url string) {
	if storeurl.Password(url) == "" {
		return
	}
	if fi, err := os.Stat(file); err == nil && fi.Mode().Perm()&0o044 != 0 {
		deps.UI().Warn("%s holds the store's password and others can read it: chmod go-r %s, or keep the password in PGPASSWORD or ~/.pgpass", file, file)
	}
}
