package hook

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Timeout is the time, in seconds, the settings snippet gives the hook;
// Deadline, shorter, is when agents gives up deciding and blocks the call
// itself, so that the agent's own timeout (under which all three agents
// let the call proceed) is never reached.
const (
	Timeout  = 30
	Deadline = 20
)

// SnippetOptions describe the hook command a snippet installs.
type SnippetOptions struct {
	// Binary is the absolute path of the agents binary; Home the agents
	// home the hook must use.
	Binary string
	Home   string
	// Store is the store URL the hook must use, when the home's
	// config.yaml does not name it ("" for none to pass).
	Store string
	// Args are the arguments the binary is run with, where HomeArg stands
	// for Home and StoreArg for Store.
	Args []string
}

// HomeArg and StoreArg stand for the home and the store in
// SnippetOptions.Args: the script receives the binary, the home and the
// store as its arguments, never spliced into it.
const (
	HomeArg  = `"$1"`
	StoreArg = `"$2"`
)

// Command returns the shell command that runs the hook. All three agents
// run a hook's command through a shell (Claude Code's, Codex's $SHELL -lc,
// Gemini CLI's bash -c), so the command is `sh -c '<script>' <binary>
// <home> [<store>]`: the same POSIX script whatever the user's shell, with
// the paths (and the store URL) passed as arguments rather than spliced
// into the script. The
// script turns every exit other than 0 and 2 into 2 with a message on
// stderr, so that a missing binary (127), a crash or a kill blocks the
// call: each agent lets a call proceed on any other exit.
func Command(o SnippetOptions) string {
	script := strings.Join(append([]string{`"$0"`}, o.Args...), " ") + `; rc=$?; ` +
		`if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ]; then ` +
		`echo "agents: the hook did not run (exit $rc), so the tool call is blocked" >&2; exit 2; fi; exit "$rc"`
	cmd := "sh -c " + ShellQuote(script) + " " + ShellQuote(o.Binary) + " " + ShellQuote(o.Home)
	if o.Store != "" {
		cmd += " " + ShellQuote(o.Store)
	}
	return cmd
}

// ShellQuote quotes s for a POSIX shell (and fish): in single quotes,
// each single quote in s written as '\”.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

type snippetHandler struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

type snippetMatcher struct {
	Matcher string           `json:"matcher"`
	Hooks   []snippetHandler `json:"hooks"`
}

// Snippet returns the settings that install the hook for agent: a JSON
// document with one command hook on the agent's pre-tool event, matching
// every tool, to merge into the file SettingsFile names.
func Snippet(agent string, o SnippetOptions) ([]byte, error) {
	p := protocols[agent]
	doc := map[string]map[string][]snippetMatcher{
		"hooks": {p.event: {{
			Matcher: "*",
			Hooks:   []snippetHandler{{Type: "command", Command: Command(o), Timeout: Timeout * p.timeoutUnit}},
		}}},
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// SettingsFile says where agent's snippet belongs.
func SettingsFile(agent string) string { return protocols[agent].settingsFile }
