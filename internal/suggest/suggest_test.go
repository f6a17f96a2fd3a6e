package suggest

import (
	"strings"
	"testing"
)

func TestKey(t *testing.T) {
	known := []string{"name", "description", "auto_apply", "auto_execute", "require_sandbox", "max_retries_per_step"}
	tests := []struct{ in, want string }{
		{"auto_aply", "auto_apply"},
		{"auto-apply", "auto_apply"},
		{"Auto_Apply", "auto_apply"},
		{"requre_sandbox", "require_sandbox"},
		{"max_retry_per_step", "max_retries_per_step"},
		{"nmae", "name"},
		{"names", "name"},
		{"descripton", "description"},
		{"base", ""},
		{"x", ""},
		{"totally_unrelated", ""},
		{strings.Repeat("a", 100), ""},
		// Whole words at the start of one known key, or one known key
		// at the start of what was typed.
		{"max_retries", "max_retries_per_step"},
		{"max-retries", "max_retries_per_step"},
		{"auto", ""}, // begins two keys
		{"require", "require_sandbox"},
		{"max_ret", ""}, // not whole words
		{"description_text", "description"},
		{"name_of_it", "name"},
	}
	for _, tt := range tests {
		if got := Key(tt.in, known); got != tt.want {
			t.Errorf("Key(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	for in, want := range map[string]string{
		"safety":         "safety_profile",
		"max_cost":       "max_cost_per_plan",
		"safety_profile": "safety",
	} {
		known := []string{"automation_profile", "safety_profile", "max_cost_per_plan", "max_total_cost"}
		if in == "safety_profile" {
			known = []string{"name", "safety", "guards"}
		}
		if got := Key(in, known); got != want {
			t.Errorf("Key(%q, %v) = %q, want %q", in, known, got, want)
		}
	}
}

func TestName(t *testing.T) {
	candidates := []string{"manual", "review", "cautious", "acme/strict", "acme/strict-ci", "team/deploy"}
	tests := []struct{ in, want string }{
		{"Manual", "manual"},
		{"deploy", "team/deploy"},
		{"reveiw", "review"},
		{"acme/strct", "acme/strict"},
		{"team/dep", "team/deploy"},
		{"x", ""},
		{"", ""},
		{"strict", "acme/strict"}, // a name without its namespace
		{"manual", ""},            // never the name itself
		{"team/deploy", ""},
		// In a shared namespace, only the parts after the slash count:
		// three edits in four letters are not a slip.
		{"acme/nope", ""},
		{"acme/strictt", "acme/strict"},
		{"acme/stirct-ci", "acme/strict-ci"},
		{"acne/strict", "acme/strict"},
	}
	for _, tt := range tests {
		if got := Name(tt.in, candidates); got != tt.want {
			t.Errorf("Name(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := Name("acme/nope", []string{"acme/com0"}); got != "" {
		t.Errorf("Name(acme/nope) = %q, want none", got)
	}
	if got := Name(strings.Repeat("a", 201), []string{strings.Repeat("a", 201)}); got != "" {
		t.Errorf("a very long name is suggested %q", got)
	}
}
