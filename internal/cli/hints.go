package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/plan"
)

// hintFor is the hint of an error that has none of its own, by its kind
// and what it is about: the one place that says which flag or command
// fixes what the packages below the command line report in their own
// terms (see errs.Subject). "" when there is nothing to suggest.
func hintFor(e *errs.Error) string {
	if h := fileSystemHint(e); h != "" {
		return h
	}
	s := e.Subject
	switch s.About {
	case errs.AboutProfile, errs.AboutAction:
		switch e.Kind {
		case errs.KindConflict:
			return "pass --update to replace it"
		case errs.KindNotFound:
			return listHint(s.About)
		}
	case errs.AboutPlan:
		// A plan id is never replaced: a conflict has nothing to suggest.
		if e.Kind != errs.KindConflict {
			return listHint(s.About)
		}
	case errs.AboutWorkingDir:
		return "pass --project DIR"
	case errs.AboutUnreadable:
		if s.Detail != "" {
			return fmt.Sprintf("replace it with a valid %s (add --update), or delete %s by hand", s.Name, s.Detail)
		}
		return fmt.Sprintf("replace it with a valid %s (add --update)", s.Name)
	case errs.AboutHome:
		switch s.Detail {
		case errs.DetailDanglingLink:
			return "create the folder the link leads to, or pass --home or set AGENTS_HOME to a real folder"
		case errs.DetailLinkLoop:
			return "replace the link with the folder it should lead to, or pass --home or set AGENTS_HOME to a real folder"
		}
		if s.Detail != "" {
			return "pass --home or set AGENTS_HOME to a folder"
		}
		return "pass --home or set AGENTS_HOME"
	case errs.AboutLock:
		return "retry when the other command has finished, or raise --lock-timeout"
	case errs.AboutSchema:
		switch s.Detail {
		case "missing":
			return "run 'agents store migrate' once, with a role that may create the schema and its tables"
		case "old":
			return "run 'agents store migrate' to bring it up to date (agents of older versions then refuse it until upgraded)"
		case "create":
			return fmt.Sprintf("run 'agents store migrate' as the schema's owner, or a role that may create schema %q (see docs/postgres.md)", s.Name)
		}
	case errs.AboutCopy:
		return "pass --force to replace the target's versions with the source's (the target's history keeps its own)"
	case errs.AboutLevel:
		return levelHint(s.Name, s.Detail) + ", or register the profile with 'agents automation-profile add'"
	case errs.AboutPlanRecord:
		return fmt.Sprintf("'agents plan record %s' records it afresh from the version the store wrote; 'agents plan set-automation-profile %s %s' does so under a profile of your choice", s.Name, s.Name, s.Detail)
	case errs.AboutPlanRemake:
		return fmt.Sprintf("read its action, project_dir and own choices (levels.plan) with 'agents plan show %s'; if they are yours, 'agents plan record %s --yes' records it afresh; else make the plan again with 'agents plan use %s'", s.Name, s.Name, s.Detail)
	case errs.AboutPackSeal:
		return fmt.Sprintf("review the pack and its report; if every change is intended, run 'agents safety-pack ratify %s'", s.Name)
	case errs.AboutPackFile:
		if s.Detail == "mastery_report_sha256" {
			return `set mastery_report_sha256 to "" (every pack starts from the empty string; ratify fills it in), fix any other problem, then run 'agents safety-pack ratify ` + s.Name + "'"
		}
		return "fix the pack, then run 'agents safety-pack ratify " + s.Name + "'"
	case errs.AboutUntrustedProject:
		return fmt.Sprintf("read %s, then trust the project with 'agents project trust %s', or name a profile in the hook command", s.Detail, s.Name)
	case errs.AboutUnrecordedProfile:
		return fmt.Sprintf("if the file says what is meant, record it: 'agents automation-profile show %[1]s -f yaml > p.yaml', then 'agents automation-profile add -c p.yaml --update'; to undo it, 'agents automation-profile history %[1]s' lists the versions recorded", s.Name)
	case errs.AboutRemovedProjectFile:
		return fmt.Sprintf("put the file back, or trust the folder as it is now with 'agents project trust %s', or name a profile in the hook command", s.Name)
	case errs.AboutProjectOwner:
		if s.Detail == errs.DetailTrusting {
			return "make the file and its folder yours and writable by you alone (chown, chmod go-w), then trust the project again"
		}
		return fmt.Sprintf("if the file is meant, make it and its folder yours and writable by you alone (chown, chmod go-w), or name the folder explicitly with --project %s", s.Name)
	case errs.AboutProjectFolder:
		if s.Detail == errs.DetailTrusting {
			return "name an existing folder, or run 'agents project trust' in the project's folder"
		}
		return "check the folder --project names, or leave --project out"
	case errs.AboutContextFile:
		return "check the path --context names: a JSON file of the context's fields (see 'agents safety-pack check --help')"
	case errs.AboutActionProfile:
		return "register the profile first ('agents automation-profile add'), or name one of 'agents automation-profile list'"
	}
	return ""
}

// listHint says how to see the documents of a kind.
func listHint(about errs.About) string {
	switch about {
	case errs.AboutProfile:
		return "run 'agents automation-profile list' to see the profiles"
	case errs.AboutAction:
		return "run 'agents action list' to see the actions"
	}
	return "run 'agents plan list' to see the plans"
}

// levelHint says how to change what a level names; source is the file or
// action that set it there, if any.
func levelHint(level, source string) string {
	switch level {
	case plan.LevelPlan:
		return "choose another profile with 'agents plan set-automation-profile'"
	case plan.LevelAction:
		return "change automation_profile in the action and run 'agents action add --update -c FILE'"
	}
	if source != "" {
		return "change automation_profile in " + source
	}
	return "change automation_profile at the " + level + " level"
}

// fileSystemHint is the hint of a change to the agents home that the file
// system refused: full, read-only, or not the user's to write.
func fileSystemHint(e *errs.Error) string {
	if e.Kind != errs.KindInternal || e.Subject.About != errs.AboutHomeChange {
		return ""
	}
	switch {
	case errors.Is(e, syscall.ENOSPC):
		return "the file system of the agents home is full: free some space, or pass --home (or set AGENTS_HOME) to a folder on another one; nothing was half-written"
	case errors.Is(e, syscall.EROFS):
		return "the agents home is on a read-only file system: pass --home (or set AGENTS_HOME) to a folder you can write; nothing was changed"
	case errors.Is(e, fs.ErrPermission):
		return "you may not write there: run agents as the user who owns the agents home, or pass --home (or set AGENTS_HOME) to a folder of your own; nothing was changed"
	}
	return ""
}
