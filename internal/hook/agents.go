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

import (
	"path/filepath"
	"slices"
)

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

// SettingsFolders are the files the agents' hooks are installed in, by
// the folder that holds them in a project or the user's home: Claude
// Code's settings, Codex's hooks and configuration, Gemini CLI's
// settings.
var SettingsFolders = map[string][]string{
	".claude": {"settings.json", "settings.local.json"},
	".codex":  {"hooks.json", "config.toml"},
	".gemini": {"settings.json"},
}

// settingsElsewhere are the environment variables that move an agent's
// settings out of the folders SettingsFolders names: to a folder, which
// then holds the same files, or to a file.
var settingsElsewhere = []struct {
	env   string   // a variable naming a folder (with files) or a file
	files []string // the files in the folder the variable names
}{
	{"CLAUDE_CONFIG_DIR", SettingsFolders[".claude"]},
	{"CODEX_HOME", SettingsFolders[".codex"]},
	{"GEMINI_CLI_SYSTEM_SETTINGS_PATH", nil},
	{"GEMINI_CLI_SYSTEM_DEFAULTS_PATH", nil},
}

// systemSettings are the administrators' settings files the agents read
// on every machine of a kind.
var systemSettings = append(slices.Clone(systemClaudeManaged), systemGemini...)

// SettingsFiles returns the agents' settings files that getenv (the
// hook's environment, which the agent's is) and the system name, beyond
// those of a project's or the home's .claude, .codex and .gemini folders:
// writing one can take an agent's hook away as surely. A relative path is
// returned as the variable gives it.
func SettingsFiles(getenv func(string) string) []string {
	out := slices.Clone(systemSettings)
	for _, s := range settingsElsewhere {
		v := getenv(s.env)
		if v == "" {
			continue
		}
		if s.files == nil {
			out = append(out, v)
			continue
		}
		for _, f := range s.files {
			out = append(out, filepath.Join(v, f))
		}
	}
	return out
}
