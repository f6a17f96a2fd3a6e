package cmdutil

import (
	"strings"

	"github.com/agentsctl/agents/internal/hook"
	"github.com/agentsctl/agents/internal/profile"
)

// ProfileWarnings words a profile decoder's warnings as they are printed:
// one about the legacy flat format says which command rewrites the file.
// Standard input is no file migrate could rewrite, so for it the command
// is given for a file in general.
func ProfileWarnings(ws []profile.Warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.String()
		switch {
		case !w.Migrate:
		case w.File != "" && w.File != StdinName:
			out[i] += " ('agents automation-profile migrate " + ShellWord(w.File) + " --write' rewrites the file)"
		default:
			out[i] += " ('agents automation-profile migrate FILE --write' rewrites a file)"
		}
	}
	return out
}

// ShellWord writes the file name s as one word of a POSIX shell command
// that a message suggests: as it is when the shell would read it so, else
// in single quotes (a file name with a space, a quote or a $ in it). A
// name that starts with - is given as ./ and the name, as the command
// would take it for a flag however it is quoted.
func ShellWord(s string) string {
	if strings.HasPrefix(s, "-") {
		s = "./" + s
	}
	plain := s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == ""
	if plain {
		return s
	}
	return hook.ShellQuote(s)
}
