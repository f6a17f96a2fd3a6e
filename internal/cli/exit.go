package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentsctl/agents/internal/canon"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/render"
	"github.com/agentsctl/agents/internal/storeurl"
)

// Exit codes. This table is the only place they are defined; docs/exit-codes.md
// and the root help text describe it.
const (
	ExitOK          = 0
	ExitFailure     = 1
	ExitUsage       = 2
	ExitInvalid     = 3
	ExitNotFound    = 4
	ExitConflict    = 5
	ExitSafetyPack  = 6
	ExitPermission  = 7
	ExitApproval    = 10
	ExitBlocked     = 11
	ExitLocked      = 75
	ExitInterrupted = 130
)

// ExitStatusHelp is the EXIT STATUS section of the root help.
const ExitStatusHelp = `EXIT STATUS
  0    success; for check-gate and check-guard: allowed, automatic
  1    unexpected failure (I/O error, bug)
  2    usage: bad flag, argument or format; remove without --yes when it cannot
       prompt; in a hook (check-guard --hook), every failure, so that it blocks
  3    invalid input: a profile, action or config fails parsing or validation
  4    not found: profile, action, plan, or a file named on the command line
  5    conflict: the name exists (use --update), or a built-in cannot be changed
       (add, and validate of a file naming a built-in)
  6    safety pack refused (missing, malformed, unratified, tampered, looser
       than the shipped or the system pack): no decision or plan is made
       under it; or a boundary in enforce mode is violated
  7    permission denied: the store refused a change to the database role
       used (a read-only role); reading still works
  10   check-*: requires human approval
  11   check-*: blocked, and no approval can unblock it
  75   the store is locked by another writer past --lock-timeout, or its
       server is unreachable or dropped the connection: nothing was
       half-written (retry)
  130  interrupted`

// exitCode maps an error to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	switch errs.KindOf(err) {
	case errs.KindUsage:
		return ExitUsage
	case errs.KindInvalid:
		return ExitInvalid
	case errs.KindNotFound:
		return ExitNotFound
	case errs.KindConflict:
		return ExitConflict
	case errs.KindSafetyPack:
		return ExitSafetyPack
	case errs.KindLocked, errs.KindUnavailable:
		return ExitLocked
	case errs.KindPermission:
		return ExitPermission
	case errs.KindInterrupted:
		return ExitInterrupted
	case errs.KindApproval:
		return ExitApproval
	case errs.KindBlocked:
		return ExitBlocked
	}
	return ExitFailure
}

type jsonProblem struct {
	File    string `json:"file"`
	Path    string `json:"path"`
	Message string `json:"message"`
}

type jsonError struct {
	Code     string        `json:"code"`
	Message  string        `json:"message"`
	Hint     string        `json:"hint,omitempty"`
	Problems []jsonProblem `json:"problems,omitempty"`
}

// printError writes err to w: as one line of JSON when format is json, as
// one YAML document with the same fields when it is yaml, otherwise as
// "agents: error: ..." lines with the problems and a hint. In every
// format, the password of any store URL or connection string the message,
// the hint or a problem quotes is masked (storeurl.RedactText): a URL
// typed where a name, a file or a value belongs is quoted back.
func printError(w io.Writer, format string, err error) {
	var e *errs.Error
	errors.As(err, &e)
	code := errs.KindOf(err).Code()
	msg := storeurl.RedactText(err.Error())
	var hint string
	var problems []errs.Problem
	if e != nil {
		hint = e.Hint
		if hint == "" {
			hint = hintFor(e)
		}
		hint = storeurl.RedactText(hint)
		for _, p := range e.Problems {
			p.File, p.Path, p.Message = storeurl.RedactValue(p.File), storeurl.RedactValue(p.Path), storeurl.RedactText(p.Message)
			problems = append(problems, p)
		}
	}
	if format == "json" || format == "yaml" {
		je := jsonError{Code: code, Message: msg, Hint: hint}
		for _, p := range problems {
			// The shape is the design's: file, path, message. A problem
			// of the file as a whole (no path) found at a line says the
			// line in its message; path stays a field's path, or "".
			msg := p.Message
			if p.Path == "" && p.Line > 0 {
				msg = fmt.Sprintf("line %d: %s", p.Line, msg)
			}
			je.Problems = append(je.Problems, jsonProblem{File: p.File, Path: p.Path, Message: msg})
		}
		doc := map[string]jsonError{"error": je}
		if format == "yaml" {
			if b, mErr := canon.YAML(doc); mErr == nil {
				_, _ = w.Write(b)
				return
			}
		} else if b, mErr := canon.CompactJSON(doc); mErr == nil {
			// One line, <, > and & as they are, like every other JSON
			// agents prints (a usage hint is full of <id>).
			// A C1 or bidirectional control in a value stays data, escaped,
			// rather than something the terminal acts on.
			fmt.Fprintf(w, "%s\n", canon.Escaped(b))
			return
		}
	}
	fmt.Fprintf(w, "agents: error: %s\n", render.Escape(msg))
	if len(problems) > 1 || (len(problems) == 1 && !strings.Contains(msg, problems[0].Message)) {
		for _, p := range problems {
			fmt.Fprintf(w, "  %s\n", render.Escape(p.String()))
		}
	}
	if hint != "" {
		fmt.Fprintf(w, "agents: hint: %s\n", render.Escape(hint))
	}
}
