package automationprofile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/hook"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/resolve"
)

// hookOptions are the flags of check-guard's hook mode.
type hookOptions struct {
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
	deps := opts.deps
	h := opts.hookOpts
	if h.printConfig {
		return printHookConfig(opts)
	}
	profileLess := opts.profile == "" && opts.plan == ""
	call, err := hook.ReadInput(h.agent, deps.IO.In, profileLess)
	if err != nil {
		return err
	}
	g, err := deps.Global()
	if err != nil {
		return err
	}
	var subj decisionSubject
	if profileLess {
		subj, err = subjectFromCwd(deps, call.Cwd)
	} else {
		subj, err = subjectFor(deps, opts.profile, opts.plan)
	}
	if err != nil {
		return err
	}

	class := hook.Classify(h.agent, call.Tool, g.Hooks.Tools[h.agent])
	decl := declared{
		sandbox:    declaration(h.sandboxed, g.Hooks.Sandboxed),
		checkpoint: declaration(h.checkpointed, g.Hooks.Checkpointed),
	}
	in := opts.input // the session's category
	in.Tool, in.Write, in.Unsafe = call.Tool, class.Write, class.Unsafe
	in.NoSandbox = decl.sandbox == ""
	in.NoCheckpoint = decl.checkpoint == ""
	r := decideGuard(subj, in)
	ans := hook.Decide(r, subj.Profile, hook.Options{Abstain: h.abstain, ModeAsks: hook.ModeAsks(h.agent, call.Mode)})
	out, err := hook.Encode(h.agent, ans, hookReason(h.agent, ans, subj, call.Tool, class, decl))
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "cannot encode the hook answer")
	}
	if out == nil {
		return nil
	}
	_, err = fmt.Fprintf(deps.IO.Out, "%s\n", out)
	return err
}

// declared records where a condition was declared met: "--sandboxed",
// "config.yaml", or "" for not declared.
type declared struct{ sandbox, checkpoint string }

func declaration(flag, config bool) string {
	switch {
	case flag:
		return "flag"
	case config:
		return "config.yaml"
	}
	return ""
}

// hookReason is the answer's reason: what decided, in words, then the
// rule, what it was decided under, how the tool was classed and which
// conditions were declared.
func hookReason(agent string, a hook.Answer, subj decisionSubject, tool string, class hook.Classification, d declared) string {
	var b strings.Builder
	b.WriteString("agents: ")
	switch hook.Effective(agent, a.Kind) {
	case hook.Deny:
		if a.Kind == hook.Ask {
			b.WriteString("blocked until a person approves it, which this agent's hook cannot ask for: ")
		} else {
			b.WriteString("blocked: ")
		}
	case hook.Ask:
		b.WriteString("needs a person's approval: ")
	default:
		b.WriteString("allowed: ")
	}
	b.WriteString(a.Why)
	fmt.Fprintf(&b, " (rule %s; %s; tool %q is %s; %s)", a.Rule, subjectPhrase(subj), tool, class.Describe(agent), d.phrase())
	return b.String()
}

func (d declared) phrase() string {
	part := func(what, how string) string {
		switch how {
		case "flag":
			return what + " declared by --" + map[string]string{"sandbox": "sandboxed", "checkpoint": "checkpointed"}[what]
		case "":
			return "no " + what + " declared"
		}
		return what + " declared in " + how
	}
	return part("sandbox", d.sandbox) + ", " + part("checkpoint", d.checkpoint)
}

// subjectPhrase says what a decision was taken under: the profile and the
// level it came from, the safety profile and its level, and the plan.
func subjectPhrase(s decisionSubject) string {
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

// subjectFromCwd resolves the profiles for a hook that names none, from
// the agent's working folder, exactly as 'plan use' would there without
// an action: the project's agents.yaml (only if the user trusted the
// project), the global config.yaml, then the system default. The pack in
// force is loaded first.
func subjectFromCwd(deps *cmdutil.Deps, cwd string) (decisionSubject, error) {
	if _, err := deps.PackInForce(); err != nil {
		return decisionSubject{}, err
	}
	env, err := cmdutil.ResolveEnv(deps)
	if err != nil {
		return decisionSubject{}, err
	}
	r, err := env.Resolve(resolve.Request{
		Own:                 plan.Setting{Level: plan.LevelPlan},
		ProjectDir:          cwd,
		OnlyTrustedProjects: true,
	})
	if err != nil {
		return decisionSubject{}, err
	}
	subj := decisionSubject{
		Profile: r.Automation, Safety: r.Safety, Level: r.AutomationLevel,
		SafetyLevel: r.SafetyLevel, SafetySource: r.SafetySource,
	}
	for _, l := range r.Levels {
		if l.Level == r.AutomationLevel && l.Source != nil {
			subj.LevelSource = *l.Source
		}
	}
	return subj, subj.judge(deps, nil)
}

// printHookConfig prints the settings snippet that installs the hook.
func printHookConfig(opts *checkGuardOptions) error {
	deps := opts.deps
	h := opts.hookOpts
	if opts.profile != "" {
		// A hook that names a profile that does not exist blocks every
		// call: say so now rather than at the agent's first tool call.
		if _, err := deps.LookupProfile(opts.profile); err != nil {
			return err
		}
	}
	bin, err := os.Executable()
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "cannot tell where the agents binary is")
	}
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	snippet, err := hook.Snippet(h.agent, hook.SnippetOptions{Binary: bin, Home: deps.Config.Home, Args: hookArgs(opts)})
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "cannot encode the settings")
	}
	deps.Info("merge this into %s", hook.SettingsFile(h.agent))
	_, err = deps.IO.Out.Write(snippet)
	return err
}

// hookArgs are the arguments of the command a snippet installs: this
// check-guard, for the agent, with the declarations and options given.
func hookArgs(opts *checkGuardOptions) []string {
	args := []string{"--home", hook.HomeArg, "automation-profile", "check-guard"}
	if opts.profile != "" {
		args = append(args, opts.profile)
	}
	args = append(args, "--hook", opts.hookOpts.agent)
	for _, f := range []struct {
		set  bool
		flag string
	}{{opts.hookOpts.sandboxed, "--sandboxed"}, {opts.hookOpts.checkpointed, "--checkpointed"}, {opts.hookOpts.abstain, "--abstain"}} {
		if f.set {
			args = append(args, f.flag)
		}
	}
	return args
}
