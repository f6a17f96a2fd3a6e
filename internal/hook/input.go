package hook

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"unicode"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/jsonread"
)

// Limits of the hook input. A tool call's input carries whole file
// contents (a Write of a large file), so the size limit is generous; it is
// read as a stream, so memory stays near the largest single value. No
// agent nests a tool's input anywhere near MaxDepth levels; input that
// does is refused, not decided on.
const (
	MaxInputBytes = 32 << 20
	MaxDepth      = 64
)

// Call is what a hook input says about one tool call.
type Call struct {
	// Event is the hook event, which must be the agent's pre-tool event.
	Event string
	// Tool is the tool's name, exactly as the agent sent it.
	Tool string
	// Cwd is the agent's working folder; "" when the input has none.
	Cwd string
	// Mode is the agent's permission or approval mode, as sent; "" when
	// the input does not say.
	Mode string
	// MCP is set when the input says the tool is an MCP server's (Gemini
	// CLI's mcp_context, with any value but null), whatever the tool's
	// name.
	MCP bool
	// Paths are the files the tool's input names: at its top level
	// (the pathKeys, every one of a key given twice, each string of a
	// list), and in the headers of a patch in its command (Codex's
	// apply_patch), as sent.
	Paths []string
	// Dirs are the working folders the tool's input names (workdir, cwd,
	// dir_path, directory), as sent: a relative path may be read from any
	// of them as well as from Cwd.
	Dirs []string
	// Named are the files the strings of the tool's input may name, at
	// any depth and under any key, read as a server may read them (see
	// mayNameFile): an MCP server's tools name theirs under keys no list
	// can foresee (relative_path, uri, files[].path). A tool the agent's
	// table does not list may write any of them.
	Named []string
	// NamedDirs are those of Named whose key says they name a folder
	// (dir, folder, root): a server may join another name to one.
	NamedDirs []string
	// NamedTooMany is set when the input holds more such strings than
	// MaxNamed: which files they name is then not told.
	NamedTooMany bool
}

// MaxNamed is how many strings that may name a file Call.Named holds.
const MaxNamed = 2048

// pathKeys are the members of a tool's input that name the files it works
// on: in the three agents' file tools (file_path, notebook_path, path), and
// in the common MCP file servers' (a move's source and destination, the
// list of paths a tool takes, and the names other servers give them).
var pathKeys = []string{
	"file_path", "notebook_path", "path",
	"source", "destination", "paths", "target", "filename", "new_path", "old_path",
}

// dirKeys are the members of a tool's input that name the folder it
// works in (Codex's shell, Gemini CLI's run_shell_command).
var dirKeys = []string{"workdir", "cwd", "dir_path", "directory"}

// commandKey is the member of a tool's input that holds a command, or the
// patch Codex's apply_patch applies.
const commandKey = "command"

// patchHeaders begin the lines of a patch in Codex's format that name a
// file it adds, changes, removes or moves a file to.
var patchHeaders = []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"}

// patchPaths returns the files the headers of a patch in Codex's format
// name, wherever they stand in text. Codex reads patches leniently (a
// header with space around it, a patch wrapped in a heredoc, text before
// "*** Begin Patch"), so every line that is a header once trimmed counts,
// patch or not: a line read as a header that is none can only make a
// call be asked about, never let one through.
//
// Codex takes the path as the rest of the line after the header and one
// space, spaces it begins with included; a path read that way and the
// same path trimmed are both returned when they differ, since one side
// cannot tell which the patch meant.
func patchPaths(text string) []string {
	var paths []string
	for raw := range strings.Lines(text) {
		// Codex reads a header line once its ending ("\n" or "\r\n") is
		// off and leading space trimmed, and takes the path as the rest
		// after the header and one space: with the line's trailing space
		// trimmed too for "Add", "Update" and "Delete", as it stands for
		// "Move to" (a trailing space or "\r" is then part of the path).
		line := strings.TrimLeftFunc(strings.TrimSuffix(strings.TrimSuffix(raw, "\n"), "\r"), unicode.IsSpace)
		for _, h := range patchHeaders {
			rest, ok := strings.CutPrefix(line, h)
			if !ok {
				continue
			}
			for _, p := range []string{
				strings.TrimSpace(rest),
				strings.TrimPrefix(strings.TrimRightFunc(rest, unicode.IsSpace), " "),
				strings.TrimPrefix(rest, " "),
			} {
				if !slices.Contains(paths, p) {
					paths = append(paths, p)
				}
			}
		}
	}
	return paths
}

