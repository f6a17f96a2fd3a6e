package hook

// The administrators' settings files of the agents, on Windows (Claude
// Code's in Program Files, and in ProgramData where older versions kept
// them).
var (
	systemClaudeManaged = []string{
		`C:\Program Files\ClaudeCode\managed-settings.json`,
		`C:\ProgramData\ClaudeCode\managed-settings.json`,
	}
	systemClaudeManagedDirs = []string{
		`C:\Program Files\ClaudeCode\managed-settings.d`,
		`C:\ProgramData\ClaudeCode\managed-settings.d`,
	}
	systemGemini = []string{
		`C:\ProgramData\gemini-cli\settings.json`,
		`C:\ProgramData\gemini-cli\system-defaults.json`,
	}
)
