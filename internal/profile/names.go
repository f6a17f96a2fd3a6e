package profile

import (
	"fmt"
	"strings"

	"github.com/agentsctl/agents/internal/errs"
)

// isLabel reports whether s matches ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$.
// It is written out rather than a regular expression because every name of
// every stored file passes through it when the store is listed, and a
// package-level regexp would be compiled at the start of every process.
func isLabel(s string) bool {
	if len(s) == 0 || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

var windowsDeviceNames = map[string]bool{
	"con": true, "prn": true, "aux": true, "nul": true,
	"com1": true, "com2": true, "com3": true, "com4": true, "com5": true, "com6": true, "com7": true, "com8": true, "com9": true,
	"lpt1": true, "lpt2": true, "lpt3": true, "lpt4": true, "lpt5": true, "lpt6": true, "lpt7": true, "lpt8": true, "lpt9": true,
}

// CheckLabel returns why s is not a valid name part (a DNS-1123 label that is
// not a Windows device name), or "" when it is.
func CheckLabel(s string) string {
	switch {
	case s == "":
		return "is empty"
	case len(s) > 63:
		return fmt.Sprintf("is %d characters long; at most 63 are allowed", len(s))
	case !isLabel(s):
		return "must be lower-case letters a-z, digits and '-', starting and ending with a letter or digit"
	case windowsDeviceNames[s]:
		return "is a reserved device name on Windows"
	}
	return ""
}

// CheckCustomName returns why name is not a valid custom name of the form
// namespace/name, or "" when it is.
func CheckCustomName(name string) string {
	parts := strings.Split(name, "/")
	if len(parts) != 2 {
		if IsBuiltinName(name) {
			return fmt.Sprintf("%q is a built-in profile; custom names have the form namespace/name", name)
		}
		return fmt.Sprintf("%q must have the form namespace/name (for example acme/strict)", name)
	}
	for i, part := range parts {
		which := "namespace"
		if i == 1 {
			which = "name part"
		}
		if why := CheckLabel(part); why != "" {
			return fmt.Sprintf("%s %q in %q %s", which, part, name, why)
		}
	}
	return ""
}

// ValidateCustomName returns an invalid-input error when name is not a valid
// namespace/name.
func ValidateCustomName(name string) error {
	if why := CheckCustomName(name); why != "" {
		return errs.Invalid("invalid name: %s", why)
	}
	return nil
}
