package hook

import (
	"slices"

	"github.com/agentsctl/agents/internal/canon"
)

// protocol is what differs between the agents' hook protocols. Sources
// (docs/hooks.md cites them in full): Claude Code's hooks reference and
// its agent SDK's types; Codex's codex-rs/hooks engine; Gemini CLI's
// hooks reference and packages/core/src/hooks.
type protocol struct {
	// event is the pre-tool-call event the hook answers.
	event string
	// modeField is the input field carrying the agent's permission mode,
	// or "" when the protocol sends none.
	modeField string
	// askingModes are the modes in which the agent itself still asks a
	// person before a call it has no rule for. Any other mode, and a
	// missing or unknown one, is taken as never asking.
	askingModes []string
	// askReaches are the permission modes in which an "ask" reliably
	// reaches a person. In any other mode, and with a missing or unknown
	// one, an ask is sent as a deny: Claude Code lets its classifier, not
	// a person, settle a hook's ask in auto mode, and ran the call under
	// bypassPermissions before 2.1.233; an older Gemini CLI reads an ask
	// as "go ahead"; Codex rejects one and lets the call proceed. Nil
	// where no mode can be relied on.
	askReaches []string
	// modes are the permission modes the protocol documents.
	modes []string
	// personTools are tools whose permission prompt is itself the
	// question the call puts to a person (Claude Code's AskUserQuestion
	// and ExitPlanMode): an allow would answer it for them, so an allow
	// becomes no answer and the agent asks as it would have.
	personTools []string
	// sendsAllow is false where an explicit allow is not understood and
	// the agent would carry on under its own rules anyway (Codex rejects
	// a bare allow): allow is then no output at all.
	sendsAllow bool
	// encode writes one answer; kind is never Abstain.
	encode func(kind Kind, reason string) ([]byte, error)
	// tools is the default class of the agent's own tools.
	tools map[string]toolEntry
	// known are the input fields read: the shared ones and modeField.
	known []string
	// mcpPrefix starts the name of every MCP tool.
	mcpPrefix string
	// mcpField is the input field the protocol sends with, and only
	// with, the calls of MCP tools, or "" when it sends none.
	mcpField string
	// settingsFile says where the snippet goes; timeoutUnit is the unit
	// of the protocol's timeout field (1 for seconds, 1000 for ms).
	settingsFile string
	timeoutUnit  int
}

func init() {
	for _, p := range protocols {
		p.known = []string{fieldEvent, fieldTool, fieldToolIn, fieldCwd}
		if p.modeField != "" {
			p.known = append(p.known, p.modeField)
		}
		if p.mcpField != "" {
			p.known = append(p.known, p.mcpField)
		}
	}
}

var protocols = map[string]*protocol{
	ClaudeCode: {
		event:     "PreToolUse",
		modeField: "permission_mode",
		// acceptEdits, auto, dontAsk and bypassPermissions let calls run
		// (or fail) without asking anyone.
		askingModes: []string{"default", "plan"},
		// A person answers an ask in these three modes; auto, dontAsk
		// and bypassPermissions have nobody to put it to.
		askReaches:   []string{"default", "plan", "acceptEdits"},
		modes:        []string{"default", "plan", "acceptEdits", "auto", "dontAsk", "bypassPermissions"},
		personTools:  []string{"AskUserQuestion", "ExitPlanMode"},
		sendsAllow:   true,
		encode:       encodeClaudeStyle,
		tools:        claudeCodeTools,
		mcpPrefix:    "mcp__",
		settingsFile: ".claude/settings.json (the project's) or ~/.claude/settings.json (every project)",
		timeoutUnit:  1,
	},
	Codex: {
		event:     "PreToolUse",
		modeField: "permission_mode",
		// Codex sends "bypassPermissions" for the approval policy "never"
		// and "default" for every other one (codex-rs/core/src/
		// hook_runtime.rs, hook_permission_mode), on-request and
		// on-failure included, under which sandboxed commands and patches
		// in the workspace run without asking anyone: no mode tells that
		// a person will be asked.
		askingModes:  nil,
		modes:        []string{"default", "bypassPermissions"},
		sendsAllow:   false,
		encode:       encodeClaudeStyle,
		tools:        codexTools,
		mcpPrefix:    "mcp__",
		settingsFile: "~/.codex/hooks.json (or <project>/.codex/hooks.json)",
		timeoutUnit:  1,
	},
	GeminiCLI: {
		event: "BeforeTool",
		// The approval mode is not in the input: the hook cannot tell
		// whether anyone would be asked.
		sendsAllow:   true,
		encode:       encodeGemini,
		tools:        geminiTools,
		mcpPrefix:    "mcp_",
		settingsFile: ".gemini/settings.json (the project's) or ~/.gemini/settings.json (every project)",
		timeoutUnit:  1000,
		// Versions that name an MCP tool as its server does (read_file,
		// or server__read_file on a clash with a tool already there) tell
		// it from their own by this field alone.
		mcpField: "mcp_context",
	},
}

// ModeAsks reports whether the agent, in the permission mode its input
// stated, would still ask a person itself about a call of class c. A
// protocol that sends no mode, a missing mode and an unknown one all count
// as "it would not". So does every tool but the file edits of the agent's
// own table: Claude Code runs reads, and some shell commands, MCP resource
// reads and tools newer than the table, without asking in its default and
// plan modes, so only an edit is sure to reach a person (or, in plan mode,
// to be refused).
func ModeAsks(agent, mode string, c Classification) bool {
	p := protocols[agent]
	return p != nil && p.modeField != "" && slices.Contains(p.askingModes, mode) &&
		c.kind == kindWrite && !c.Reclassified
}

// The answers are written by hand, one line of JSON, leaving <, > and &
// as they are (a reason quoting a predicate reads better that way): a hook
// answers every tool call, and encoding/json would spend more reflecting
// over the answer's type than the decision costs. A test holds them to
// what encoding/json writes for the shapes below.
//
// Claude Code's PreToolUse answer, which Codex shares:
//
//	{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":KIND,"permissionDecisionReason":REASON}}
//
// Gemini CLI's BeforeTool answer:
//
//	{"decision":KIND,"reason":REASON}

func encodeClaudeStyle(kind Kind, reason string) ([]byte, error) {
	b := append(make([]byte, 0, 128+len(reason)), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":`...)
	b = canon.AppendString(b, kind.String())
	b = append(b, `,"permissionDecisionReason":`...)
	b = canon.AppendString(b, reason)
	return append(b, "}}"...), nil
}

func encodeGemini(kind Kind, reason string) ([]byte, error) {
	b := append(make([]byte, 0, 32+len(reason)), `{"decision":`...)
	b = canon.AppendString(b, kind.String())
	b = append(b, `,"reason":`...)
	b = canon.AppendString(b, reason)
	return append(b, '}'), nil
}
