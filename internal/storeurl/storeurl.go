// Package storeurl recognises the store URLs that --store, AGENTS_STORE and
// the store: key of config.yaml take, and keeps their passwords out of
// everything agents prints. Redact is the one way a store URL is shown.
package storeurl

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Schemes are the URL schemes that select the PostgreSQL store.
var Schemes = []string{"postgres", "postgresql"}

// Mask replaces a password wherever a store URL is shown.
const Mask = "xxxxx"

// IsPostgres reports whether s is a URL whose scheme selects the
// PostgreSQL store.
func IsPostgres(s string) bool {
	scheme, _, ok := strings.Cut(s, "://")
	if !ok {
		return false
	}
	scheme = strings.ToLower(scheme)
	for _, want := range Schemes {
		if scheme == want {
			return true
		}
	}
	return false
}

// Normalize returns a PostgreSQL store URL with its scheme in lower case,
// as the driver reads it (a scheme in capitals would otherwise be taken
// for a key=value string).
func Normalize(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return s
	}
	return strings.ToLower(scheme) + "://" + rest
}

// CheckAuthority refuses a store URL in which parsers may disagree on
// where the password ends: one with more than one unescaped @ anywhere
// (an @ in the password, or after a / ? or # the password holds), or one
// whose only @ follows a user:password part holding / ? or #. Go's URL
// parser would then take part of the password for the host, the port,
// the database or a parameter, and print it. The message never quotes
// the URL.
func CheckAuthority(s string) error {
	_, rest, ok := strings.Cut(s, "://")
	if !ok {
		return nil
	}
	if strings.Count(rest, "@") > 1 {
		return errors.New("the store URL has more than one @: write an @ in the user name, the password or a parameter as %40")
	}
	if info, ok := userinfo(rest); ok && strings.Contains(info, ":") && strings.ContainsAny(info, "/?#") {
		return errors.New("the store URL's password (or what comes before its @) holds a / ? or #: write them as %2F %3F %23")
	}
	return nil
}

// userinfo returns what comes before the last @ of a URL's rest (after
// scheme://): read conservatively, the user name and password. Where a
// URL parser would end it earlier (at a / ? or #), the part after that is
// still taken for the password, so it is masked rather than shown.
func userinfo(rest string) (string, bool) {
	i := strings.LastIndexByte(rest, '@')
	if i < 0 {
		return "", false
	}
	return rest[:i], true
}

