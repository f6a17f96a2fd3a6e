package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
)

// noConfigAnnotation marks commands that must work whatever the
// configuration says: a broken config.yaml must not stop a shell from
// loading its completion script at start-up.
const noConfigAnnotation = "agents/no-config"

// skipsConfig reports whether cmd runs without resolving the configuration:
// the completion scripts, and cobra's hidden completion request, which
// resolves it lazily once it has parsed the flags of the command line it
// completes (see cmdutil.Deps.EnsureConfig).
func skipsConfig(cmd *cobra.Command) bool {
	if cmd.Name() == cobra.ShellCompRequestCmd || cmd.Name() == cobra.ShellCompNoDescRequestCmd {
		return true
	}
	for c := cmd; c != nil; c = c.Parent() {
		if c.Annotations[noConfigAnnotation] == "1" {
			return true
		}
	}
	return false
}

type completionShell struct {
	name    string
	install string
	example string
	gen     func(root *cobra.Command, w io.Writer, descriptions bool) error
}

var completionShells = []completionShell{
	{
		name: "bash",
		install: `The script needs the bash-completion package (apt install bash-completion,
brew install bash-completion@2, or your system's equivalent).

Load it in the current shell:

  $ source <(agents completion bash)

Load it in every new shell, for your user alone:

  $ mkdir -p ~/.local/share/bash-completion/completions
  $ agents completion bash > ~/.local/share/bash-completion/completions/agents

or for everyone on the machine (Linux; on macOS with Homebrew the folder is
$(brew --prefix)/etc/bash_completion.d):

  $ agents completion bash | sudo tee /etc/bash_completion.d/agents > /dev/null`,
		example: `  # Complete agents in the current shell
  $ source <(agents completion bash)

  # Complete names without their descriptions, for your user alone
  $ agents completion bash --no-descriptions > ~/.local/share/bash-completion/completions/agents`,
		gen: func(root *cobra.Command, w io.Writer, desc bool) error {
			return root.GenBashCompletionV2(w, desc)
		},
	},
	{
		name: "zsh",
		install: `Completion must be enabled in zsh; if it is not yet, run once:

  $ echo "autoload -U compinit; compinit" >> ~/.zshrc

Load the script in the current shell:

  $ source <(agents completion zsh)

Load it in every new shell by writing it to a folder on $fpath, named _agents:

  $ agents completion zsh > "${fpath[1]}/_agents"

(on macOS with Homebrew: $(brew --prefix)/share/zsh/site-functions/_agents),
then start a new shell.`,
		example: `  # Complete agents in the current shell
  $ source <(agents completion zsh)

  # In every new shell
  $ agents completion zsh > "${fpath[1]}/_agents"`,
		gen: func(root *cobra.Command, w io.Writer, desc bool) error {
			if desc {
				return root.GenZshCompletion(w)
			}
			return root.GenZshCompletionNoDesc(w)
		},
	},
	{
		name: "fish",
		install: `Load the script in the current shell:

  $ agents completion fish | source

Load it in every new shell:

  $ agents completion fish > ~/.config/fish/completions/agents.fish`,
		example: `  # Complete agents in the current shell
  $ agents completion fish | source

  # In every new shell
  $ agents completion fish > ~/.config/fish/completions/agents.fish`,
		gen: func(root *cobra.Command, w io.Writer, desc bool) error {
			return root.GenFishCompletion(w, desc)
		},
	},
	{
		name: "powershell",
		install: `Load the script in the current session:

  PS> agents completion powershell | Out-String | Invoke-Expression

Load it in every new session by adding that line to your PowerShell profile
(the file $PROFILE names), or by saving the script and dot-sourcing it there:

  PS> agents completion powershell > agents.ps1
  PS> Add-Content $PROFILE ". $(Resolve-Path agents.ps1)"`,
		example: `  # Complete agents in the current session
  PS> agents completion powershell | Out-String | Invoke-Expression`,
		gen: func(root *cobra.Command, w io.Writer, desc bool) error {
			if desc {
				return root.GenPowerShellCompletionWithDesc(w)
			}
			return root.GenPowerShellCompletion(w)
		},
	},
}

// completionRunE is the RunE of 'agents completion' without a shell it
// knows: the shell is its argument, so none is a usage error, as a
// missing argument is for every command, and naming the shells; one
// that names no shell is an unknown command, as in a group.
func completionRunE(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return cmdutil.UnknownCommand(cmd, args[0])
	}
	names := make([]string, len(completionShells))
	for i, sh := range completionShells {
		names[i] = sh.name
	}
	return errs.Usage("missing a shell: %s or %s", strings.Join(names[:len(names)-1], ", "), names[len(names)-1]).
		WithHint("for example: source <(%s bash); usage: %s", cmd.CommandPath(), cmd.UseLine())
}

// newCompletionCmd returns 'agents completion <shell>', which writes the
// completion script for a shell to stdout. The scripts call back into
// agents (its hidden __complete command) on each Tab, so profile names,
// gates and the like complete from the store the command line points at.
func newCompletionCmd(deps *cmdutil.Deps) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "completion <shell>",
		Short: "Print a completion script for bash, zsh, fish or PowerShell",
		Long: `Print a script that makes your shell complete agents' commands, flags and
values: profile names (the built-ins and those in your store), gate names,
namespaces and output formats.

Each shell's command explains how to install its script. Values are looked
up when you press Tab, in the home that --home or AGENTS_HOME names on the
command line being completed; completion never writes anything.`,
		Example: `  # Try it in the current bash session
  $ source <(agents completion bash)

  # Install it for fish
  $ agents completion fish > ~/.config/fish/completions/agents.fish`,
		Annotations:       map[string]string{noConfigAnnotation: "1"},
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE:              completionRunE,
	}
	for _, sh := range completionShells {
		var noDesc bool
		sub := &cobra.Command{
			Use:               sh.name,
			Short:             fmt.Sprintf("Print the completion script for %s", sh.name),
			Long:              fmt.Sprintf("Print the completion script for %s on stdout.\n\n%s", sh.name, sh.install),
			Example:           sh.example,
			Args:              cmdutil.ExactArgs(0, "no arguments"),
			ValidArgsFunction: cobra.NoFileCompletions,
			RunE: func(c *cobra.Command, _ []string) error {
				return sh.gen(c.Root(), deps.IO.Out, !noDesc)
			},
		}
		sub.Flags().BoolVar(&noDesc, "no-descriptions", false, "complete values without their descriptions")
		cmd.AddCommand(sub)
	}
	return cmd
}
