package hook

import (
	"strings"
)

// The kinds of tool the default tables know. Every kind but read counts
// as unsafe or as a write; a shell counts as both, since nothing in its
// input says what a command will do.
const (
	kindRead    = "read"
	kindWrite   = "write"
	kindNetwork = "network"
	kindShell   = "shell"
	kindMCP     = "MCP"
	kindUnknown = "unknown"
)

type toolEntry struct {
	kind string
}

func (e toolEntry) class() ToolClass {
	switch e.kind {
	case kindRead:
		return ToolClass{}
	case kindWrite:
		return ToolClass{Write: true}
	case kindNetwork:
		return ToolClass{Unsafe: true}
	}
	return ToolClass{Write: true, Unsafe: true}
}

func table(kinds map[string][]string) map[string]toolEntry {
	out := map[string]toolEntry{}
	for kind, names := range kinds {
		for _, n := range names {
			out[n] = toolEntry{kind: kind}
		}
	}
	return out
}

// The default tables. A tool missing from its agent's table is unknown,
// and counts as a write and unsafe: an agent's new tool is decided on the
// safe side until the table, or the user's config.yaml, says otherwise.
var (
	// claudeEditTools are Claude Code's file edits, which its permission
	// rules name too (a rule for Edit covers them all).
	claudeEditTools = []string{"Write", "Edit", "MultiEdit", "NotebookEdit"}
	claudeCodeTools = table(map[string][]string{
		kindRead: {"Read", "Glob", "Grep", "LS", "NotebookRead", "LSP", "TodoWrite",
			"AskUserQuestion", "EnterPlanMode", "ExitPlanMode", "ToolSearch",
			// A subagent's own tool calls come to the hook one by one.
			"Task", "Agent"},
		kindWrite:   claudeEditTools,
		kindNetwork: {"WebFetch", "WebSearch"},
		kindShell:   {"Bash", "BashOutput", "KillShell", "PowerShell"},
	})
	codexTools = table(map[string][]string{
		// Codex hooks its shell (every variant reaches the hook as Bash),
		// apply_patch and MCP tools; its own read tools are listed for a
		// version that hooks them too.
		kindRead:    {"read_file", "list_dir", "grep_files", "view_image", "update_plan"},
		kindWrite:   {"apply_patch"},
		kindNetwork: {"web_search"},
		kindShell:   {"Bash"},
	})
	geminiTools = table(map[string][]string{
		kindRead: {"read_file", "read_many_files", "list_directory", "glob", "grep_search",
			"search_file_content", "write_todos", "ask_user", "get_internal_docs"},
		// save_memory appends to the user's GEMINI.md.
		kindWrite:   {"write_file", "replace", "save_memory"},
		kindNetwork: {"web_fetch", "google_web_search"},
		kindShell:   {"run_shell_command"},
	})
)

// Classification is the class a tool was given, and how.
type Classification struct {
	ToolClass
	// Reclassified is true when the user's config.yaml set the class.
	Reclassified bool
	kind         string
}

// Classify returns the class of agent's tool: the user's reclassification
// from config.yaml when there is one, else the agent's default table; an
// MCP tool, or any tool the table does not know, is a write and unsafe.
func Classify(agent, tool string, overrides map[string]ToolClass) Classification {
	if c, ok := overrides[tool]; ok {
		return Classification{ToolClass: c, Reclassified: true}
	}
	p := protocols[agent]
	if e, ok := p.tools[tool]; ok {
		return Classification{ToolClass: e.class(), kind: e.kind}
	}
	e := toolEntry{kind: kindUnknown}
	if strings.HasPrefix(tool, p.mcpPrefix) {
		e.kind = kindMCP
	}
	return Classification{ToolClass: e.class(), kind: e.kind}
}

// ClassifyCall is Classify for the tool of call c, except that a tool
// the input says is an MCP server's is an MCP tool whatever its name: a
// server's tool may bear the name of one of the agent's read tools (one
// the agent's version lacks, or has renamed), and then the table would
// class it as a read.
func ClassifyCall(agent string, c Call, overrides map[string]ToolClass) Classification {
	if _, ok := overrides[c.Tool]; ok || !c.MCP {
		return Classify(agent, c.Tool, overrides)
	}
	return Classification{ToolClass: toolEntry{kind: kindMCP}.class(), kind: kindMCP}
}

// Listed reports whether agent's own tool table lists tool: a tool it
// does not (an MCP server's, one added since) may take its files under any
// key of its input.
func Listed(agent, tool string) bool {
	p, ok := protocols[agent]
	if !ok {
		return false
	}
	_, ok = p.tools[tool]
	return ok
}

// Describe says how the tool was classed, for the answer's reason:
// `a shell tool, so a write and unsafe`.
func (c Classification) Describe(agent string) string {
	var what string
	switch {
	case c.Reclassified:
		what = "reclassified in config.yaml"
	case c.kind == kindUnknown:
		what = "not in the " + agent + " tool table"
	default:
		what = articled(c.kind) + " tool"
	}
	return what + ", so " + c.ToolClass.String()
}

func articled(kind string) string {
	if kind == kindMCP {
		return "an " + kind
	}
	return "a " + kind
}

// String names the class: "a write and unsafe", "a write", "unsafe",
// "neither a write nor unsafe".
func (c ToolClass) String() string {
	switch {
	case c.Write && c.Unsafe:
		return "a write and unsafe"
	case c.Write:
		return "a write, not unsafe"
	case c.Unsafe:
		return "unsafe, not a write"
	}
	return "neither a write nor unsafe"
}