// LooksLikeURL reports whether s has the form scheme://..., whatever the
// scheme: a folder is never written that way.
func LooksLikeURL(s string) bool {
	scheme, _, ok := strings.Cut(s, "://")
	if !ok || scheme == "" || !isLetter(scheme[0]) {
		return false
	}
	for i := 1; i < len(scheme); i++ {
		c := scheme[i]
		if !isLetter(c) && !(c >= '0' && c <= '9') && c != '+' && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

// LooksLikeMistypedURL reports whether s, which is not a URL, was most
// likely meant as one: it starts with a PostgreSQL scheme that lacks its
// "//", or reads like a URL's user:password@host. Taken for a folder, it
// would put a password into a folder's name.
func LooksLikeMistypedURL(s string) bool {
	if LooksLikeURL(s) {
		return false
	}
	l := strings.ToLower(s)
	for _, p := range []string{"postgres:", "postgresql:"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	// A key=value connection string (host=db password=…).
	if kvKeyRE().MatchString(s) {
		return true
	}
	_, _, ok := hiddenPassword(s)
	return ok
}

// hiddenPassword finds what could be a password in s, which is no URL:
// whatever stands between its first ':' and its last '@'.
func hiddenPassword(s string) (colon, at int, ok bool) {
	at = strings.LastIndexByte(s, '@')
	if at <= 0 {
		return 0, 0, false
	}
	colon = strings.IndexByte(s[:at], ':')
	return colon, at, colon >= 0
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// Password returns the password a store URL carries (in its user
// information or a password parameter), or "" when it carries none. The
// user information is read as Redact reads it: everything between the
// first : after scheme:// and the last @, whatever / ? # @ it holds.
func Password(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	if ok && LooksLikeURL(scheme+"://") {
		if info, ok := userinfo(rest); ok {
			if _, p, ok := strings.Cut(info, ":"); ok && p != "" {
				return unescape(p)
			}
		}
		for _, p := range params(rest) {
			if p.password && p.value != "" {
				return unescape(strings.ReplaceAll(p.value, "+", " "))
			}
		}
	}
	if !mayNamePassword(s) {
		return ""
	}
	if m := paramRE().FindStringSubmatch(s); m != nil {
		return strings.Trim(m[2], `'"`)
	}
	return ""
}

// mayNamePassword reports whether paramRE could match s: false only for
// ASCII text without "password" in any case, which spares compiling the
// expression for the URLs of most stores. (Text that is not ASCII always
// goes to the expression, whose case folding reaches beyond ASCII: ſ is
// an s to it.)
func mayNamePassword(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return strings.Contains(strings.ToLower(s), "password")
}

// unescape decodes a URL's %-escapes, or returns p as written when they
// are malformed.
func unescape(p string) string {
	if u, err := url.PathUnescape(p); err == nil {
		return u
	}
	return p
}

// param is one key=value of a URL's query, as written.
type param struct {
	start, end int // of the value, in the URL's rest
	value      string
	password   bool // the key, unescaped, is password (in any case)
}

// params returns the parameters of a URL's rest (after scheme://): those
// after the first ? that follows the user information, split at & as
// written (nothing is dropped for being malformed).
func params(rest string) []param {
	from := 0
	if info, ok := userinfo(rest); ok && strings.Contains(info, ":") {
		from = len(info) + 1
	}
	q := strings.IndexByte(rest[from:], '?')
	if q < 0 {
		return nil
	}
	var out []param
	pos := from + q + 1
	for _, pair := range strings.Split(rest[pos:], "&") {
		key, value, hasValue := strings.Cut(pair, "=")
		if hasValue {
			k, err := url.QueryUnescape(key)
			if err != nil {
				k = key
			}
			start := pos + len(key) + 1
			out = append(out, param{start: start, end: start + len(value), value: value,
				password: isPasswordKey(strings.TrimSpace(k))})
		}
		pos += len(pair) + 1
	}
	return out
}

// isPasswordKey reports whether a parameter holds a secret: the password,
// or sslpassword, the passphrase of the client's TLS key.
func isPasswordKey(k string) bool {
	return strings.EqualFold(k, "password") || strings.EqualFold(k, "sslpassword")
}

// The pattern of a password in a key=value connection string (or any
// other text), compiled on first use: every agents process links this
// package, few ever need it.
var paramRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)((?:^|[?&\s])(?:ssl)?password\s*=\s*)(\\+"(?:[^\\]|\\+[^\\"])*(?:\\+"|\\*$)|'(?:\\.|[^'\\])*'?|"[^"]*"|(?:\\.|[^&\s\\])*\\?)`)
})

// Redact returns s with any password replaced by Mask: in the user
// information of a URL, in a password parameter, and in a key=value
// connection string. It reads no URL with a parser that could end the
// user information early: everything between the first : after scheme://
// and the last @ of the string is masked, so a password holding / ? # @
// or anything else is never shown, even where that masks more than the
// password. A string that is no URL but may be one mistyped
// (postgres:/user:pw@host) is masked the same way, from its first : to its
// last @.
func Redact(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	// A "://" inside a key=value string's value makes no URL of it.
	ok = ok && LooksLikeURL(scheme+"://")
	if !ok {
		// Not a URL, but it may be one mistyped (postgres:/u:pw@h,
		// postgres//u:pw@h): whatever stands between the first ':' and
		// the last '@' could be a password.
		if colon, at, found := hiddenPassword(s); found {
			s = s[:colon+1] + Mask + s[at:]
		}
	}
	if ok {
		var b strings.Builder
		b.WriteString(scheme + "://")
		at := 0
		if info, ok := userinfo(rest); ok {
			if user, _, ok := strings.Cut(info, ":"); ok {
				b.WriteString(user + ":" + Mask)
				at = len(info)
			}
		}
		for _, p := range params(rest) {
			if p.password {
				b.WriteString(rest[at:p.start] + Mask)
				at = p.end
			}
		}
		b.WriteString(rest[at:])
		s = b.String()
	}
	if !ok {
		// A key=value connection string: an unquoted value runs to the
		// next space, & included.
		return kvParamRE().ReplaceAllString(s, "${1}"+Mask)
	}
	return paramRE().ReplaceAllString(s, "${1}"+Mask)
}

// kvKeyRE finds a key of a key=value connection string.
var kvKeyRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|\s)(?:host|hostaddr|port|dbname|user|password|sslpassword|passfile|sslmode|service|options)\s*=`)
})

