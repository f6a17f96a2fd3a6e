package automationprofile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/hook"
	"github.com/agentsctl/agents/internal/jsonread"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/registry"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/strictyaml"
	"github.com/agentsctl/agents/internal/suggest"
)

// callFlags describe one tool call; sessionFlags describe the setting the
// calls run in, so they may also accompany --hook.
var (
	callFlags    = []string{"tool", "calls", "cost", "plan-cost", "total-cost", "write", "unsafe", "attempt"}
	sessionFlags = []string{"category", "no-sandbox", "no-checkpoint"}
	hookFlags    = []string{"sandboxed", "checkpointed", "abstain", "print-config"}
)

// suggestAgent returns the agent name meant by a misspelt or shortened
// one ("claude", "gemini"), or "".
func suggestAgent(name string) string {
	for _, a := range hook.Agents() {
		if name != "" && strings.HasPrefix(a, strings.ToLower(name)) {
			return a
		}
	}
	return suggest.Key(name, hook.Agents())
}

// checkHookFlags checks the flags given with --hook.
func checkHookFlags(flags *pflag.FlagSet, opts *checkGuardOptions) error {
	if !hook.IsAgent(opts.hook) {
		e := errs.Usage("unknown hook %q", opts.hook)
		if s := suggestAgent(opts.hook); s != "" {
			return e.WithHint("did you mean %q? The hooks are: %s", s, strings.Join(hook.Agents(), ", "))
		}
		return e.WithHint("the hooks are: %s", strings.Join(hook.Agents(), ", "))
	}
	if set := changed(flags, callFlags); len(set) > 0 {
		return errs.Usage("--hook cannot be combined with %s", set).
			WithHint("the call comes from the hook's input; only --category, --sandboxed, --checkpointed and --abstain may be given")
	}
	// In a hook, a sandbox and checkpoints are absent unless declared:
	// --no-sandbox and --no-checkpoint state the default.
	if opts.hookOpts.sandboxed && flags.Changed("no-sandbox") {
		return errs.Usage("--sandboxed and --no-sandbox contradict each other").WithHint("give one of them")
	}
	if opts.hookOpts.checkpointed && flags.Changed("no-checkpoint") {
		return errs.Usage("--checkpointed and --no-checkpoint contradict each other").WithHint("give one of them")
	}
	if opts.hookOpts.printConfig && opts.plan != "" {
		return errs.Usage("--print-config cannot be combined with --plan").
			WithHint("install a hook for a profile, or for none to resolve it from the agent's working folder")
	}
	if f := flags.Lookup("format"); opts.hookOpts.printConfig && f != nil && f.Changed && f.Value.String() != "json" {
		return errs.Usage("--print-config prints the agent's own settings, which are JSON, so -f %s does not apply", f.Value.String()).
			WithHint("leave -f out (or give -f json)")
	}
	return nil
}

type checkGuardOptions struct {
	cmdutil.Run
	profile string
	plan    string
	// store is the store URL in force and whether config.yaml named it,
	// for the command --print-config installs.
	store func() (url string, fromFile bool)
	// input is the call from the flags; used when neither stdinJSON nor
	// hook is set, and as the session settings with hook.
	input     profile.GuardInput
	stdinJSON bool
	hook      string
	hookOpts  hookOptions
}

