package hook

import (
	"encoding/json"
	"strings"
)

// PermitsEdits reports whether a Claude Code settings file, its content
// data, could let a file edit run in the default mode without asking a
// person: a permissions.allow rule for an edit tool (or any tool), a
// default mode other than default and plan, a PreToolUse hook other than
// this one (which may answer allow), a PermissionRequest hook (which may
// answer the prompt for the person), or an enabled plugin (which may bring
// such hooks). isSelf tells this hook's command from others. Keys are
// read as Claude Code reads them, letter case and all, the last of a key
// given twice winning; a key that differs from one of those only in case,
// content that is not a JSON object, or a value not of the documented
// shape could say anything, and counts as permitting.
func PermitsEdits(data []byte, isSelf func(command string) bool) bool {
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil || doc == nil {
		return true
	}
	if foldedAlike(doc, keyPermissions) || foldedAlike(doc, keyHooks) || otherHooks(doc[keyHooks], isSelf) ||
		foldedAlike(doc, keyPlugins) || enabledPlugins(doc[keyPlugins]) {
		return true
	}
	raw, ok := doc[keyPermissions]
	if !ok || raw == nil {
		return false
	}
	perms, ok := raw.(map[string]any)
	if !ok || foldedAlike(perms, keyAllow) || foldedAlike(perms, keyDefaultMode) {
		return true
	}
	if m, ok := perms[keyDefaultMode]; ok && m != nil && m != "default" && m != "plan" {
		return true
	}
	rules, odd := listAt(perms, keyAllow)
	if odd {
		return true
	}
	for _, r := range rules {
		rule, ok := r.(string)
		if !ok {
			return true
		}
		tool, _, _ := strings.Cut(strings.TrimSpace(rule), "(")
		tool = strings.TrimSpace(tool)
		if tool == "" || strings.ContainsAny(tool, "*?") {
			return true
		}
		for _, t := range claudeEditTools {
			if strings.EqualFold(tool, t) {
				return true
			}
		}
	}
	return false
}

// AnswersAsks reports whether a Claude Code settings file, its content
// data, could answer an ask in a person's place: a PermissionRequest hook,
// which Claude Code runs before it puts an ask to the person and which may
// allow the call, or an enabled plugin, which may bring one. It reads the
// file as PermitsEdits does: content that is not a JSON object, a key that
// differs from hooks, enabledPlugins or PermissionRequest only in case, or
// a value not of the documented shape counts as answering.
func AnswersAsks(data []byte) bool {
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil || doc == nil {
		return true
	}
	return foldedAlike(doc, keyHooks) || foldedAlike(doc, keyPlugins) || enabledPlugins(doc[keyPlugins]) ||
		permissionRequestHooks(doc[keyHooks])
}

// enabledPlugins reports whether the enabledPlugins section of Claude
// Code's settings could enable a plugin.
func enabledPlugins(section any) bool {
	if section == nil {
		return false
	}
	plugins, ok := section.(map[string]any)
	if !ok {
		return true
	}
	for _, on := range plugins {
		if on != false {
			return true
		}
	}
	return false
}

// otherHooks reports whether the hooks section of Claude Code's settings
// could hold a hook that may answer for the person an edit this hook left
// to the agent: a pre-tool hook whose command isSelf does not take for
// this one's, or any permission-request hook.
func otherHooks(section any, isSelf func(string) bool) bool {
	if section == nil {
		return false
	}
	events, ok := section.(map[string]any)
	if !ok || foldedAlike(events, claudePreTool) || permissionRequestHooks(section) {
		return true
	}
	list, odd := listAt(events, claudePreTool)
	if odd {
		return true
	}
	for _, g := range list {
		group, ok := g.(map[string]any)
		if !ok {
			return true
		}
		hooks, ok := group["hooks"].([]any)
		if !ok {
			return true
		}
		for _, h := range hooks {
			hook, ok := h.(map[string]any)
			if !ok {
				return true
			}
			// Only a command hook runs a command: an http, prompt or
			// agent hook answers otherwise, whatever command it names.
			command, ok := hook["command"].(string)
			if !ok || hook["type"] != "command" || isSelf == nil || !isSelf(command) {
				return true
			}
		}
	}
	return false
}

// permissionRequestHooks reports whether the hooks section of Claude
// Code's settings could hold a PermissionRequest hook.
func permissionRequestHooks(section any) bool {
	if section == nil {
		return false
	}
	events, ok := section.(map[string]any)
	if !ok || foldedAlike(events, claudePermissionRequest) {
		return true
	}
	list, odd := listAt(events, claudePermissionRequest)
	return odd || len(list) > 0
}

// listAt returns the list under key in m, nil when the key is absent or
// null; odd is true when the value is not a list, a shape that could say
// anything.
func listAt(m map[string]any, key string) (list []any, odd bool) {
	if m[key] == nil {
		return nil, false
	}
	list, ok := m[key].([]any)
	return list, !ok
}

// Claude Code's hook events that may answer for the person: before a
// tool runs, and when it would ask for permission.
const (
	claudePreTool           = "PreToolUse"
	claudePermissionRequest = "PermissionRequest"
)

// The keys of Claude Code's settings PermitsEdits reads.
const (
	keyHooks       = "hooks"
	keyPlugins     = "enabledPlugins"
	keyPermissions = "permissions"
	keyAllow       = "allow"
	keyDefaultMode = "defaultMode"
)

// foldedAlike reports whether m has a key that is key in other letter
// case: a reader that folds case may take it for key.
func foldedAlike(m map[string]any, key string) bool {
	for k := range m {
		if k != key && strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}

// ClaudeSettingsNames are the names of Claude Code's settings files in
// the .claude folders of a project and of the user; ClaudeManaged its
// administrators' files.
var (
	ClaudeSettingsNames = SettingsFolders[".claude"]
	ClaudeManaged       = systemClaudeManaged
	// ClaudeManagedDirs hold more of the administrators' settings, every
	// .json file in them merged over managed-settings.json.
	ClaudeManagedDirs = systemClaudeManagedDirs
)