// kvParamRE finds the password of a key=value connection string.
var kvParamRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)((?:^|\s)(?:ssl)?password\s*=\s*)(\\+"(?:[^\\]|\\+[^\\"])*(?:\\+"|\\*$)|'(?:\\.|[^'\\])*'?|"[^"]*"|(?:\\.|[^\s\\])*\\?)`)
})

// Scrub returns msg with every occurrence of the password secret, as it is
// and as a URL would escape it, replaced by Mask: the last line of defence
// for messages that quote what a server or library said.
func Scrub(msg, secret string) string {
	if secret == "" {
		return msg
	}
	for _, form := range []string{secret, url.QueryEscape(secret), url.PathEscape(secret), url.UserPassword("", secret).String()[1:]} {
		if form != "" && form != ":" {
			msg = strings.ReplaceAll(msg, form, Mask)
		}
	}
	return msg
}

// RedactText returns a message with the password of every store URL in
// it masked, as Redact masks one URL, and that of every key=value
// connection string (password=…): for messages that quote what was typed
// where a name, a file or another value belongs. A value the message
// quotes ("…") is read whole, spaces and all; elsewhere a URL is read
// within a run of text without spaces. Either way it runs from its
// scheme: followed by / (a path cleaning may have folded its // into one)
// to the end, so its user information runs to the last @; with no such
// scheme (postgres//u:pw@h, ci_user:pw@h), from the first ':' to the last
// '@' after it is masked.
func RedactText(msg string) string {
	if !strings.Contains(msg, "@") && !mayNamePassword(msg) {
		return msg
	}
	// out holds what is finished; b the text since, which the patterns of
	// a password setting are run over when it ends (a quoted password
	// setting, masked whole, is never read by them again).
	var out, b strings.Builder
	flush := func() {
		out.WriteString(paramRE().ReplaceAllString(textParamRE().ReplaceAllString(b.String(), "${1}"+Mask), "${1}"+Mask))
		b.Reset()
	}
	for i := 0; i < len(msg); {
		if msg[i] == '"' {
			// A quoted value is read whole: a password in a URL a
			// message quotes may hold a space, and so may a quoted value
			// that is a password setting, which is masked to its end.
			if end := closingQuote(msg, i+1); end > 0 {
				inner := msg[i+1 : end]
				if m := quotedPasswordRE().FindStringIndex(inner); m != nil {
					flush()
					out.WriteString(`"` + inner[:m[1]] + Mask + `"`)
					i = end + 1
					continue
				}
				if strings.Contains(inner, "@") {
					b.WriteString(`"` + RedactValue(inner) + `"`)
					i = end + 1
					continue
				}
			}
		}
		j := i
		for j < len(msg) && !isSpace(msg[j]) && (j == i || msg[j] != '"') {
			j++
		}
		if j == i {
			b.WriteByte(msg[i])
			i++
			continue
		}
		j = userinfoEnd(msg, i, j)
		b.WriteString(redactRun(msg[i:j]))
		i = j
	}
	flush()
	return out.String()
}

// quotedPasswordRE finds a quoted value that is a password setting
// (password=…), up to where its value starts.
var quotedPasswordRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\s*(?:ssl)?password\s*=\s*`)
})

// userinfoEnd returns where the run of msg from i to j ends when it is
// read as a URL: a run that opens a URL's user information with a
// password (scheme://user: and no @ after it) runs on to the end of the
// word holding the last @ of its line, since a password typed with a
// space in it goes on past the space. Any other run ends at j.
func userinfoEnd(msg string, i, j int) int {
	run := msg[i:j]
	slash := strings.Index(run, ":/")
	if slash < 0 || strings.IndexByte(run, '@') >= 0 {
		return j
	}
	rest := strings.TrimLeft(run[slash+1:], "/")
	if !strings.Contains(rest, ":") {
		return j
	}
	line := msg[j:]
	if nl := strings.IndexAny(line, "\r\n"); nl >= 0 {
		line = line[:nl]
	}
	at := strings.LastIndexByte(line, '@')
	if at < 0 {
		return j
	}
	end := j + at
	for end < len(msg) && !isSpace(msg[end]) && msg[end] != '"' {
		end++
	}
	return end
}

// RedactValue masks the password of a store URL that one value (a file
// name, a key, a quoted value) may be, spaces and all, and then what
// RedactText masks in it.
func RedactValue(v string) string {
	if strings.Contains(v, "@") {
		v = redactRun(v)
	}
	return RedactText(v)
}

// closingQuote returns the index of the quote that closes a Go-quoted
// string opened before from, or -1.
func closingQuote(s string, from int) int {
	for k := from; k < len(s); k++ {
		switch s[k] {
		case '\\':
			k++
		case '"':
			return k
		}
	}
	return -1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// redactRun masks the password of the first URL in a run of text without
// spaces, the rest of the run taken for the URL.
func redactRun(run string) string {
	for k := 1; k+1 < len(run); k++ {
		if run[k] != ':' || run[k+1] != '/' {
			continue
		}
		s := k
		for s > 0 && isSchemeChar(run[s-1]) {
			s--
		}
		for s < k && !isLetter(run[s]) {
			s++
		}
		if s < k {
			return run[:s] + Redact(run[s:])
		}
	}
	// A URL mistyped without its "://" (postgres//u:pw@h, postgres:u:pw@h,
	// ci_user:pw@h) is masked as Redact masks it: from the first ':' to
	// the last '@' after it.
	if colon, at, found := hiddenPassword(run); found && colon+1 < at {
		return run[:colon+1] + Mask + run[at:]
	}
	return run
}

func isSchemeChar(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'
}

// textParamRE finds the password of a key=value connection string quoted
// in a message: after a space, a quote or a bracket (a URL's, after ? or
// &, Redact masks), its value running to the next space.
var textParamRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)((?:^|[\s"'(\[{,;])(?:ssl)?password\s*=\s*)(\\+"(?:[^\\]|\\+[^\\"])*(?:\\+"|\\*$)|'(?:\\.|[^'\\])*'?|"[^"]*"|(?:\\.|[^\s\\])*\\?)`)
})
