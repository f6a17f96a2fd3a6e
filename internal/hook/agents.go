// Package hook speaks the pre-tool-call hook protocols of the coding agents
// agents can govern: Claude Code, Codex and Gemini CLI. It reads an agent's
// hook input, classes the tool it names, turns a guard decision into the
// answer the agent's protocol allows, and writes the settings snippet that
// installs the hook. It never prints, reads flags or environment, or exits.
//
// A hook is an enforcement point: the agent runs the tool when the hook
// says so, and treats some failures as "go ahead". So the rule here is the
// product's: never answer more than the profile allows, and never answer
// in a way the agent could read as more.
package hook

import "slices"

// The agents, by the name --hook takes.
const (
	ClaudeCode = "claude-code"
	Codex      = "codex"
	GeminiCLI  = "gemini-cli"
)

// Agents lists the agents' names in a stable order.
func Agents() []string { return []string{ClaudeCode, Codex, GeminiCLI} }

// IsAgent reports whether name is one of Agents.
func IsAgent(name string) bool { return slices.Contains(Agents(), name) }

// ToolClass is what a decision needs to know about a tool: whether a call
// writes (checkpoints and require_approval_for_writes apply to it), and
// whether it is unsafe (allow_unsafe_tools applies to it).
type ToolClass struct {
	Write  bool
	Unsafe bool
}
