package automationprofile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/hook"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/registry"
	"github.com/agentsctl/agents/internal/storeurl"
)

// hookOptions are the flags of check-guard's hook mode.
type hookOptions struct {
	// on is set when --hook was given, whatever its value: an empty or
	// unknown agent is then refused as a hook's error, never taken for a
	// plain check-guard.
	on           bool
	agent        string
	sandboxed    bool
	checkpointed bool
	abstain      bool
	printConfig  bool
}

// hookRun answers one call of an agent's pre-tool hook. Everything that
// is not a decision is returned as an error, which the root command turns
// into exit 2 with the reason on stderr: the one exit status every agent
// treats as "block the call".
func hookRun(opts *checkGuardOptions) error {
	h := opts.hookOpts
	if h.printConfig {
		return printHookConfig(opts)
	}
	profileLess := opts.profile == "" && opts.plan == ""
	call, err := hook.ReadInput(h.agent, opts.UI.IO().In, profileLess)
	if err != nil {
		return err
	}
	d, err := opts.Reg.DecideHook(registry.HookCall{
		Agent: h.agent, Call: call,
		Under:     registry.Under{Profile: opts.profile, Plan: opts.plan, Cwd: call.Cwd},
		Session:   opts.input, // the session's category
		Sandboxed: h.sandboxed, Checkpointed: h.checkpointed, Abstain: h.abstain,
		Settings: hook.SettingsFiles(opts.UI.Getenv),
		Claude: registry.ClaudeSession{
			ConfigDir:  opts.UI.Getenv("CLAUDE_CONFIG_DIR"),
			ProjectDir: opts.UI.Getenv("CLAUDE_PROJECT_DIR"),
			IsSelf:     isSelf(opts),
		},
	})
	if err != nil {
		return err
	}
	out, err := hook.Encode(h.agent, call.Mode, d.Answer, hookReason(h.agent, call.Mode, d))
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "cannot encode the hook answer")
	}
	if out == nil {
		return nil
	}
	opts.UI.Flush()
	_, err = fmt.Fprintf(opts.UI.IO().Out, "%s\n", out)
	return err
}

// hookReason is the answer's reason: what decided, in words, then the
// rule, what it was decided under, how the tool was classed and which
// conditions were declared.
func hookReason(agent, mode string, d registry.HookDecision) string {
	a := d.Answer
	var b strings.Builder
	b.WriteString("agents: ")
	switch hook.Effective(agent, mode, a.Kind) {
	case hook.Deny:
		if a.Kind == hook.Ask {
			b.WriteString(askDenied(agent, mode))
		} else {
			b.WriteString("blocked: ")
		}
	case hook.Ask:
		b.WriteString("needs a person's approval: ")
	default:
		b.WriteString("allowed: ")
	}
	b.WriteString(a.Why)
	fmt.Fprintf(&b, " (rule %s; %s; tool %q is %s; %s)", a.Rule, subjectPhrase(d.Subject), d.Tool, d.Class.Describe(agent), declaredPhrase(d))
	return b.String()
}

// askDenied starts the reason of an ask sent as a deny: why no person
// could be asked.
func askDenied(agent, mode string) string {
	if !hook.AskReaches(agent, "default") {
		return "blocked until a person approves it, which this agent's hook cannot ask for: "
	}
	if mode == "" {
		return "blocked until a person approves it, and the call does not say which permission mode would put the question to one: "
	}
	if !hook.KnownMode(agent, mode) {
		return "blocked until a person approves it, and the call's permission mode is not one known to put the question to one: "
	}
	return "blocked until a person approves it, and in permission mode " + mode + " nobody is asked: "
}

// declaredPhrase says where the conditions of the call were declared met.
func declaredPhrase(d registry.HookDecision) string {
	part := func(what, how string) string {
		switch how {
		case registry.DeclaredByFlag:
			return what + " declared by --" + map[string]string{"sandbox": "sandboxed", "checkpoint": "checkpointed"}[what]
		case "":
			return "no " + what + " declared"
		}
		return what + " declared in " + how
	}
	return part("sandbox", d.Sandbox) + ", " + part("checkpoint", d.Checkpoint)
}

// subjectPhrase says what a decision was taken under: the profile and the
// level it came from, the safety profile and its level, and the plan.
func subjectPhrase(s registry.Subject) string {
	var b strings.Builder
	if s.Plan != "" {
		b.WriteString("plan " + s.Plan + ", ")
	}
	b.WriteString("profile " + s.Profile.Name)
	switch {
	case s.Level == "":
		b.WriteString(" named in the hook command")
	case s.LevelSource != "":
		b.WriteString(" from the " + s.Level + " level (" + s.LevelSource + ")")
	default:
		b.WriteString(" from the " + s.Level + " level")
	}
	if s.SafetyLevel != "" {
		src := s.SafetySource
		if src == "" {
			src = plan.SourceComposed
		}
		b.WriteString(", " + src + " safety profile from the " + s.SafetyLevel + " level")
	}
	return b.String()
}

