package cmdutil

import (
	"github.com/spf13/cobra"

	"github.com/agentsctl/agents/internal/errs"
)

// ExactArgs is cobra.ExactArgs with a usage error that names what is missing.
func ExactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == n {
			return nil
		}
		if len(args) < n {
			return errs.Usage("missing %s", what).
				WithHint("usage: %s", cmd.UseLine())
		}
		return errs.Usage("too many arguments: expected %s, got %d arguments", what, len(args)).
			WithHint("usage: %s", cmd.UseLine())
	}
}

// MinimumArgs is cobra.MinimumNArgs with a usage error that names what is
// missing.
func MinimumArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) >= n {
			return nil
		}
		return errs.Usage("missing %s", what).WithHint("usage: %s", cmd.UseLine())
	}
}