func newCheckGuardCmd(deps *cmdutil.Deps, runF func(*checkGuardOptions) error) *cobra.Command {
	opts := &checkGuardOptions{Run: deps.Run(), store: func() (string, bool) { return deps.Config.Store, deps.Config.StoreFromFile }}
	var f struct {
		tool, category                         string
		calls, attempt                         int
		cost, planCost, totalCost              float64
		write, unsafe, noSandbox, noCheckpoint bool
	}
	cmd := &cobra.Command{
		Use:   "check-guard (<profile> | --plan <id>) (--tool <name> | --stdin-json) | [<profile> | --plan <id>] --hook <agent> [flags]",
		Short: "Decide whether one tool call may proceed",
		Long: `Decide whether one tool call may proceed under a profile's safety profile
and guards, and name the rule that decided.

Rules are evaluated in this order; the first that matches decides.
Safety constraints block outright (exit 11):
  safety.require_sandbox           --no-sandbox when a sandbox is required
  safety.allow_unsafe_tools        --unsafe when unsafe tools are not allowed
  safety.allowed_skill_categories  --category outside a non-empty list, or none
  safety.max_retries_per_step      --attempt beyond max_retries_per_step + 1
  safety.require_checkpoints       --write with --no-checkpoint
  safety.max_cost_per_plan         the plan's cost reached the cap
  safety.max_total_cost            the cost of all plans reached the cap
Guards, in this order, need approval (exit 10):
  guards.tool_denylist             the tool is on the denylist
  guards.tool_allowlist            an allowlist is set and the tool is not on it
  guards.max_tool_calls_per_step   --calls reached the limit
  guards.max_total_cost            --cost reached the budget
  guards.require_approval_for_writes  --write
  guards.require_approval_for_apply   the tool is __apply__
Then safety.require_human_approval needs approval (exit 10); otherwise the
call is allowed (rule "default"), with the conditions it must still meet
(sandbox, checkpoint_before_write).

A limit is reached when the figure equals or exceeds it. Costs nest: the
invocation's cost (--cost) is part of the plan's (--plan-cost), which is part
of all plans' (--total-cost); an outer cost left out is taken as the inner
one, so a call can reach a plan cap on --cost alone.

With --plan ID in place of a profile name, the decision is taken under what
the plan recorded: the snapshot of its automation profile and its safety
profile, standalone or composed, as resolved, whatever has changed since.
"level" says which level the automation profile came from, "safety_level"
and "safety_source" where the safety profile came from; "plan" is the id.

--stdin-json reads the call as one JSON object instead of flags, with the
keys tool, calls, cost, plan_cost, total_cost, write, unsafe, category,
attempt, no_sandbox and no_checkpoint.

--hook AGENT answers the pre-tool hook of a coding agent (claude-code,
codex, gemini-cli): the call comes from the agent's JSON on stdin, and the
answer goes out in the agent's protocol (see docs/hooks.md). A hook never
answers more than the profile allows: a sandbox and checkpoints are absent
unless declared (--sandboxed, --checkpointed, or hooks: in config.yaml);
blocked is deny; a guard or require_human_approval asks; a profile whose
auto_decisions_execute is above 0 asks (--abstain leaves those calls to the
agent's own prompt where it still asks a person about that tool: a file
edit of its own table); otherwise allow. An ask goes out as a deny where
no person would see it (Codex, Gemini CLI, and Claude Code outside its
default, plan and acceptEdits modes, or where its settings may hold a
PermissionRequest hook, which could answer in the person's place). Without
a profile the profiles resolve from the input's cwd, where a project's
agents.yaml counts only once trusted ('agents project trust').
--print-config prints the agent's settings that install the hook. The
pack in force is verified first, and AGENTS_ALLOW_UNRATIFIED_SAFETY is
ignored.

EXIT STATUS
  0    allowed
  10   needs a person's approval (allowed: false, requires_approval: true)
  11   blocked; no approval can unblock it (requires_approval: false),
       a safety constraint or a boundary of the pack in enforce mode
  2    usage: a missing --tool, a negative figure, conflicting flags, a
       flag given twice, a profile name and --plan together; a plan id
       prefix that more than one plan begins with
  3    a profile name that is neither a built-in nor namespace/name, or a
       --plan that is not a plan id nor the start of one; invalid input
       on stdin (--stdin-json); a plan whose record does not match its
       snapshots; a config.yaml someone else can write; a store folder or
       file that another user owns or anyone can write
  4    the profile, the plan, or the plan's snapshot does not exist
  6    the safety pack in force was refused
With --hook: 0 for every decision (the answer is on stdout), and 2 for
anything else, whatever the cause, since an agent lets a call through on
any other exit.`,
		Example: `  # May the agent call shell_exec under the example guarded profile?
  $ agents automation-profile add -c examples/profiles/acme-guarded.yaml
  $ agents automation-profile check-guard acme/guarded --tool shell_exec

  # The eleventh call of a step, writing, after 4.20 USD spent
  $ agents automation-profile check-guard acme/guarded --tool edit --calls 10 --write --cost 4.2

  # From a program: the call as JSON on stdin
  $ echo '{"tool": "edit", "write": true}' | agents automation-profile check-guard ci --stdin-json -f json

  # Install a Claude Code PreToolUse hook for the ci profile (see docs/hooks.md)
  $ agents automation-profile check-guard ci --hook claude-code --sandboxed --print-config

  # What the hook answers for one call
  $ echo '{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{}}' |
      agents automation-profile check-guard ci --hook claude-code --sandboxed

  # Under what a plan recorded, its action's safety profile included
  $ agents automation-profile check-guard --plan 01jq3v6m4x8b2c7d9e0f1g2h3k --tool deploy --category deploy`,
		Args: cobra.ArbitraryArgs,
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if cmd.Flags().Changed("plan") {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return cmdutil.CompleteProfileNames(deps, true)(cmd, args, toComplete)
		},
		RunE: cmdutil.RunE(opts, runF, checkGuardRun, func(opts *checkGuardOptions, cmd *cobra.Command, args []string) error {
			flags := cmd.Flags()
			if flags.Changed("hook") {
				// From here on every failure blocks the call. Printing the
				// settings answers no call: it reads the store the command
				// names, as the command it installs will.
				deps.HookMode, deps.HookPrinted = !opts.hookOpts.printConfig, opts.hookOpts.printConfig
				opts.hookOpts.on, opts.hookOpts.agent = true, opts.hook
			}
			if set := changed(flags, hookFlags); len(set) > 0 && !flags.Changed("hook") {
				e := errs.Usage("%s only applies with --hook", set)
				if flags.Changed("print-config") {
					return e.WithHint("name the agent whose settings to print: --hook %s", strings.Join(hook.Agents(), ", --hook "))
				}
				return e.WithHint("outside a hook, say how the call runs with --no-sandbox and --no-checkpoint")
			}
			name, _, err := profileOrPlan(cmd, args, opts.plan, 0, "", opts.hookOpts.on)
			if err != nil {
				return err
			}
			opts.profile = name
			if opts.stdinJSON && opts.hookOpts.on {
				return errs.Usage("--stdin-json and --hook cannot be combined").
					WithHint("--hook reads the agent's own input; use one or the other")
			}
			if opts.stdinJSON {
				if set := changed(flags, append(callFlags, sessionFlags...)); len(set) > 0 {
					return errs.Usage("--stdin-json cannot be combined with %s", set).
						WithHint("put every figure of the call in the JSON object")
				}
			}
			if opts.hookOpts.on {
				if err := checkHookFlags(flags, opts); err != nil {
					return err
				}
			}
			if !opts.stdinJSON && !opts.hookOpts.on && !flags.Changed("tool") {
				return errs.Usage("missing --tool").
					WithHint("name the tool to be called, or pass the call as JSON with --stdin-json")
			}
			in := profile.GuardInput{
				Tool: f.tool, Calls: f.calls, Cost: f.cost,
				PlanCost: f.planCost, HasPlanCost: flags.Changed("plan-cost"),
				TotalCost: f.totalCost, HasTotalCost: flags.Changed("total-cost"),
				Write: f.write, Unsafe: f.unsafe, Category: f.category, Attempt: f.attempt,
				NoSandbox: f.noSandbox, NoCheckpoint: f.noCheckpoint,
			}
			if opts.hookOpts.on {
				// --sandboxed=false says the agent has no sandbox, as
				// --no-sandbox does: config.yaml does not declare one
				// over it. Likewise --checkpointed=false.
				in.NoSandbox = in.NoSandbox || flags.Changed("sandboxed") && !opts.hookOpts.sandboxed
				in.NoCheckpoint = in.NoCheckpoint || flags.Changed("checkpointed") && !opts.hookOpts.checkpointed
			}
			stated := profile.Stated{Category: flags.Changed("category"), Attempt: flags.Changed("attempt"), Tool: flags.Changed("tool")}
			if !opts.hookOpts.on && !opts.stdinJSON {
				if ps := profile.CheckGuardInput(in, stated, flagNames); len(ps) > 0 {
					return errs.Usage("%s", ps[0]).WithHint("%s", inputHintFor(ps[0].String()))
				}
			} else if ps := profile.CheckCategory(in, stated, flagNames); len(ps) > 0 {
				return errs.Usage("%s", ps[0]).WithHint("%s", inputHintFor(ps[0].String()))
			}
			if (opts.stdinJSON || (opts.hookOpts.on && !opts.hookOpts.printConfig)) && opts.UI.IO().IsStdinTTY() {
				// Waiting on a terminal for JSON nobody will type helps no one.
				if opts.hookOpts.on {
					// A hook may name no profile, and its JSON is the
					// agent's, which differs from agent to agent.
					return errs.Usage("stdin is a terminal, but --hook reads the call from stdin").
						WithHint("the agent pipes its JSON in; to try a call by hand, pipe it in as \"Trying it by hand\" in docs/hooks.md shows")
				}
				target := opts.profile
				if opts.plan != "" {
					target = "--plan " + opts.plan
				}
				return errs.Usage("stdin is a terminal, but --stdin-json reads the call from stdin").
					WithHint("pipe the JSON in, for example: echo '{\"tool\": \"read\"}' | agents automation-profile check-guard %s --stdin-json", target)
			}
			opts.input = in
			return nil
		}),
	}
	fl := cmd.Flags()
	fl.StringVar(&f.tool, "tool", "", "the tool to be called (required unless --stdin-json or --hook)")
	fl.IntVar(&f.calls, "calls", 0, "tool calls the step has made before this one")
	fl.Float64Var(&f.cost, "cost", 0, "USD this invocation has spent so far")
	fl.Float64Var(&f.planCost, "plan-cost", 0, "USD the plan has spent so far (default: --cost)")
	fl.Float64Var(&f.totalCost, "total-cost", 0, "USD all plans have spent (default: the plan's cost)")
	fl.BoolVar(&f.write, "write", false, "the call writes")
	fl.BoolVar(&f.unsafe, "unsafe", false, "the tool is flagged unsafe")
	fl.StringVar(&f.category, "category", "", "the call's skill category")
	fl.IntVar(&f.attempt, "attempt", 1, "which try of the step this is; the first is 1")
	fl.BoolVar(&f.noSandbox, "no-sandbox", false, "the call would run outside a sandbox")
	fl.BoolVar(&f.noCheckpoint, "no-checkpoint", false, "no checkpoint would be taken before a write")
	fl.BoolVar(&opts.stdinJSON, "stdin-json", false, "read the call as one JSON object on stdin")
	fl.StringVar(&opts.hook, "hook", "", "answer an agent's pre-tool hook on stdin/stdout: "+strings.Join(hook.Agents(), ", "))
	fl.BoolVar(&opts.hookOpts.sandboxed, "sandboxed", false, "with --hook: the agent runs every tool in a sandbox")
	fl.BoolVar(&opts.hookOpts.checkpointed, "checkpointed", false, "with --hook: the agent takes a checkpoint before every write")
	fl.BoolVar(&opts.hookOpts.abstain, "abstain", false, "with --hook: leave calls the profile's threshold would ask about to the agent's own prompts")
	fl.BoolVar(&opts.hookOpts.printConfig, "print-config", false, "with --hook: print the agent's settings that install the hook")
	cmdutil.NameFlag(cmd, deps, &opts.plan, "plan", "decide under a plan's recorded profiles instead of a named profile", cmdutil.PlanIDs)
	cmdutil.Decimal(fl, "calls", "cost", "plan-cost", "total-cost", "attempt")
	cmdutil.Once(fl, "tool", "calls", "cost", "plan-cost", "total-cost", "write", "unsafe", "category", "attempt",
		"no-sandbox", "no-checkpoint", "stdin-json", "hook", "sandboxed", "checkpointed", "abstain", "print-config", "plan")
	_ = cmd.RegisterFlagCompletionFunc("hook", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return hook.Agents(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func changed(flags *pflag.FlagSet, names []string) string {
	var set []string
	for _, n := range names {
		if flags.Changed(n) {
			set = append(set, "--"+n)
		}
	}
	return strings.Join(set, ", ")
}

const inputHint = "counts are whole numbers from 0, --attempt from 1, costs are USD from 0; costs nest, so --plan-cost is at least --cost and --total-cost at least the plan's cost"

// inputHintFor is the hint for what is wrong with a flag of the call: the
// tool and the category are names, matched exactly; the rest are figures.
func inputHintFor(msg string) string {
	switch {
	case strings.HasPrefix(msg, "--tool "):
		return "name the tool as the agent does, exactly (for example --tool Bash), or pass the call as JSON with --stdin-json"
	case strings.HasPrefix(msg, "--category "):
		return "name the skill category as the profile's safety lists it, exactly, or leave --category out"
	}
	return inputHint
}

// The names fields go by in messages: flags, or JSON keys.
var (
	flagNames = map[string]string{
		profile.InputTool: "--tool", profile.InputCalls: "--calls", profile.InputCost: "--cost", profile.InputPlanCost: "--plan-cost",
		profile.InputTotalCost: "--total-cost", profile.InputCategory: "--category", profile.InputAttempt: "--attempt",
	}
	jsonNames = map[string]string{
		profile.InputTool: "tool", profile.InputCalls: "calls", profile.InputCost: "cost", profile.InputPlanCost: "plan_cost",
		profile.InputTotalCost: "total_cost", profile.InputCategory: "category", profile.InputAttempt: "attempt",
	}
)

func checkGuardRun(opts *checkGuardOptions) error {
	if opts.hookOpts.on {
		return hookRun(opts)
	}
	in := opts.input
	if opts.stdinJSON {
		var err error
		if in, err = readStdinCall(opts.UI.IO().In); err != nil {
			return err
		}
	}
	subj, err := opts.Reg.Subject(registry.Under{Profile: opts.profile, Plan: opts.plan})
	if err != nil {
		return err
	}
	r := subj.Guard(in)
	view := render.GuardDecisionView{Result: r, Profile: subj.Profile.Name, Level: subj.Level,
		Plan: subj.Plan, SafetyLevel: subj.SafetyLevel, SafetySource: subj.SafetySource, Warnings: subj.Warnings()}
	if err := opts.UI.Render(view); err != nil {
		return err
	}
	return r.Verdict.Err()
}

// maxStdin bounds what --stdin-json reads.
const maxStdin = 1 << 20

// stdinCall is the JSON form of a call. Pointers tell a key that is absent
// from one given its zero value.
type stdinCall struct {
	Tool         *string  `json:"tool"`
	Calls        *int     `json:"calls"`
	Cost         *float64 `json:"cost"`
	PlanCost     *float64 `json:"plan_cost"`
	TotalCost    *float64 `json:"total_cost"`
	Write        *bool    `json:"write"`
	Unsafe       *bool    `json:"unsafe"`
	Category     *string  `json:"category"`
	Attempt      *int     `json:"attempt"`
	NoSandbox    *bool    `json:"no_sandbox"`
	NoCheckpoint *bool    `json:"no_checkpoint"`
}

var stdinKeys = []string{"tool", "calls", "cost", "plan_cost", "total_cost", "write", "unsafe", "category", "attempt", "no_sandbox", "no_checkpoint"}

// readStdinCall reads exactly one JSON object describing a call. Unknown or
// repeated keys, nulls, wrong types, a second value and bad figures are
// invalid input, each reported.
func readStdinCall(r io.Reader) (profile.GuardInput, error) {
	const src = "stdin"
	data, err := io.ReadAll(io.LimitReader(r, maxStdin+1))
	if err != nil {
		return profile.GuardInput{}, cmdutil.StdinError(err, "a JSON object")
	}
	if len(data) > maxStdin {
		return profile.GuardInput{}, invalidCall(errs.Problem{File: src, Message: fmt.Sprintf("larger than %d bytes", maxStdin)})
	}
	// Every problem is collected in one pass: keys, then the type of each
	// value, then the figures of those whose type is right. A key already
	// found wrong is not judged again (a tool given as a number is not also
	// missing).
	fields, problems, whole := decodeObject(data, src, stdinKeys)
	if !whole {
		return profile.GuardInput{}, invalidCall(problems...)
	}
	var c stdinCall
	// Each field's key was checked to be known, once and not null;
	// decoding the fields one by one names the field whose type is wrong,
	// and leaves that field absent.
	targets := map[string]func(json.RawMessage) error{
		"tool": into(&c.Tool), "calls": into(&c.Calls), "cost": into(&c.Cost), "plan_cost": into(&c.PlanCost),
		"total_cost": into(&c.TotalCost), "write": into(&c.Write), "unsafe": into(&c.Unsafe), "category": into(&c.Category),
		"attempt": into(&c.Attempt), "no_sandbox": into(&c.NoSandbox), "no_checkpoint": into(&c.NoCheckpoint),
	}
	for _, f := range fields {
		if err := targets[f.key](f.raw); err != nil {
			msg := "must be " + keyType(f.key) + ", got " + rawKind(f.raw)
			if outOfRange(f.key, f.raw, err) {
				msg = "must be " + keyType(f.key) + " that fits: " + string(f.raw) + " is out of range"
			}
			problems = append(problems, errs.Problem{File: src, Path: f.key, Message: msg})
			continue
		}
		// As on the command line and in a file: a cost other than 0 must
		// not read as 0 or lose digits (1e-400 would read as 0), any more
		// than 1e400 may read as the largest number.
		if keyType(f.key) == "a number" {
			if v, err := strconv.ParseFloat(string(f.raw), 64); err == nil && strictyaml.LosesPrecision(string(f.raw), v) {
				problems = append(problems, errs.Problem{File: src, Path: f.key, Message: fmt.Sprintf(
					"must be a number read at full precision: %s is closer to 0 than %g (it would read as %g, or lose digits); write 0, or a number of at least %g",
					f.raw, strictyaml.MinNormal, v, strictyaml.MinNormal)})
			}
		}
	}
	judged := make(map[string]bool, len(problems))
	for _, p := range problems {
		judged[p.Path] = true
	}
	in := profile.GuardInput{
		Tool: deref(c.Tool), Calls: deref(c.Calls), Cost: deref(c.Cost),
		PlanCost: deref(c.PlanCost), HasPlanCost: c.PlanCost != nil,
		TotalCost: deref(c.TotalCost), HasTotalCost: c.TotalCost != nil,
		Write: deref(c.Write), Unsafe: deref(c.Unsafe), Category: deref(c.Category), Attempt: deref(c.Attempt),
		NoSandbox: deref(c.NoSandbox), NoCheckpoint: deref(c.NoCheckpoint),
	}
	stated := profile.Stated{Tool: c.Tool != nil, Category: c.Category != nil, Attempt: c.Attempt != nil}
	for _, p := range profile.CheckGuardInput(in, stated, jsonNames) {
		if !judged[p.Name] {
			problems = append(problems, errs.Problem{File: src, Path: p.Name, Message: p.Detail})
		}
	}
	if len(problems) > 0 {
		return profile.GuardInput{}, invalidCall(problems...)
	}
	return in, nil
}

// into returns a function that decodes a JSON value into a new T and
// points *p at it; on an error *p is left as it was. (json.Unmarshal into
// a nil pointer allocates before it fails, so a value of the wrong type
// would read as given and zero.)
func into[T any](p **T) func(json.RawMessage) error {
	return func(raw json.RawMessage) error {
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			return err
		}
		*p = &v
		return nil
	}
}

// outOfRange reports whether decoding a key's raw value failed only
// because it is too large: a cost past the largest float (1e999), or a
// count written as a whole number past the largest integer. A fraction
// for a count is the wrong kind, not out of range.
func outOfRange(key string, raw json.RawMessage, err error) bool {
	var ute *json.UnmarshalTypeError
	if !errors.As(err, &ute) || ute.Value != "number "+string(raw) {
		return false
	}
	if keyType(key) != "a whole number" {
		return true
	}
	digits := strings.TrimPrefix(string(raw), "-")
	return digits != "" && strings.Trim(digits, "0123456789") == ""
}

func invalidCall(problems ...errs.Problem) error {
	e := errs.InvalidProblems("the call", problems)
	e.Hint = `give one JSON object such as {"tool": "edit", "calls": 3, "write": true}; the keys are ` + strings.Join(stdinKeys, ", ")
	return e
}

func keyType(key string) string {
	switch key {
	case "tool", "category":
		return "a string"
	case "calls", "attempt":
		return "a whole number"
	case "cost", "plan_cost", "total_cost":
		return "a number"
	}
	return "true or false"
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

type rawField struct {
	key string
	raw json.RawMessage
}

// decodeObject splits data, which must hold exactly one JSON object, into
// its fields, read strictly: a key not in known is a problem (suggesting
// the nearest known key), and so are a repeated key and a null value;
// those fields are left out. whole is false when data is not one JSON
// object, and the one problem says why.
func decodeObject(data []byte, src string, known []string) (fields []rawField, problems []errs.Problem, whole bool) {
	one := func(path, msg string) ([]rawField, []errs.Problem, bool) {
		return nil, []errs.Problem{{File: src, Path: path, Message: msg}}, false
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return one("", "nothing was given; expected one JSON object")
	}
	r := jsonread.New(bytes.NewReader(data), jsonread.Options{Mode: jsonread.Strict, Known: known})
	if err := r.Open(); err != nil {
		if e := jsonread.ErrorOf(err); e.Failure == jsonread.NotObject {
			return one("", "expected one JSON object, got "+jsonread.Kind(e.Token))
		}
		return one("", "not JSON: "+jsonread.ErrText(jsonread.ErrorOf(err).Err))
	}
	seen := map[string]bool{}
	for {
		m, ok, err := r.Next()
		if err != nil {
			return one("", "not valid JSON: "+jsonread.ErrText(jsonread.ErrorOf(err).Err))
		}
		if !ok {
			break
		}
		raw, err := r.Raw()
		if err != nil {
			return one(m.Key, "is not valid JSON: "+jsonread.ErrText(jsonread.ErrorOf(err).Err))
		}
		switch {
		case seen[m.Key]:
			problems = append(problems, errs.Problem{File: src, Path: m.Key, Message: "is given more than once"})
			continue
		case !m.Known:
			msg := "is not a known key"
			if s := suggest.Key(m.Key, known); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			problems = append(problems, errs.Problem{File: src, Path: m.Key, Message: msg})
			continue
		case string(raw) == "null":
			problems = append(problems, errs.Problem{File: src, Path: m.Key, Message: "must not be null; leave the key out instead"})
			continue
		}
		seen[m.Key] = true
		fields = append(fields, rawField{m.Key, raw})
	}
	if err := r.Close(); err != nil {
		if e := jsonread.ErrorOf(err); e.Failure == jsonread.Trailing {
			return one("", "more than one JSON value; expected exactly one object")
		}
		return one("", "not valid JSON: "+jsonread.ErrText(jsonread.ErrorOf(err).Err))
	}
	return fields, problems, true
}

// rawKind names the JSON type of a raw value, with a number's value.
func rawKind(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return "something else"
	}
	return jsonread.Describe(tok)
}
