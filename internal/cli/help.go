package cli

import (
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/suggest"
)

// newHelpCmd is 'agents help [command]', cobra's own help command but for
// a topic that names nothing: that is a usage error (exit 2) suggesting
// the nearest topic, where cobra prints the root's help and exits 0, or
// shows a group's help for a verb the group does not have.
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long: `Help prints the help of any command: its usage, flags and examples.
'agents help plan use' is 'agents plan use --help'.`,
		Example: `  $ agents help automation-profile check-gate
  $ agents help environment`,
		ValidArgsFunction: completeHelpTopic,
		RunE: func(c *cobra.Command, args []string) error {
			cmd, err := helpTopic(c.Root(), args)
			if err != nil {
				return err
			}
			cmd.InitDefaultHelpFlag()
			return cmd.Help()
		},
	}
}

// helpTopic returns the command the words name, or a usage error for the
// first word that names none, with the topic nearest to what was meant.
func helpTopic(root *cobra.Command, words []string) (*cobra.Command, error) {
	cmd := root
	for i, w := range words {
		next := findSub(cmd, w)
		if next != nil {
			cmd = next
			continue
		}
		e := errs.Usage("unknown help topic %q", strings.Join(words, " "))
		if s := nearestTopic(cmd, w); s != "" {
			meant := append(append([]string(nil), words[:i]...), s)
			return nil, e.WithHint("did you mean %q?", strings.Join(meant, " "))
		}
		help := strings.TrimSpace("agents help " + strings.Join(words[:i], " "))
		switch {
		case i == 0:
			return nil, e.WithHint("run '%s' to see the commands and topics", help)
		case !cmd.HasSubCommands():
			return nil, e.WithHint("%s has no commands under it: run '%s'", cmd.CommandPath(), help)
		}
		return nil, e.WithHint("run '%s' to see its commands", help)
	}
	return cmd, nil
}

// nearestTopic is the command or help topic under cmd nearest to word, or
// "".
func nearestTopic(cmd *cobra.Command, word string) string {
	if s := cmdutil.NearestCommand(cmd, word); s != "" {
		return s
	}
	var topics []string
	for _, c := range cmd.Commands() {
		if c.IsAdditionalHelpTopicCommand() {
			topics = append(topics, c.Name())
		}
	}
	return suggest.Name(word, topics)
}

// findSub is the command under cmd called word, by name or alias.
func findSub(cmd *cobra.Command, word string) *cobra.Command {
	for _, c := range cmd.Commands() {
		if c.Name() == word || c.HasAlias(word) {
			return c
		}
	}
	return nil
}