// mayNameFile returns the files a string of a tool's input may name:
// none for text (several lines once trimmed), else the string when it
// looks like a path (it holds a slash, begins with ~ or a dot) or its key
// says it is one, and what a file: URI names. A server may trim the
// string, so the trimmed form counts as well as the string as sent; and
// it may tidy a path too long to open (".//" repeated) into one it can, so
// a long string is taken tidied, and dropped only when even that is longer
// than any path a system opens. A URL of another scheme (https://) is read
// as a path too: joined to a folder, "zz://../x" is one.
func mayNameFile(key, v string) []string {
	// A URL parser drops the spaces and control characters around a URL,
	// and the tabs and line breaks in it: a file: URI is read so too.
	if u := strings.TrimFunc(v, func(r rune) bool { return r <= ' ' || unicode.IsSpace(r) }); hasFilePrefix(u) {
		u = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, u)
		var out []string
		// And as a plain path, for a server that takes it as one.
		for _, p := range append(fileURIPaths(u), u) {
			if p, ok := openable(p); ok {
				out = append(out, p)
			}
		}
		return out
	}
	t := strings.TrimSpace(v)
	if t == "" || strings.ContainsAny(t, "\n\r") {
		return nil
	}
	forms := []string{t}
	if v != t && !strings.ContainsAny(v, "\n\r") {
		forms = append(forms, v)
	}
	k := strings.ToLower(key)
	byKey := slices.ContainsFunc(pathWords, func(w string) bool { return strings.Contains(k, w) })
	var out []string
	for _, f := range forms {
		if !byKey && !strings.ContainsAny(f, "/\\") && !strings.HasPrefix(f, "~") && !strings.HasPrefix(f, ".") {
			continue
		}
		if p, ok := openable(f); ok {
			out = append(out, p)
		}
	}
	return out
}

// fileURIPaths returns the files a file: URI may name, read the ways the
// runtimes MCP servers are written in read one: as a URL's path
// (file:///x, file://host/x), and, since Node resolves file:x and
// file:\\/x to /x, the rest with its slashes and backslashes trimmed, as an
// absolute path and as written; each percent-decoded too.
func fileURIPaths(s string) []string {
	rest, ok := cutPrefixFold(s, "file:")
	if !ok {
		return nil
	}
	// A URL parser reads a backslash in a file: URL as a slash.
	rest = strings.ReplaceAll(rest, "\\", "/")
	var out []string
	add := func(p string) {
		if p == "" {
			return
		}
		for _, q := range []string{p, unescaped(p)} {
			q = uriPath(q)
			if !slices.Contains(out, q) {
				out = append(out, q)
			}
		}
	}
	if u, err := url.Parse("file:" + rest); err == nil {
		add(u.Path)
	}
	bare := strings.TrimLeft(rest, "/")
	if i := strings.IndexAny(bare, "?#"); i >= 0 {
		bare = bare[:i]
	}
	add("/" + bare)
	if !strings.HasPrefix(rest, "/") {
		add(rest) // file:x, as a relative path
	}
	return out
}

// hasFilePrefix reports whether s begins with file:, in any case.
func hasFilePrefix(s string) bool {
	_, ok := cutPrefixFold(s, "file:")
	return ok
}

// unescaped is p with its percent escapes decoded, or p when they do not
// decode.
func unescaped(p string) string {
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}

// openable returns p, or p tidied when p is longer than maxNamedLen, and
// whether the result is short enough for a system to open.
func openable(p string) (string, bool) {
	if len(p) <= maxNamedLen {
		return p, true
	}
	p = filepath.Clean(p)
	return p, len(p) <= maxNamedLen
}

// uriPath is the file a file:// URI's path names: on Windows, /C:/x is
// C:\x.
func uriPath(p string) string {
	if runtime.GOOS == "windows" && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	return filepath.FromSlash(p)
}

// maxNamedLen is the longest path a system opens (Linux's PATH_MAX).
const maxNamedLen = 4096

