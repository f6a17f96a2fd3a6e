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

// TestCheckAuthority: a user part with one @ passes; two, where parsers
// disagree on where the host begins, are refused without the URL quoted.
func TestCheckAuthority(t *testing.T) {
	for url, ok := range map[string]bool{
		"postgres://u:p@host/db":                  true,
		"postgres://u:p%40q@host/db":              true,
		"postgres://host/db?options=a@b":          true,
		"postgres:///db":                          true,
		"postgres://u:a@bSECRET@127.0.0.1:5499/x": false,
		"postgres://a@b@host":                     false,
	} {
		err := CheckAuthority(url)
		if (err == nil) != ok {
			t.Errorf("CheckAuthority(%q) = %v, want ok %v", url, err, ok)
		}
		if err != nil && strings.Contains(err.Error(), "SECRET") {
			t.Errorf("the refusal quotes the URL: %v", err)
		}
	}
}

// TestNormalize: the scheme is read in lower case, the rest as written.
func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"POSTGRES://U@Host/DB": "postgres://U@Host/DB",
		"PostgreSQL://h/d?x=Y": "postgresql://h/d?x=Y",
		"postgres://h/d":       "postgres://h/d",
		"host=h dbname=d":      "host=h dbname=d",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}
