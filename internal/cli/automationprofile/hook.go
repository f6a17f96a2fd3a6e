package automationprofile

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
)

// Claude Code's PreToolUse hook: the agent runs the hook command before each
// tool call, with one JSON object on stdin (tool_name, tool_input,
// hook_event_name and session fields such as session_id, cwd,
// permission_mode). The hook answers with exit 0 and, on stdout,
//
//	{"hookSpecificOutput": {"hookEventName": "PreToolUse",
//	  "permissionDecision": "allow" | "deny" | "ask",
//	  "permissionDecisionReason": "..."}}
//
// or with no output, which leaves the call to the agent's own permission
// rules. Exit 2 would block the call with stderr as the reason; any other
// non-zero exit is a non-blocking error that the agent shows to the user
// and then carries on under its own rules.
//
// The mapping: blocked → deny; needs approval → ask; allowed → allow, but
// only when the profile's auto_decisions_execute is 0 (execution decisions
// are automatic). Otherwise an allowed call gets no answer, so a profile
// that wants people to decide never silently waves every prompt through.
//
// Input that cannot be read as a PreToolUse call is invalid input (exit 3):
// a non-blocking error, reported to the user, under which the agent's own
// permission rules still apply. A misconfigured hook command (bad flags) is
// a usage error, exit 2, which the agent treats as blocking: a broken guard
// fails closed until its command is fixed.
const hookClaudeCode = "claude-code"

// maxHookInput bounds the hook input. It is generous because tool_input
// carries whole file contents for Write.
const maxHookInput = 64 << 20

// claudeCodeWriteTools are the agent's tools that clearly write: they edit
// files or notebooks. Bash may write too, but nothing in its input says so.
var claudeCodeWriteTools = []string{"Write", "Edit", "MultiEdit", "NotebookEdit"}

