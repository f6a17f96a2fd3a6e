package hook

import (
	"encoding/json"
	"strings"
)

// editTools are the tools Claude Code's permission rules for file edits
// name; a rule for Edit covers every tool that edits files.
var editTools = []string{"Edit", "Write", "MultiEdit", "NotebookEdit"}

// PermitsEdits reports whether a Claude Code settings file, its content
// data, could let a file edit run in the default mode without asking a
// person: a permissions.allow rule for an edit tool (or any tool), or a
// default mode other than default and plan. Content that is not a JSON
// object, or not of the documented shape, could say anything, and counts
// as permitting.
func PermitsEdits(data []byte) bool {
	var s struct {
		Permissions *struct {
			Allow       []string `json:"allow"`
			DefaultMode *string  `json:"defaultMode"`
		} `json:"permissions"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return true
	}
	if s.Permissions == nil {
		return false
	}
	if m := s.Permissions.DefaultMode; m != nil && *m != "default" && *m != "plan" {
		return true
	}
	for _, rule := range s.Permissions.Allow {
		tool, _, _ := strings.Cut(strings.TrimSpace(rule), "(")
		tool = strings.TrimSpace(tool)
		if tool == "" || strings.ContainsAny(tool, "*?") {
			return true
		}
		for _, t := range editTools {
			if strings.EqualFold(tool, t) {
				return true
			}
		}
	}
	return false
}

// ClaudeSettings are the names of Claude Code's settings files, in its
// .claude folders of a project and of the user, and its administrators'.
var (
	ClaudeSettingsNames = []string{"settings.json", "settings.local.json"}
	ClaudeManaged       = []string{
		"/etc/claude-code/managed-settings.json",
		"/Library/Application Support/ClaudeCode/managed-settings.json",
	}
)
