// Package errs defines the typed errors that every layer of agents returns and
// that the command layer maps, in one place, to exit codes and JSON error codes.
package errs

import (
	"errors"
	"fmt"
	"strings"
)

// Kind classifies an error by what the user must do about it.
type Kind int

// The kinds of error, each with its own exit code (see internal/cli).
const (
	KindInternal    Kind = iota // unexpected failure: I/O, a bug
	KindUsage                   // a bad flag, argument or format
	KindInvalid                 // input that fails parsing or validation
	KindNotFound                // a profile, action, plan or file that does not exist
	KindConflict                // a name that exists, or a built-in that cannot change
	KindSafetyPack              // the safety pack refused to load or verify
	KindLocked                  // the store lock was not acquired in time
	KindInterrupted             // the user interrupted the command
	KindUnavailable             // the store's server is unreachable or dropped the connection
	KindPermission              // the store refused a change to the role or account used
	KindApproval                // a decision, already answered: a person must approve
	KindBlocked                 // a decision, already answered: blocked, no approval unblocks it
)

// Code is the stable machine-readable name of the kind, used in JSON errors.
func (k Kind) Code() string {
	switch k {
	case KindUsage:
		return "usage"
	case KindInvalid:
		return "invalid"
	case KindNotFound:
		return "not_found"
	case KindConflict:
		return "conflict"
	case KindSafetyPack:
		return "safety_pack"
	case KindLocked, KindUnavailable:
		// One code for each exit code: 75 says "retry", whether a lock
		// or the store's server kept the command from finishing; the
		// message says which.
		return "locked"
	case KindInterrupted:
		return "interrupted"
	case KindPermission:
		return "permission"
	case KindApproval:
		return "approval"
	case KindBlocked:
		return "blocked"
	default:
		return "internal"
	}
}

// Problem is one thing wrong with an input file, located by its field path.
type Problem struct {
	File    string `json:"file,omitempty"`
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

// String formats the problem as "file:line: path: message", leaving out what
// is unknown.
func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
		}
		b.WriteString(": ")
	}
	if p.Path != "" {
		b.WriteString(p.Path)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Error is an error with a kind, an optional hint saying how to fix it,
// optional problems (one per field) for invalid input, and an optional
// subject saying what it is about.
type Error struct {
	Kind     Kind
	Msg      string
	Hint     string
	Problems []Problem
	// Subject, when set, says in the domain's terms what the error is
	// about, so that the command layer can add the hint that names its
	// flags and commands: below the command layer, nothing names them.
	Subject Subject
	Err     error // wrapped cause, may be nil
	// untold keeps Err out of the message: a cause errors.Is finds but
	// that says, in Go's words, only what Msg says already.
	untold bool
}

// Subject is what an error is about: what kind of thing, which one, and
// what else a hint needs to say.
type Subject struct {
	About  About
	Name   string
	Detail string
}

// About names the kinds of thing an error can be about, for the command
// layer's hints.
type About string

// What errors are about. Name and Detail say what each carries.
const (
	// AboutProfile, AboutAction and AboutPlan: a document not found or
	// already there (Name its name or id).
	AboutProfile About = "profile"
	AboutAction  About = "action"
	AboutPlan    About = "plan"
	// AboutUnreadable: a stored document that cannot be read, so it is
	// not removed (Name what it is, "profile"; Detail its file, if any).
	AboutUnreadable About = "unreadable"
	// AboutHome: the agents home is missing (Detail ""), not a folder
	// (Detail "not a folder"), or cannot be reached because it, or a
	// folder on the way to it, is a link to nothing (Detail
	// DetailDanglingLink; see DanglingHome) or a loop of links (Detail
	// DetailLinkLoop; see LoopedHome).
	AboutHome About = "home"
	// AboutLock: the store's lock was held past the lock timeout.
	AboutLock About = "lock"
	// AboutSchema: the PostgreSQL schema was never migrated (Detail
	// "missing"), is older than this build (Detail "old"), or may not be
	// created by the role (Detail "create"; Name the schema).
	AboutSchema About = "schema"
	// AboutCopy: a copy would replace the target's content.
	AboutCopy About = "copy"
	// AboutLevel: a profile named at a level does not exist (Name the
	// level, Detail the file or action that set it, if any).
	AboutLevel About = "level"
	// AboutPlanRecord: a plan's record does not verify against its
	// snapshots (Name the plan id, Detail its automation profile).
	AboutPlanRecord About = "plan record"
	// AboutPlanRemake: a plan the store vouches for no version of (no
	// history, or one that ends with no version kept), so its own
	// choices come only from a record nobody vouches for: the person must
	// vouch for them, or make the plan again (Name the plan id, Detail its
	// action).
	AboutPlanRemake About = "plan remake"
	// AboutPackSeal: a pack that fails its seal (Name the pack file).
	AboutPackSeal About = "pack seal"
	// AboutPackFile: a malformed pack file (Name the file; Detail
	// "mastery_report_sha256" when that field is the problem).
	AboutPackFile About = "pack file"
	// AboutUntrustedProject: a project's agents.yaml a hook may not use
	// (Name the folder, Detail the file).
	AboutUntrustedProject About = "untrusted project"
	// AboutRemovedProjectFile: a trusted project's pinned agents.yaml is
	// gone (Name is the folder).
	AboutRemovedProjectFile About = "removed project file"
	// AboutUnrecordedProfile: a stored custom profile (Name) whose content
	// its history never recorded.
	AboutUnrecordedProfile About = "unrecorded profile"
	// AboutHomeChange: a change to the agents home (Name) that the file
	// system may have refused.
	AboutHomeChange About = "home change"
	// AboutProjectOwner: a project's agents.yaml owned or writable by
	// someone else (Name the folder; Detail DetailTrusting when it was
	// refused to 'project trust').
	AboutProjectOwner About = "project owner"
	// AboutActionProfile: an action names a profile that does not exist.
	AboutActionProfile About = "action profile"
	// AboutWorkingDir: the working directory, where a project is looked
	// for, cannot be told.
	AboutWorkingDir About = "working directory"
	// AboutProjectFolder: a project folder that does not exist (Name the
	// folder; Detail DetailTrusting when it was named to 'project trust').
	AboutProjectFolder About = "project folder"
	// AboutContextFile: a context file for a safety pack check that does
	// not exist (Name the file).
	AboutContextFile About = "context file"
)

// DetailDanglingLink is the Detail of an AboutHome error for a home
// behind a link that leads to nothing; DetailLinkLoop, for one behind a
// link that leads back to itself, or through too many links.
const (
	DetailDanglingLink = "dangling link"
	DetailLinkLoop     = "link loop"
)

// LoopedHome is the usage error for an agents home that cannot be reached,
// nor created, because it, or a folder on the way to it, is a link that
// leads back to itself, or through too many links (err).
func LoopedHome(home string, err error) *Error {
	return &Error{
		Kind:    KindUsage,
		Msg:     fmt.Sprintf("the agents home %s cannot be reached: it, or a folder on the way to it, is a link that leads back to itself, or through too many links", home),
		Err:     err,
		untold:  true,
		Subject: Subject{About: AboutHome, Name: home, Detail: DetailLinkLoop},
	}
}

// DanglingHome is the usage error for an agents home that cannot be
// reached, nor created, because it, or a folder on the way to it (link),
// is a link to target, which does not exist.
func DanglingHome(home, link, target string) *Error {
	if link == home {
		return Usage("the agents home %s is a link to %s, a folder that does not exist", home, target).
			About(AboutHome, home, DetailDanglingLink)
	}
	return Usage("the agents home %s cannot be reached: %s, on the way to it, is a link to %s, which does not exist", home, link, target).
		About(AboutHome, home, DetailDanglingLink)
}

// DetailTrusting is the Detail of an AboutProjectOwner refusal met while
// trusting the project, where naming the folder explicitly does not help.
const DetailTrusting = "trusting"

// About returns e with its subject set.
func (e *Error) About(about About, name string, detail ...string) *Error {
	e.Subject = Subject{About: about, Name: name, Detail: strings.Join(detail, "")}
	return e
}

func (e *Error) Error() string {
	switch {
	case e.Msg != "" && e.Err != nil && !e.untold:
		return e.Msg + ": " + e.Err.Error()
	case e.Msg != "":
		return e.Msg
	case e.Err != nil:
		return e.Err.Error()
	}
	return e.Kind.Code()
}

// Unwrap returns the wrapped cause.
func (e *Error) Unwrap() error { return e.Err }

// WithHint returns e with its hint set.
func (e *Error) WithHint(format string, a ...any) *Error {
	e.Hint = fmt.Sprintf(format, a...)
	return e
}

// New returns an error of the given kind.
func New(k Kind, format string, a ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, a...)}
}

