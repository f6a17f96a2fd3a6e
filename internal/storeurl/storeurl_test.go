package storeurl

import (
	"math/rand/v2"
	"net/url"
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
		{"host=db password=SEC\\ RET dbname=x", "host=db password=xxxxx dbname=x"},
		{`host=db password='SEC\'RET' dbname=x`, "host=db password=xxxxx dbname=x"},
		{"/home/me/.config/agents", "/home/me/.config/agents"},
		{"/home/me@corp/agents", "/home/me@corp/agents"},
		// Mistyped URLs: no "//", or no ":" after the scheme.
		{"postgres:/u:SECRET@host/db", "postgres:xxxxx@host/db"},
		{"postgres//u:SECRET@h/db", "postgres//u:xxxxx@h/db"},
		{"postgres:u:SEC/RET@h/db", "postgres:xxxxx@h/db"},
		// In a key=value string, & is part of an unquoted value.
		{"host=h password=SEC&RET dbname=x", "host=h password=xxxxx dbname=x"},
		// A "://" in a value makes no URL of a key=value string.
		{"host=h password=SEC&RET application_name=http://x", "host=h password=xxxxx application_name=http://x"},
		{"host=h password=ab&cd://ef dbname=x", "host=h password=xxxxx dbname=x"},
		// sslpassword, the passphrase of the client's TLS key, is a secret.
		{"host=h sslpassword=SSLSECRET", "host=h sslpassword=xxxxx"},
		{"postgres://u@h/db?sslpassword=S3&sslmode=require", "postgres://u@h/db?sslpassword=xxxxx&sslmode=require"},
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

// hostilePasswords are passwords holding what ends a URL's user
// information early for one parser or another, or needs escaping.
var hostilePasswords = []string{
	"k9X+Qw/Zr7Lp==", "Tr0ub@dor#3x", "Tr0ub@d?or3x", "a/b?c#d@e:f", "pa55:w0rd:m0re",
	"100%sure", "p%40ss%2Fword", "with space s", "pluses+and=equals", "ünïcødé-密码",
	"@@@lead", "trail@@@", "semi;colon&amp=1", "[::9]:7777x", "pa\\ss\"wo'rd", "tab\there",
	"x@y/z?w#v@10.9.8.7:6543", "percent%zz", "?pazzword=innerQ", "#frAg@hozt/dbq",
}

// secretParts returns the secret and each of its parts, between the
// characters a parser could split it at, that is long enough to be
// recognised: none of them may be shown.
func secretParts(secret string) []string {
	parts := []string{secret}
	for _, p := range strings.FieldsFunc(secret, func(r rune) bool { return strings.ContainsRune("/?#@:&=+% ;[]\\\"'\t", r) }) {
		if len(p) >= 4 {
			parts = append(parts, p)
		}
	}
	return parts
}

// TestRedactHostilePasswords: whatever a password holds, written raw or
// escaped in the user information or as a parameter, Redact shows none
// of it, and Password finds it so Scrub can scrub it from what a server
// says.
func TestRedactHostilePasswords(t *testing.T) {
	for _, secret := range hostilePasswords {
		for _, form := range []string{
			"postgres://agents_writer:%s@db.example.com/agents?sslmode=verify-full",
			"postgresql://u:%s@127.0.0.1:5432/test",
			"postgres://u:%s@127.0.0.1:5432/test?application_name=x",
			"POSTGRES://u:%s@[::1]:5432/test",
			"postgres://u:%s@h1:5432,h2:5433/test#frag",
			"mysql://u:%s@h/x",
		} {
			for _, pw := range []string{secret, url.PathEscape(secret), url.QueryEscape(secret)} {
				u := strings.Replace(form, "%s", pw, 1)
				checkHidden(t, u, secret)
			}
		}
		for _, pw := range []string{url.QueryEscape(secret), secret} {
			if strings.ContainsAny(secret, "&#") && pw == secret {
				continue // a raw & or # ends a parameter: no parser reads it whole
			}
			checkHidden(t, "postgres://db/agents?sslmode=require&password="+pw, secret)
			checkHidden(t, "postgres://u@db/agents?PassWord="+pw+"&sslmode=require", secret)
		}
	}
}

func checkHidden(t *testing.T, u, secret string) {
	t.Helper()
	got := Redact(u)
	for _, part := range secretParts(secret) {
		if strings.Contains(got, part) {
			t.Errorf("Redact(%q) = %q shows %q", u, got, part)
		}
	}
	p := Password(u)
	if p == "" {
		t.Errorf("Password(%q) found none", u)
		return
	}
	said := "server said: password authentication failed for " + p + " (" + url.QueryEscape(p) + ")"
	if s := Scrub(said, p); strings.Contains(s, secret) && strings.Contains(said, secret) {
		t.Errorf("Scrub(%q, Password(%q)) = %q still shows the password", said, u, s)
	}
}

// TestCheckAuthorityHostile: a URL whose password holds an unescaped
// / ? # or @ is refused, without quoting it; escaped, it is accepted.
func TestCheckAuthorityHostile(t *testing.T) {
	for _, secret := range hostilePasswords {
		raw := "postgres://u:" + secret + "@127.0.0.1:5432/test"
		err := CheckAuthority(raw)
		if strings.ContainsAny(secret, "/?#@") && err == nil {
			t.Errorf("CheckAuthority(%q) accepted it", raw)
		}
		if err != nil {
			for _, part := range secretParts(secret) {
				if strings.Contains(err.Error(), part) {
					t.Errorf("CheckAuthority(%q) = %v quotes it", raw, err)
				}
			}
		}
		if esc := "postgres://u:" + url.QueryEscape(secret) + "@127.0.0.1:5432/test"; CheckAuthority(esc) != nil {
			t.Errorf("CheckAuthority(%q) refused an escaped password", esc)
		}
	}
	for u, ok := range map[string]bool{
		"postgres://u:12/ss@host/db":                  false, // Go reads host u, port 12
		"postgres://u@host/db?application_name=a@b":   false,
		"postgres://host:5432/db?options=a@b":         false, // user host, password 5432/db?options=a, to some
		"postgres://u:p@host/db?options=a%40b":        true,
		"postgres://u@host/db":                        true,
		"postgres://host/db?options=a@b":              true, // no : before the @: no password
		"postgres://u:pa%2Fss@host/db?sslmode=verify": true,
	} {
		if err := CheckAuthority(u); (err == nil) != ok {
			t.Errorf("CheckAuthority(%q) = %v, want ok %v", u, err, ok)
		}
	}
}

func TestLooksLikeMistypedURL(t *testing.T) {
	for _, s := range []string{"postgres:/u:pw@h/db", "POSTGRESQL:u@h", "postgres//u:pw@h/db", "u:pw@host/db", "./a:b@c", "host=h password=SECRET", "dbname=x user=u"} {
		if !LooksLikeMistypedURL(s) {
			t.Errorf("%q is not taken for a mistyped URL", s)
		}
	}
	for _, s := range []string{"postgres://u:pw@h/db", "/home/me/.config/agents", "/home/me@corp/agents", "postgres-home", "postgres/home", "postgresql/x", "./backup", "a=b", ""} {
		if LooksLikeMistypedURL(s) {
			t.Errorf("%q is taken for a mistyped URL", s)
		}
	}
}

// TestMayNamePassword: the shortcut before the password expression never
// says no where the expression would match.
func TestMayNamePassword(t *testing.T) {
	cases := []string{
		"postgres://h/db?PassWord=x", "host=h password = 'x'", "postgres://h/db?sslPASSWORD=y",
		"postgres://h/db?paſſword=x", "postgres://h/db?pa%73sword=x", "postgres://u@h/db?sslmode=disable",
		"password=", " password=1", "host=h", "",
	}
	pieces := []string{"pass", "word", "PASS", "Word", "ſ", "K", "=", " ", "&", "?", "ssl", "'", `"`, "x", "%73"}
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	for range 20000 {
		var b strings.Builder
		for range r.IntN(4) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		// A password key, its letters in either case or as the
		// non-ASCII runes that fold to them, now and then broken.
		b.WriteString(pick("", "?", "&", " ", "x"))
		b.WriteString(pick("", "ssl", "SSL"))
		for _, c := range "password" {
			switch {
			case c == 's' && r.IntN(3) == 0:
				b.WriteString("ſ")
			case r.IntN(2) == 0:
				b.WriteString(strings.ToUpper(string(c)))
			default:
				b.WriteRune(c)
			}
			if r.IntN(40) == 0 {
				b.WriteString("-")
			}
		}
		b.WriteString(pick("=", " = ", "", ":"))
		for range r.IntN(4) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		cases = append(cases, b.String())
	}
	matched := 0
	for _, s := range cases {
		if paramRE().MatchString(s) {
			matched++
			if !mayNamePassword(s) {
				t.Errorf("mayNamePassword(%q) = false, but the expression matches", s)
			}
		}
	}
	if matched < 100 {
		t.Fatalf("only %d of %d strings match the expression: the test does not exercise the shortcut", matched, len(cases))
	}
	if mayNamePassword("postgres://u@h/db?sslmode=disable") {
		t.Error("mayNamePassword is true for a URL without a password parameter")
	}
}

// TestRedactText: a store URL's password is masked wherever a message
// quotes it, mistyped forms included; text that holds none is left as it
// is.
func TestRedactText(t *testing.T) {
	tests := []struct{ in, want string }{
		{`invalid name "postgres://u:S3cret@h/db"`, `invalid name "postgres://u:xxxxx@h/db"`},
		{`invalid name "postgres//u:S3cret@h/db"`, `invalid name "postgres//u:xxxxx@h/db"`},
		{`invalid name "postgres:u:S3cret@h/db": must be`, `invalid name "postgres:xxxxx@h/db": must be`},
		{`u:S3cret@h`, `u:xxxxx@h`},
		{`open postgres:/u:S3cret@h/db: no such file`, `open postgres:xxxxx@h/db: no such file`},
		{`host=h password=S3cret dbname=x`, `host=h password=xxxxx dbname=x`},
		{`postgres://h/db?sslmode=disable&password=S3cret`, `postgres://h/db?sslmode=disable&password=xxxxx`},
		{`invalid name: "ci_user:S3cret@db" must have the form namespace/name`, `invalid name: "ci_user:xxxxx@db" must have the form namespace/name`},
		{`invalid name: "ci@corp:S3cret@db"`, `invalid name: "ci@corp:xxxxx@db"`},
		{`x name=ci:S3cret@db`, `x name=ci:xxxxx@db`},
		{`x /tmp/ci:S3cret@db`, `x /tmp/ci:xxxxx@db`},
		{`<ci_user:S3cret@db>`, `<ci_user:xxxxx@db>`},
		{`invalid name: "postgres://ci:my S3cret@db/x" must have`, `invalid name: "postgres://ci:xxxxx@db/x" must have`},
		{`"a@b" and "c:S3cret@d" both`, `"a@b" and "c:xxxxx@d" both`},
		// A URL's password holding a space, unquoted: the user
		// information runs to the last @ of the line.
		{`file not found: postgres://u:S3 cret@h/db`, `file not found: postgres://u:xxxxx@h/db`},
		{`context file postgres://u:S3 cr et@h/db not found`, `context file postgres://u:xxxxx@h/db not found`},
		{`project folder /tmp/x/postgres:/u:S3 cret@h/db not found`, `project folder /tmp/x/postgres:xxxxx@h/db not found`},
		{"folder postgres://u:S3 cret\nat x@y", "folder postgres://u:S3 cret\nat x@y"},
		// A password setting quoted with escaped quotes (a %q of a
		// key=value string), or a quoted value that is a password
		// setting: masked whole.
		{`unknown format "host=h password=\"S3 cret\" user=u" (from --format)`, `unknown format "host=h password=xxxxx user=u" (from --format)`},
		{`this is "password=S3 cret"`, `this is "password=xxxxx"`},
		{`this is "sslpassword = S3 cret" here`, `this is "sslpassword = xxxxx" here`},
		// Nothing to mask.
		{`"a@b" must be "x" where c:d and e@f`, `"a@b" must be "x" where c:d and e@f`},
		{`profile acme/x: file.yaml:3: bad value`, `profile acme/x: file.yaml:3: bad value`},
		{`write to me@example.com or git@github.com:org/repo`, `write to me@example.com or git@github.com:org/repo`},
		{`/home/me/x@y is missing`, `/home/me/x@y is missing`},
		{`at 10:30 by x@y`, `at 10:30 by x@y`},
	}
	for _, tt := range tests {
		if got := RedactText(tt.in); got != tt.want {
			t.Errorf("RedactText(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if strings.Contains(tt.want, "xxxxx") && strings.Contains(RedactText(tt.in), "S3cret") {
			t.Errorf("RedactText(%q) shows the password", tt.in)
		}
	}
}
