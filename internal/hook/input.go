package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
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
	cr := &countingReader{r: io.LimitReader(r, MaxInputBytes+1)}
	dec := json.NewDecoder(cr)
	dec.UseNumber()
	var c Call
	var problems []errs.Problem
	add := func(path, format string, a ...any) {
		problems = append(problems, errs.Problem{File: inputFileName, Path: path, Message: fmt.Sprintf(format, a...)})
	}
	fail := func(err error) (Call, error) {
		if cr.n > MaxInputBytes {
			return Call{}, invalid(agent, errs.Problem{File: inputFileName, Message: fmt.Sprintf("larger than %d bytes", MaxInputBytes)})
		}
		return Call{}, invalid(agent, errs.Problem{File: inputFileName, Message: err.Error()})
	}

	tok, err := dec.Token()
	switch {
	case errors.Is(err, io.EOF):
		return fail(errors.New("nothing was given; expected one JSON object"))
	case err != nil:
		return fail(fmt.Errorf("not JSON: %s", jsonErr(err)))
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fail(fmt.Errorf("expected one JSON object, got %s", tokenKind(tok)))
	}
	seen := map[string]bool{}
	var sawToolInput bool
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return fail(fmt.Errorf("not valid JSON: %s", jsonErr(err)))
		}
		key, _ := kt.(string)
		wanted := key == fieldEvent || key == fieldTool || key == fieldToolIn || key == fieldCwd || key == p.modeField
		if wanted && seen[key] {
			add(key, "is given more than once")
		}
		seen[key] = true
		if !wanted || key == fieldToolIn {
			kind, err := skipValue(dec, 1)
			if err != nil {
				return fail(valueErr(key, err))
			}
			if key == fieldToolIn {
				sawToolInput = true
				if kind != "an object" {
					add(key, "must be an object, got %s", kind)
				}
			}
			continue
		}
		vt, err := dec.Token()
		if err != nil {
			return fail(fmt.Errorf("not valid JSON: %s", jsonErr(err)))
		}
		s, isString := vt.(string)
		if !isString {
			if d, ok := vt.(json.Delim); ok {
				if _, err := skipOpened(dec, d, 2); err != nil {
					return fail(valueErr(key, err))
				}
			}
			add(key, "must be a string, got %s", tokenKind(vt))
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
	if _, err := dec.Token(); err != nil {
		return fail(fmt.Errorf("not valid JSON: %s", jsonErr(err)))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if cr.n > MaxInputBytes {
			return fail(err)
		}
		return fail(errors.New("more than one JSON value; expected exactly one object"))
	}
	if cr.n > MaxInputBytes {
		return fail(errors.New("too large"))
	}

	switch {
	case !seen[fieldEvent]:
		add(fieldEvent, "is missing; expected %q", p.event)
	case c.Event != "" && c.Event != p.event:
		add(fieldEvent, "is %q; this hook answers %s only", c.Event, p.event)
	case c.Event == "" && !hasPath(problems, fieldEvent):
		add(fieldEvent, "is empty; expected %q", p.event)
	}
	switch {
	case !seen[fieldTool]:
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
	case !seen[fieldCwd] && needCwd:
		add(fieldCwd, "is missing, and no profile was named: the profiles are resolved from the agent's working folder")
	case seen[fieldCwd] && !filepath.IsAbs(c.Cwd):
		add(fieldCwd, "%q is not an absolute path", c.Cwd)
	}
	if len(problems) > 0 {
		return Call{}, invalid(agent, problems...)
	}
	return c, nil
}

// errTooDeep is the nesting refusal, told apart from broken JSON.
var errTooDeep = fmt.Errorf("nested more than %d levels deep", MaxDepth)

func valueErr(key string, err error) error {
	if errors.Is(err, errTooDeep) {
		return fmt.Errorf("%s: %w", key, err)
	}
	return fmt.Errorf("not valid JSON: %s: %w", key, err)
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

// skipValue reads one whole JSON value from dec, at the given depth,
// without keeping it, and says what kind of value it was.
func skipValue(dec *json.Decoder, depth int) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", errors.New(jsonErr(err))
	}
	if d, ok := tok.(json.Delim); ok {
		return skipOpened(dec, d, depth+1)
	}
	return tokenKind(tok), nil
}

// skipOpened reads the rest of an object or array whose opening delimiter
// was just read, refusing nesting past MaxDepth.
func skipOpened(dec *json.Decoder, open json.Delim, depth int) (string, error) {
	if depth > MaxDepth {
		return "", errTooDeep
	}
	kind := "an object"
	if open == '[' {
		kind = "an array"
	}
	for dec.More() {
		if open == '{' {
			if _, err := dec.Token(); err != nil { // the key
				return "", errors.New(jsonErr(err))
			}
		}
		if _, err := skipValue(dec, depth); err != nil {
			return "", err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return "", errors.New(jsonErr(err))
	}
	return kind, nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func jsonErr(err error) string {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "it ends too early"
	}
	return err.Error()
}

func tokenKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '[':
			return "an array"
		case '{':
			return "an object"
		}
	case string:
		return "a string"
	case json.Number:
		return "the number " + t.String()
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "something else"
}
