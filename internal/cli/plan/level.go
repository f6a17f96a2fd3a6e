package plan

import (
	"fmt"
	"strings"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/suggest"
)

// legacyLevels maps the deprecated automation levels to the built-in
// profiles that replace them, in the order they are listed.
var legacyLevels = []struct{ level, profile string }{
	{"manual", "manual"},
	{"supervised", "supervised"},
	{"auto", "auto"},
	{"full_auto", "full-auto"},
}

// levelNames lists the deprecated levels for help and errors.
func levelNames() string {
	return strings.Join(levels(), ", ")
}

// levels is the deprecated levels, in order.
func levels() []string {
	names := make([]string, len(legacyLevels))
	for i, l := range legacyLevels {
		names[i] = l.level
	}
	return names
}

// profileForLevel returns the built-in profile that replaces a deprecated
// automation level; an unknown level is a usage error listing the four
// and saying how to name a profile instead (better, the way that replaces
// the level where it was given).
func profileForLevel(level, better string) (string, error) {
	for _, l := range legacyLevels {
		if l.level == level {
			return l.profile, nil
		}
	}
	e := errs.Usage("unknown automation level %q", level)
	if s := suggest.Key(level, levels()); s != "" {
		return "", e.WithHint("did you mean %q? The levels are %s; %s", s, levelNames(), better)
	}
	return "", e.WithHint("the levels are %s; %s", levelNames(), better)
}

// warnDeprecated tells, on stderr, what replaces a deprecated option. It
// does not go through cobra's own deprecation notice, which is printed on
// the command's output stream: stdout, whose data must stay parseable.
func warnDeprecated(ui *cmdutil.UI, what, instead string) {
	ui.Warn("%s is deprecated and will be removed in a future release; use %s instead", what, instead)
}

// levelList lists the deprecated levels, for completion.
func levelList(*cmdutil.Deps, string) []string {
	out := make([]string, len(legacyLevels))
	for i, l := range legacyLevels {
		out[i] = cmdutil.Described(l.level, "deprecated: the profile "+l.profile)
	}
	return out
}

func levelMapping() string {
	var b strings.Builder
	for _, l := range legacyLevels {
		fmt.Fprintf(&b, "  %-11s → %s\n", l.level, l.profile)
	}
	return b.String()
}
