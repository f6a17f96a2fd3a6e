package store

import "testing"

// Only a put of the version itself says it is the version the store last
// wrote: a put of another, or a remove of it, does not.
func TestPuts(t *testing.T) {
	tests := []struct {
		name string
		e    HistoryEntry
		want bool
	}{
		{"a put of it", HistoryEntry{Digest: "b", Event: EventPut}, true},
		{"a put of another", HistoryEntry{Digest: "a", Event: EventPut}, false},
		{"a remove of it", HistoryEntry{Digest: "b", Event: EventRemove}, false},
		{"an event not known", HistoryEntry{Digest: "b", Event: "Put"}, false},
		{"nothing", HistoryEntry{}, false},
	}
	for _, tt := range tests {
		if got := tt.e.Puts("b"); got != tt.want {
			t.Errorf("%s: Puts = %v, want %v", tt.name, got, tt.want)
		}
	}
}
