package safetypack

import "strings"

// The pack's identifiers are checked by hand rather than by regular
// expressions: compiling the semantic-version pattern alone cost a
// decision under a configured pack more than reading the pack. Their
// grammar, which syntax_test.go holds them to against the patterns
// themselves:
//
//	pack id  ^[a-z0-9]+(?:[_-][a-z0-9]+)*_v(0|[1-9][0-9]*)$
//	version  semantic versioning 2.0.0: MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]
//	digest   ^[0-9a-f]{64}$

// packIDMajor returns the major version of a well-formed pack id, and
// whether it is well-formed. Only the final "_v" can start the major
// version: the digits after it run to the end, and an earlier "_v" would
// have the later one, and its '_', among its digits.
func packIDMajor(id string) (string, bool) {
	i := strings.LastIndex(id, "_v")
	if i < 0 || !isSlug(id[:i]) || !isNumber(id[i+2:]) {
		return "", false
	}
	return id[i+2:], true
}

// isSlug reports whether s is words of lower-case letters and digits
// joined by single '_' or '-'.
func isSlug(s string) bool {
	if s == "" {
		return false
	}
	prevSep := true // a separator may not come first
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			prevSep = false
		case c == '_' || c == '-':
			if prevSep {
				return false
			}
			prevSep = true
		default:
			return false
		}
	}
	return !prevSep
}

// isNumber reports whether s is a decimal number without leading zeros.
func isNumber(s string) bool {
	if s == "" || s[0] == '0' && len(s) > 1 {
		return false
	}
	return allDigits(s)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// semverMajor returns the major version of a semantic version, and
// whether v is one.
func semverMajor(v string) (string, bool) {
	rest, build, hasBuild := strings.Cut(v, "+")
	if hasBuild && !dotted(build, isIdentifier) {
		return "", false
	}
	core, pre, hasPre := strings.Cut(rest, "-")
	if hasPre && !dotted(pre, isPrerelease) {
		return "", false
	}
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return "", false
	}
	for _, p := range parts {
		if !isNumber(p) {
			return "", false
		}
	}
	return parts[0], true
}

// dotted reports whether s is one or more identifiers that each meet ok,
// separated by dots.
func dotted(s string, ok func(string) bool) bool {
	for part := range strings.SplitSeq(s, ".") {
		if !ok(part) {
			return false
		}
	}
	return true
}

// isIdentifier reports whether s is a non-empty run of ASCII letters,
// digits and hyphens.
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			return false
		}
	}
	return true
}

// isPrerelease reports whether s is a pre-release identifier: an
// identifier, without leading zeros when it is all digits.
func isPrerelease(s string) bool {
	if !isIdentifier(s) {
		return false
	}
	return !allDigits(s) || isNumber(s)
}

// isSHA256Hex reports whether s is a sha256 in lower-case hex.
func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// isPackID reports whether id has the form of a pack id.
func isPackID(id string) bool {
	_, ok := packIDMajor(id)
	return ok
}