// completeHelpTopic completes the commands under the words typed so far.
func completeHelpTopic(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	cmd, err := helpTopic(c.Root(), args)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, sub := range cmd.Commands() {
		if (sub.IsAvailableCommand() || sub.IsAdditionalHelpTopicCommand()) && strings.HasPrefix(sub.Name(), toComplete) {
			out = append(out, cobra.CompletionWithDesc(sub.Name(), sub.Short))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// wrapFlagUsages makes the help of root and every command under it wrap
// the text of each flag to the width output is fitted to (80 columns when
// that is unknown, as when the help is piped), so that no flag's line runs
// past the terminal's edge. A command that extends its usage template
// (with an exit status section, say) keeps its addition. cobra's template
// functions are shared by every root, so the one function finds the width
// by the root of the command it renders.
//
// The templates are rewritten the first time help or usage is rendered,
// not when the commands are built: a command that prints no help (every
// decision a hook asks for) does not pay for it.
func wrapFlagUsages(root *cobra.Command, width func() int) {
	helpWidths.Store(root, width)
	addWrappedFlags.Do(func() {
		cobra.AddTemplateFunc("wrappedFlags", wrappedFlags)
		cobra.AddTemplateFunc("wrappedUse", wrappedUse)
		cobra.AddTemplateFunc("wrappedExample", wrappedExample)
	})
	var once sync.Once
	rewrite := func() { once.Do(func() { rewriteUsageTemplates(root) }) }
	help, usage := root.HelpFunc(), root.UsageFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		rewrite()
		help(c, args)
	})
	root.SetUsageFunc(func(c *cobra.Command) error {
		rewrite()
		return usage(c)
	})
}

// rewriteUsageTemplates makes the usage template of root and of every
// command under it wrap its flags (see wrapFlagUsages).
func rewriteUsageTemplates(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		t := c.UsageTemplate()
		t = strings.ReplaceAll(t, "{{.LocalFlags.FlagUsages", "{{wrappedFlags . .LocalFlags")
		t = strings.ReplaceAll(t, "{{.InheritedFlags.FlagUsages", "{{wrappedFlags . .InheritedFlags")
		t = strings.ReplaceAll(t, "{{.UseLine}}", "{{wrappedUse .}}")
		t = strings.ReplaceAll(t, "{{.Example}}", "{{wrappedExample .}}")
		t = strings.ReplaceAll(t, `Use "{{.CommandPath}} [command] --help" for more information about a command.`,
			`Run "{{.CommandPath}} [command] --help" for a command's help.`)
		c.SetUsageTemplate(t)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

var (
	// helpWidths holds, by root command, the width its help is fitted to.
	helpWidths      sync.Map
	addWrappedFlags sync.Once
)

// wrappedFlags is fs's flag usages, wrapped to the width of c's root.
func wrappedFlags(c *cobra.Command, fs *pflag.FlagSet) string {
	return fs.FlagUsagesWrapped(helpWidthOf(c))
}

// helpWidthOf is the width c's help is fitted to.
func helpWidthOf(c *cobra.Command) int {
	w := 0
	if f, ok := helpWidths.Load(c.Root()); ok {
		w = f.(func() int)()
	}
	if w <= 0 {
		w = helpWidth
	}
	return max(w, minHelpWidth)
}

// wrappedUse is c's usage line, indented by two as cobra prints it, its
// continuation lines by four, each group of it in brackets or parentheses
// kept on one line where it fits.
func wrappedUse(c *cobra.Command) string {
	return strings.Join(fill(useGroups(c.UseLine()), helpWidthOf(c)-2, "  "), "\n")
}

// wrappedExample is c's examples, each line that runs past the width
// broken where a space stands outside quotes: a command ($ ...) with a
// backslash, so that it still runs when copied, a comment with its #.
func wrappedExample(c *cobra.Command) string {
	width := helpWidthOf(c)
	var out []string
	continued := false // the line before ended a command's line unfinished
	for line := range strings.SplitSeq(c.Example, "\n") {
		rest := strings.TrimLeft(line, " ")
		command := strings.HasPrefix(rest, "$ ") || continued
		trimmed := strings.TrimRight(rest, " ")
		continued = command && (strings.HasSuffix(trimmed, "|") || strings.HasSuffix(trimmed, "\\") ||
			strings.HasSuffix(trimmed, "&&") || strings.HasSuffix(trimmed, "||"))
		if len(line) <= width {
			out = append(out, line)
			continue
		}
		indent := line[:len(line)-len(rest)]
		switch {
		case command:
			lines := fill(shellWords(rest), width-len(indent)-2, "    ")
			for i := range lines[:len(lines)-1] {
				lines[i] += " \\"
			}
			for _, l := range lines {
				out = append(out, indent+l)
			}
		case strings.HasPrefix(rest, "# "):
			for _, l := range fill(strings.Fields(rest[2:]), width-len(indent)-2, "") {
				out = append(out, indent+"# "+l)
			}
		default:
			// What a command prints: its words, as they wrap.
			for _, l := range fill(strings.Fields(rest), width-len(indent), "") {
				out = append(out, indent+l)
			}
		}
	}
	return strings.Join(out, "\n")
}

// fill lays words out in lines of at most width columns, a space between
// two words, every line but the first led by next; a word wider than a
// line has one of its own.
func fill(words []string, width int, next string) []string {
	var lines []string
	line := ""
	empty := true
	for _, w := range words {
		if !empty && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line, empty = next, true
		}
		if !empty {
			line += " "
		}
		line += w
		empty = false
	}
	return append(lines, line)
}

// useGroups splits a usage line at its spaces, keeping together what a
// pair of brackets or parentheses holds.
func useGroups(s string) []string {
	return splitOutside(s, func(r rune, depth int) int {
		switch r {
		case '(', '[':
			return depth + 1
		case ')', ']':
			return max(depth-1, 0)
		}
		return depth
	})
}

// shellWords splits a shell command at the spaces that stand outside
// quotes, where a line may be continued with a backslash.
func shellWords(s string) []string {
	var quote rune
	return splitOutside(s, func(r rune, depth int) int {
		switch {
		case quote != 0 && r == quote:
			quote = 0
			return 0
		case quote == 0 && (r == '\'' || r == '"'):
			quote = r
			return 1
		}
		return depth
	})
}

// splitOutside splits s at the spaces where nest, fed each rune and the
// depth so far, leaves the depth at 0.
func splitOutside(s string, nest func(r rune, depth int) int) []string {
	var words []string
	var b strings.Builder
	depth := 0
	for _, r := range s {
		if r == ' ' && depth == 0 {
			if b.Len() > 0 {
				words = append(words, b.String())
				b.Reset()
			}
			continue
		}
		depth = nest(r, depth)
		b.WriteRune(r)
	}
	if b.Len() > 0 {
		words = append(words, b.String())
	}
	return words
}

// helpWidth is the width help is fitted to when the output's is unknown;
// minHelpWidth the narrowest it is fitted to.
const (
	helpWidth    = 80
	minHelpWidth = 40
)
