package cmdutil

import "github.com/agentsctl/agents/internal/profile"

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
			out[i] += " ('agents automation-profile migrate " + w.File + " --write' rewrites the file)"
		default:
			out[i] += " ('agents automation-profile migrate FILE --write' rewrites a file)"
		}
	}
	return out
}
