package storeurl

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://u:s3cret@db.example.com:5432/agents?sslmode=verify-full", "postgres://u:xxxxx@db.example.com:5432/agents?sslmode=verify-full"},
		{"postgresql://u@db/agents", "postgresql://u@db/agents"},
		{"postgres://db/agents?password=s3cret&sslmode=require", "postgres://db/agents?password=xxxxx&sslmode=require"},
		{"postgres://u:p%40ss@db/x", "postgres://u:xxxxx@db/x"},
		{"postgres://u:s3cret@db:bad port/x", "postgres://u:xxxxx@db:bad port/x"},
		{"host=db user=u password=s3cret dbname=x", "host=db user=u password=xxxxx dbname=x"},
		{"host=db password='s 3cret' dbname=x", "host=db password=xxxxx dbname=x"},
		{"/home/me/.config/agents", "/home/me/.config/agents"},
		{"", ""},
	}
	for _, tt := range tests {
		got := Redact(tt.in)
		if got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if p := Password(tt.in); p != "" && strings.Contains(got, p) {
			t.Errorf("Redact(%q) = %q still holds the password %q", tt.in, got, p)
		}
	}
}

func TestPassword(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://u:s3cret@db/x", "s3cret"},
		{"postgres://u:p%40ss@db/x", "p@ss"},
		{"postgres://u@db/x?password=q", "q"},
		{"postgres://u@db/x", ""},
		{"postgres://u:s3cret@db:bad port/x", "s3cret"},
		{"host=db password=s3cret", "s3cret"},
	}
	for _, tt := range tests {
		if got := Password(tt.in); got != tt.want {
			t.Errorf("Password(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestScrub(t *testing.T) {
	msg := "failed: postgres://u:p%40ss@db/x said p@ss and p%40ss"
	if got := Scrub(msg, "p@ss"); strings.Contains(got, "p@ss") || strings.Contains(got, "p%40ss") {
		t.Errorf("Scrub left the password: %q", got)
	}
	if got := Scrub("nothing", ""); got != "nothing" {
		t.Errorf("Scrub with no secret = %q", got)
	}
}

func TestIsPostgres(t *testing.T) {
	for s, want := range map[string]bool{
		"postgres://x": true, "postgresql://x": true, "POSTGRES://x": true,
		"mysql://x": false, "/tmp/home": false, "postgres:x": false, "": false,
	} {
		if got := IsPostgres(s); got != want {
			t.Errorf("IsPostgres(%q) = %v", s, got)
		}
	}
	if !LooksLikeURL("mysql://x") || LooksLikeURL("/tmp/a://b") {
		t.Error("LooksLikeURL")
	}
}
