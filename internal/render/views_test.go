package render

import "testing"

// A list in a human format never reads as another list: an item that
// would read as no list, as two items or as a quoted item is quoted.
func TestJoinList(t *testing.T) {
	for _, tt := range []struct {
		list []string
		want string
	}{
		{nil, "null"},
		{[]string{}, "[]"},
		{[]string{"a", "b"}, "a, b"},
		{[]string{"a,b"}, `"a,b"`},
		{[]string{"null"}, `"null"`},
		{[]string{"[]"}, `"[]"`},
		{[]string{`say "hi"`}, `"say \"hi\""`},
		{[]string{"Bash", "mcp__x__y"}, "Bash, mcp__x__y"},
	} {
		if got := JoinList(tt.list); got != tt.want {
			t.Errorf("JoinList(%q) = %s, want %s", tt.list, got, tt.want)
		}
	}
	if got := cellText([]string{"a,b"}); got != `"a,b"` {
		t.Errorf("cellText of one item holding a comma = %s", got)
	}
}
