//go:build !windows

package hook

// The administrators' settings files of the agents, on Linux and macOS.
var (
	systemClaudeManaged = []string{
		"/etc/claude-code/managed-settings.json",
		"/Library/Application Support/ClaudeCode/managed-settings.json",
	}
	systemClaudeManagedDirs = []string{
		"/etc/claude-code/managed-settings.d",
		"/Library/Application Support/ClaudeCode/managed-settings.d",
	}
	systemGemini = []string{
		"/etc/gemini-cli/settings.json",
		"/etc/gemini-cli/system-defaults.json",
		"/Library/Application Support/GeminiCli/settings.json",
		"/Library/Application Support/GeminiCli/system-defaults.json",
	}
)
