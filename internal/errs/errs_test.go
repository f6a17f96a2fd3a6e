package errs

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestKindOfWrapped(t *testing.T) {
	err := fmt.Errorf("context: %w", NotFound("profile %q not found", "a/b"))
	if KindOf(err) != KindNotFound || !Is(err, KindNotFound) || Is(err, KindInvalid) {
		t.Errorf("kind of wrapped error = %v", KindOf(err))
	}
	if KindOf(fmt.Errorf("plain")) != KindInternal {
		t.Error("a plain error is not internal")
	}
}

func TestCodes(t *testing.T) {
	want := map[Kind]string{
		KindInternal: "internal", KindUsage: "usage", KindInvalid: "invalid", KindNotFound: "not_found",
		KindConflict: "conflict", KindSafetyPack: "safety_pack", KindLocked: "locked", KindInterrupted: "interrupted",
		KindUnavailable: "locked", KindPermission: "permission",
	}
	for k, code := range want {
		if k.Code() != code {
			t.Errorf("%d.Code() = %q, want %q", k, k.Code(), code)
		}
	}
}

func TestInvalidProblemsMessage(t *testing.T) {
	one := InvalidProblems("a.yaml", []Problem{{File: "a.yaml", Line: 3, Path: "auto_apply", Message: "must be between 0 and 1"}})
	if got := one.Error(); got != "a.yaml is invalid: a.yaml:3: auto_apply: must be between 0 and 1" {
		t.Errorf("one problem: %q", got)
	}
	two := InvalidProblems("a.yaml", []Problem{{Message: "x"}, {Message: "y"}})
	if got := two.Error(); got != "a.yaml is invalid (2 problems)" {
		t.Errorf("two problems: %q", got)
	}
}

func TestWrapMessage(t *testing.T) {
	err := Wrap(KindInternal, fmt.Errorf("disk full"), "write %s", "f")
	if err.Error() != "write f: disk full" {
		t.Errorf("got %q", err.Error())
	}
}

func TestInterruptedMessage(t *testing.T) {
	err := Interrupted(context.Canceled, "interrupted while waiting for %s", "the lock")
	if err.Error() != "interrupted while waiting for the lock" {
		t.Errorf("got %q", err.Error())
	}
	if !errors.Is(err, context.Canceled) || KindOf(err) != KindInterrupted {
		t.Errorf("%v: the cause or the kind is lost", err)
	}
	// A copy, as DidYouMean makes, keeps the cause out of the message too.
	if c := *err; c.Error() != err.Error() {
		t.Errorf("copy: %q", c.Error())
	}
}