// namesFolder reports whether key says its value names a folder.
func namesFolder(key string) bool {
	k := strings.ToLower(key)
	return slices.ContainsFunc(folderWords, func(w string) bool { return strings.Contains(k, w) })
}

// folderWords are the parts of a key that say its value names a folder;
// pathWords those that say it names a file, or a folder.
var (
	folderWords = []string{"dir", "folder", "root", "cwd", "base", "project", "workspace", "repo"}
	pathWords   = append([]string{"path", "file", "dest", "target", "source", "uri", "location", "name"}, folderWords...)
)

// cutPrefixFold is strings.CutPrefix, in any case of the prefix's letters.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// field names shared by the three agents' inputs.
const (
	fieldEvent    = "hook_event_name"
	fieldTool     = "tool_name"
	fieldToolIn   = "tool_input"
	fieldCwd      = "cwd"
	inputSubject  = "the hook input"
	inputFileName = "stdin"
)

// ReadInput reads one hook input for agent from r: exactly one JSON
// object with hook_event_name (the agent's pre-tool event), tool_name (a
// string naming a tool) and tool_input (an object, not null). cwd, when
// present, must be an absolute path; needCwd makes it required. The mode
// field of the agent's protocol is read when present. Every other field is
// ignored, as the agents add fields over time. Anything else is
// errs.KindInvalid naming each problem, read in bounded memory and depth.
func ReadInput(agent string, r io.Reader, needCwd bool) (Call, error) {
	p, ok := protocols[agent]
	if !ok {
		return Call{}, errs.New(errs.KindInternal, "no hook protocol for %q", agent)
	}
	jr := jsonread.New(r, jsonread.Options{Mode: jsonread.Lenient, Known: p.known, MaxBytes: MaxInputBytes, MaxDepth: MaxDepth})
	var c Call
	var problems []errs.Problem
	add := func(path, format string, a ...any) {
		problems = append(problems, errs.Problem{File: inputFileName, Path: path, Message: fmt.Sprintf(format, a...)})
	}
	fail := func(msg string) (Call, error) {
		if jr.TooLarge() {
			return Call{}, invalid(agent, errs.Problem{File: inputFileName, Message: fmt.Sprintf("larger than %d bytes", MaxInputBytes)})
		}
		return Call{}, invalid(agent, errs.Problem{File: inputFileName, Message: msg})
	}
	// failValue words a failure inside the value of key.
	failValue := func(key string, err error) (Call, error) {
		e := jsonread.ErrorOf(err)
		if e.Key != "" {
			key = e.Key
		}
		if e.Failure == jsonread.TooDeep {
			return fail(key + ": " + e.Err.Error())
		}
		return fail("not valid JSON: " + key + ": " + jsonread.ErrText(e.Err))
	}

	if err := jr.Open(); err != nil {
		switch e := jsonread.ErrorOf(err); e.Failure {
		case jsonread.Empty:
			return fail("nothing was given; expected one JSON object")
		case jsonread.NotObject:
			return fail("expected one JSON object, got " + jsonread.Describe(e.Token))
		default:
			return fail("not JSON: " + jsonread.ErrText(e.Err))
		}
	}
	// name notes a string of the tool's input that may name a file, under
	// key, for a tool the agent's table does not list.
	named := map[string]bool{}
	name := func(key, v string) {
		for _, n := range mayNameFile(key, v) {
			if named[n] {
				continue
			}
			if len(c.Named) == MaxNamed {
				c.NamedTooMany = true
				return
			}
			named[n] = true
			c.Named = append(c.Named, n)
			if namesFolder(key) {
				c.NamedDirs = append(c.NamedDirs, n)
			}
		}
	}
	var sawToolInput bool
	for {
		m, more, err := jr.Next()
		if err != nil {
			if e := jsonread.ErrorOf(err); e.Key != "" {
				return failValue(e.Key, err)
			}
			return fail("not valid JSON: " + jsonread.ErrText(jsonread.ErrorOf(err).Err))
		}
		if !more {
			break
		}
		key := m.Key
		if m.Repeat {
			add(key, "is given more than once")
		}
		if key == fieldToolIn {
			tok, err := jr.Token()
			if err != nil {
				return failValue(key, err)
			}
			sawToolInput = true
			d, isDelim := tok.(json.Delim)
			if isDelim && d == '{' {
				strs, err := jr.ObjectStringsEach(2, func(k string) bool {
					return slices.Contains(pathKeys, k) || slices.Contains(dirKeys, k) || k == commandKey
				}, name)
				if err != nil {
					return failValue(key, err)
				}
				for _, k := range pathKeys {
					c.Paths = append(c.Paths, strs[k]...)
					// Read as any other string too: trimmed, a file://
					// URI as its path, for a tool the table does not list.
					for _, v := range strs[k] {
						name(k, v)
					}
				}
				for _, k := range dirKeys {
					c.Dirs = append(c.Dirs, strs[k]...)
				}
				for _, cmd := range strs[commandKey] {
					c.Paths = append(c.Paths, patchPaths(cmd)...)
					// A tool the table does not list may write where a
					// word of its command says.
					for _, w := range strings.Fields(cmd) {
						name(commandKey, w)
					}
				}
				continue
			}
			kind := jsonread.Describe(tok)
			if isDelim {
				if kind, err = jr.SkipRest(d, 2); err != nil {
					return failValue(key, err)
				}
			}
			add(key, "must be an object, got %s", kind)
			continue
		}
		vt, err := jr.Token()
		if err != nil {
			return fail("not valid JSON: " + jsonread.ErrText(jsonread.ErrorOf(err).Err))
		}
		if p.mcpField != "" && key == p.mcpField {
			// null is no context, as the agent's types have it (an object,
			// or the field left out); any other value counts.
			c.MCP = vt != nil
			if d, ok := vt.(json.Delim); ok {
				if _, err := jr.SkipRest(d, 2); err != nil {
					return failValue(key, err)
				}
			}
			continue
		}
		s, isString := vt.(string)
		if !isString {
			if d, ok := vt.(json.Delim); ok {
				if _, err := jr.SkipRest(d, 2); err != nil {
					return failValue(key, err)
				}
			}
			add(key, "must be a string, got %s", jsonread.Describe(vt))
			continue
		}
		switch key {
		case fieldEvent:
			c.Event = s
		case fieldTool:
			c.Tool = s
		case fieldCwd:
			c.Cwd = s
		case p.modeField:
			c.Mode = s
		}
	}
	if err := jr.Close(); err != nil {
		if e := jsonread.ErrorOf(err); e.Failure == jsonread.Trailing && !jr.TooLarge() {
			return fail("more than one JSON value; expected exactly one object")
		}
		return fail("not valid JSON: " + jsonread.ErrText(jsonread.ErrorOf(err).Err))
	}
	if jr.TooLarge() {
		return fail("too large")
	}

	switch {
	case !jr.Seen(fieldEvent):
		add(fieldEvent, "is missing; expected %q", p.event)
	case c.Event != "" && c.Event != p.event:
		add(fieldEvent, "is %q; this hook answers %s only", c.Event, p.event)
	case c.Event == "" && !hasPath(problems, fieldEvent):
		add(fieldEvent, "is empty; expected %q", p.event)
	}
	switch {
	case !jr.Seen(fieldTool):
		add(fieldTool, "is missing")
	case hasPath(problems, fieldTool):
	case strings.TrimSpace(c.Tool) == "" || strings.TrimSpace(c.Tool) != c.Tool:
		add(fieldTool, "%q is not a tool name", c.Tool)
	}
	if !sawToolInput {
		add(fieldToolIn, "is missing")
	}
	switch {
	case hasPath(problems, fieldCwd):
	case !jr.Seen(fieldCwd) && needCwd:
		add(fieldCwd, "is missing, and no profile was named: the profiles are resolved from the agent's working folder")
	case jr.Seen(fieldCwd) && !filepath.IsAbs(c.Cwd):
		add(fieldCwd, "%q is not an absolute path", c.Cwd)
	}
	if len(problems) > 0 {
		return Call{}, invalid(agent, problems...)
	}
	return c, nil
}

func invalid(agent string, problems ...errs.Problem) error {
	e := errs.InvalidProblems(inputSubject+" from "+agent, problems)
	return e
}

func hasPath(problems []errs.Problem, path string) bool {
	for _, p := range problems {
		if p.Path == path {
			return true
		}
	}
	return false
}