// printHookConfig prints the settings snippet that installs the hook.
func printHookConfig(opts *checkGuardOptions) error {
	h := opts.hookOpts
	o, _, err := snippetOptions(opts)
	if err != nil {
		return err
	}
	// The command names the store, unless a password would then sit in
	// the agent's settings.
	if storeurl.Password(o.Store) != "" {
		return errs.Usage("the store URL holds a password, which the agent's settings would keep in the clear").
			WithHint("keep the password in ~/.pgpass or PGPASSWORD, or name the store in the home's config.yaml (store:), then print the settings again")
	}
	if opts.profile != "" {
		// A hook that names a profile that does not exist blocks every
		// call: say so now rather than at the agent's first tool call.
		if _, err := opts.Reg.Profile(opts.profile); err != nil {
			return err
		}
	}
	snippet, err := hook.Snippet(h.agent, o)
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "cannot encode the settings")
	}
	opts.UI.Info("merge this into %s", hook.SettingsFile(h.agent))
	_, err = opts.UI.IO().Out.Write(snippet)
	return err
}

// snippetOptions are the options of the snippet that installs this hook:
// this binary, where its links lead, the home, and the store when one is
// named by --store or AGENTS_STORE, which would not be the hook's (the
// agent runs it with its own environment, and only the home is pinned).
// self is the binary as this process was started.
func snippetOptions(opts *checkGuardOptions) (o hook.SnippetOptions, self string, err error) {
	self, err = os.Executable()
	if err != nil {
		return o, "", errs.Wrap(errs.KindInternal, err, "cannot tell where the agents binary is")
	}
	o.Binary = self
	if real, err := filepath.EvalSymlinks(self); err == nil {
		o.Binary = real
	}
	if url, fromFile := opts.storeIn(); url != "" && !fromFile {
		o.Store = url
	}
	o.Home, o.Args = opts.Reg.Home(), hookArgs(opts, o.Store != "")
	return o, self, nil
}

// isSelf tells whether a hook command in the agent's settings runs this
// very hook: the command --print-config writes for it, or this binary
// (by path, or found on PATH) with exactly this invocation's arguments.
// Any other, a look-alike script included, may answer for the person.
// What it compares with is worked out once, when first asked.
func isSelf(opts *checkGuardOptions) func(string) bool {
	mine := sync.OnceValues(func() (commands []string, real string) {
		o, self, err := snippetOptions(opts)
		if err != nil {
			return nil, ""
		}
		commands = []string{hook.Command(o)}
		if real = o.Binary; self != real {
			o.Binary = self
			commands = append(commands, hook.Command(o))
		}
		return commands, real
	})
	return func(command string) bool {
		commands, real := mine()
		if real == "" {
			return false
		}
		if slices.Contains(commands, command) {
			return true
		}
		words := strings.Fields(command)
		if len(words) == 0 || !slices.Equal(words[1:], opts.UI.Args()) {
			return false
		}
		prog, err := exec.LookPath(words[0])
		if err != nil {
			return false
		}
		a, errA := os.Stat(prog)
		b, errB := os.Stat(real)
		return errA == nil && errB == nil && os.SameFile(a, b)
	}
}

// hookArgs are the arguments of the command a snippet installs: this
// check-guard, for the agent, with the declarations and options given, and
// the store when it must be named.
func hookArgs(opts *checkGuardOptions, store bool) []string {
	args := []string{"--home", hook.HomeArg}
	if store {
		args = append(args, "--store", hook.StoreArg)
	}
	args = append(args, "automation-profile", "check-guard")
	if opts.profile != "" {
		args = append(args, opts.profile)
	}
	args = append(args, "--hook", opts.hookOpts.agent)
	for _, f := range []struct {
		set  bool
		flag string
	}{
		{opts.hookOpts.sandboxed, "--sandboxed"}, {opts.hookOpts.checkpointed, "--checkpointed"},
		// They win over config.yaml's declarations: the installed command
		// must say so too.
		{opts.input.NoSandbox, "--no-sandbox"}, {opts.input.NoCheckpoint, "--no-checkpoint"},
		{opts.hookOpts.abstain, "--abstain"},
	} {
		if f.set {
			args = append(args, f.flag)
		}
	}
	if c := opts.input.Category; c != "" {
		// Free text, so quoted within the script (which is quoted whole).
		args = append(args, "--category", hook.ShellQuote(c))
	}
	return args
}

// storeIn returns the store URL in force and whether config.yaml named it
// ("" for the file store in the home).
func (o *checkGuardOptions) storeIn() (string, bool) {
	if o.store == nil {
		return "", false
	}
	return o.store()
}
