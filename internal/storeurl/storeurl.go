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

// CheckAuthority refuses a store URL whose user part holds more than one
// unescaped @: where the user part ends is then a matter of which parser
// reads it, and one of them would take part of the password for the
// host, and print it. The message never quotes the URL.
func CheckAuthority(s string) error {
	_, rest, ok := strings.Cut(s, "://")
	if !ok {
		return nil
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if strings.Count(rest, "@") > 1 {
		return errors.New("the store URL has more than one @ before its host: write an @ in the user name or password as %40")
	}
	return nil
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

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// Password returns the password a store URL carries (in its user
// information or a password parameter), or "" when it carries none.
func Password(s string) string {
	if u, err := url.Parse(s); err == nil && u.Scheme != "" {
		if p, ok := u.User.Password(); ok && p != "" {
			return p
		}
		if p := u.Query().Get("password"); p != "" {
			return p
		}
		return ""
	}
	if m := userinfoRE().FindStringSubmatch(s); m != nil && m[2] != "" {
		return m[2]
	}
	if m := paramRE().FindStringSubmatch(s); m != nil {
		return strings.Trim(m[2], `'"`)
	}
	return ""
}

// The patterns of a password in a string that is not a well-formed URL,
// compiled on first use: every agents process links this package, few
// ever need them.
var (
	// scheme://user:password@ — the password runs to the last @ before
	// the host, as libpq reads it.
	userinfoRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*://[^:/?#@]*:)([^/?#]*)@`)
	})
	// password=... as a URL parameter or a key=value connection string.
	paramRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)((?:^|[?&\s])password\s*=\s*)('[^']*'|"[^"]*"|[^&\s]*)`)
	})
)

// Redact returns s with any password replaced by Mask: in the user
// information of a URL, in a password parameter, and in a key=value
// connection string. A string that does not parse as a URL is redacted by
// pattern, so a malformed URL given by mistake is never shown whole.
func Redact(s string) string {
	if u, err := url.Parse(s); err == nil && u.Scheme != "" {
		changed := false
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), Mask)
			changed = true
		}
		q := u.Query()
		if q.Has("password") {
			q.Set("password", Mask)
			u.RawQuery = q.Encode()
			changed = true
		}
		if !changed {
			return s
		}
		return u.String()
	}
	s = userinfoRE().ReplaceAllString(s, "${1}"+Mask+"@")
	return paramRE().ReplaceAllString(s, "${1}"+Mask)
}

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
