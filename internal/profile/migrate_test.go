package profile

import "testing"

func TestHasComments(t *testing.T) {
	tests := []struct {
		doc  string
		want bool
	}{
		{"name: acme/x\nrequire_sandbox: true\n", false},
		{`{"name": "acme/x", "require_sandbox": true}`, false},
		{"name: 'acme/x # not a comment'\n", false},
		{"# head\nname: acme/x\n", true},
		{"name: acme/x # line\n", true},
		{"name: acme/x\nsafety:\n  # inside\n  require_sandbox: true\n", true},
		{"name: acme/x\n\n# at the end\n", true},
	}
	for _, tt := range tests {
		if got := HasComments([]byte(tt.doc)); got != tt.want {
			t.Errorf("HasComments(%q) = %v, want %v", tt.doc, got, tt.want)
		}
	}
}