// Wrap returns an error of the given kind that wraps err with a message.
func Wrap(k Kind, err error, format string, a ...any) *Error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, a...), Err: err}
}

// Interrupted returns an error of KindInterrupted saying what was
// interrupted. cause, the context's error, stays in the chain for
// errors.Is, but out of the message: "context canceled" is Go's way of
// saying "interrupted", which the message says already.
func Interrupted(cause error, format string, a ...any) *Error {
	return &Error{Kind: KindInterrupted, Msg: fmt.Sprintf(format, a...), Err: cause, untold: true}
}

// Usage returns a usage error.
func Usage(format string, a ...any) *Error { return New(KindUsage, format, a...) }

// Invalid returns an invalid-input error.
func Invalid(format string, a ...any) *Error { return New(KindInvalid, format, a...) }

// NotFound returns a not-found error.
func NotFound(format string, a ...any) *Error { return New(KindNotFound, format, a...) }

// Conflict returns a conflict error.
func Conflict(format string, a ...any) *Error { return New(KindConflict, format, a...) }

// InvalidProblems returns an invalid-input error listing problems; its message
// summarises them.
func InvalidProblems(subject string, problems []Problem) *Error {
	msg := subject + " is invalid"
	if n := len(problems); n == 1 {
		msg += ": " + problems[0].String()
	} else if n > 1 {
		msg += fmt.Sprintf(" (%d problems)", n)
	}
	return &Error{Kind: KindInvalid, Msg: msg, Problems: problems}
}

// Decision is what a decision command returns once it has printed an
// answer that does not allow the step: its kind (KindApproval or
// KindBlocked) sets the exit status, and it is not printed, since the
// answer already says everything.
type Decision struct{ Kind Kind }

// Error names the decision's kind; it is never printed.
func (d *Decision) Error() string { return "decision: " + d.Kind.Code() }

// KindOf reports the kind of err: that of the outermost *Error or
// *Decision in its chain, or KindInternal.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	var d *Decision
	if errors.As(err, &d) {
		return d.Kind
	}
	return KindInternal
}

// Is reports whether err is an *Error of kind k.
func Is(err error, k Kind) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == k
}

// DidYouMean returns err with its hint replaced by "did you mean ...?" when
// suggestion is not empty. err must be an *Error; anything else is
// returned as it is.
func DidYouMean(err error, suggestion string) error {
	var e *Error
	if suggestion == "" || !errors.As(err, &e) {
		return err
	}
	c := *e
	c.Hint = fmt.Sprintf("did you mean %q?", suggestion)
	return &c
}
