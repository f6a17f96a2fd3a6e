package profiles

import (
	"testing"

	"github.com/agentsctl/agents/internal/profile"
)

// TestTableHoldsEveryGate: the table has a threshold for each gate, so a
// gate added to the profile fails here rather than at a lookup.
func TestTableHoldsEveryGate(t *testing.T) {
	if n := len(builtin{}.gates); n != len(profile.Gates) {
		t.Fatalf("the table holds %d thresholds a profile, the profile has %d gates", n, len(profile.Gates))
	}
	if len(builtins) != len(profile.BuiltinNames) {
		t.Fatalf("the table holds %d built-ins, there are %d", len(builtins), len(profile.BuiltinNames))
	}
}