// claudeCodeInput is the part of the hook input that is used. Other fields
// (session_id, transcript_path, cwd, permission_mode, tool_use_id and those
// added in later versions) are ignored. A missing hook_event_name is taken
// as PreToolUse; another event is invalid input.
type claudeCodeInput struct {
	HookEventName *string         `json:"hook_event_name"`
	ToolName      *string         `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
}

type claudeCodeOutput struct {
	HookSpecificOutput claudeCodeDecision `json:"hookSpecificOutput"`
}

type claudeCodeDecision struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

// readClaudeCodeInput reads a PreToolUse hook input into the call it
// describes, on top of the session settings in base.
func readClaudeCodeInput(r io.Reader, base profile.GuardInput) (profile.GuardInput, error) {
	const src = "stdin"
	data, err := io.ReadAll(io.LimitReader(r, maxHookInput+1))
	if err != nil {
		return base, errs.Wrap(errs.KindInternal, err, "cannot read the hook input")
	}
	if len(data) > maxHookInput {
		return base, invalidHook(errs.Problem{File: src, Message: fmt.Sprintf("larger than %d bytes", maxHookInput)})
	}
	fields, problems := decodeObject(data, src, nil)
	if len(problems) > 0 {
		return base, invalidHook(problems...)
	}
	var in claudeCodeInput
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[f.key] && (f.key == "hook_event_name" || f.key == "tool_name" || f.key == "tool_input") {
			problems = append(problems, errs.Problem{File: src, Path: f.key, Message: "is given more than once"})
			continue
		}
		seen[f.key] = true
		var target *string
		switch f.key {
		case "hook_event_name":
			in.HookEventName = new(string)
			target = in.HookEventName
		case "tool_name":
			in.ToolName = new(string)
			target = in.ToolName
		case "tool_input":
			if string(f.raw) != "null" {
				in.ToolInput = f.raw
			}
			continue
		default:
			continue
		}
		if string(f.raw) == "null" || json.Unmarshal(f.raw, target) != nil {
			problems = append(problems, errs.Problem{File: src, Path: f.key, Message: "must be a string, got " + jsonKind(f.raw)})
		}
	}
	if in.HookEventName != nil && *in.HookEventName != "PreToolUse" && !hasProblem(problems, "hook_event_name") {
		problems = append(problems, errs.Problem{File: src, Path: "hook_event_name",
			Message: fmt.Sprintf("is %q; this hook answers PreToolUse only", *in.HookEventName)})
	}
	switch {
	case hasProblem(problems, "tool_name"):
	case in.ToolName == nil:
		problems = append(problems, errs.Problem{File: src, Path: "tool_name", Message: "is missing"})
	case strings.TrimSpace(*in.ToolName) == "" || strings.TrimSpace(*in.ToolName) != *in.ToolName:
		problems = append(problems, errs.Problem{File: src, Path: "tool_name", Message: fmt.Sprintf("%q is not a tool name", *in.ToolName)})
	}
	if len(in.ToolInput) > 0 && jsonKind(in.ToolInput) != "an object" {
		problems = append(problems, errs.Problem{File: src, Path: "tool_input", Message: "must be an object, got " + jsonKind(in.ToolInput)})
	}
	if len(problems) > 0 {
		return base, invalidHook(problems...)
	}
	call := base
	call.Tool = *in.ToolName
	call.Write = contains(claudeCodeWriteTools, call.Tool)
	return call, nil
}

// The hook's error messages are shown to the user as a hook error, so they
// say what happened to the tool call.
func invalidHook(problems ...errs.Problem) error {
	e := errs.InvalidProblems("the Claude Code hook input", problems)
	e.Hint = "no decision was given, so the agent's own permission rules apply; register the command under hooks.PreToolUse (see docs/hooks.md)"
	return e
}

// claudeCodeAnswer maps a decision to the hook's answer, or nil for no
// answer.
func claudeCodeAnswer(r profile.GuardResult, subj decisionSubject) *claudeCodeOutput {
	var decision, why string
	switch r.Verdict {
	case profile.VerdictBlocked:
		decision, why = "deny", r.Reason()
	case profile.VerdictNeedsApproval:
		decision, why = "ask", r.Reason()
	default:
		if subj.Profile.AutoDecisionsExecute != 0 {
			return nil
		}
		decision, why = "allow", "allowed"
		if names := r.Conditions.Names(); len(names) > 0 {
			why += "; the call must still meet: " + strings.Join(names, ", ")
		}
	}
	where := "profile " + subj.Profile.Name
	if subj.Level != "" {
		where += " from the " + subj.Level + " level"
	}
	if subj.Plan != "" {
		where = "plan " + subj.Plan + ", " + where + ", " + subj.SafetySource + " safety profile from the " + subj.SafetyLevel + " level"
	}
	return &claudeCodeOutput{claudeCodeDecision{
		HookEventName:            "PreToolUse",
		PermissionDecision:       decision,
		PermissionDecisionReason: fmt.Sprintf("agents: %s (rule %s, %s)", why, r.Rule, where),
	}}
}

func claudeCodeHookRun(opts *checkGuardOptions) error {
	deps := opts.deps
	in, err := readClaudeCodeInput(deps.IO.In, opts.input)
	if err != nil {
		return err
	}
	subj, err := subjectFor(deps, opts.profile, opts.plan)
	if err != nil {
		return err
	}
	out := claudeCodeAnswer(profile.CheckGuard(subj.Profile, subj.Safety, in), subj)
	if out == nil {
		return nil
	}
	b, err := canon.CompactJSON(out)
	if err != nil {
		return errs.Wrap(errs.KindInternal, err, "cannot encode the hook answer")
	}
	_, err = fmt.Fprintf(deps.IO.Out, "%s\n", b)
	return err
}

func hasProblem(problems []errs.Problem, path string) bool {
	for _, p := range problems {
		if p.Path == path {
			return true
		}
	}
	return false
}
