package store

import "testing"

// A version is the one the store last wrote only when the history ends
// with a put of it: an earlier put, or a put followed by a remove, is not.
func TestEndsWithPut(t *testing.T) {
	put := func(d string) HistoryEntry { return HistoryEntry{Digest: d, Event: EventPut} }
	remove := func(d string) HistoryEntry { return HistoryEntry{Digest: d, Event: EventRemove} }
	tests := []struct {
		name string
		h    []HistoryEntry
		want bool
	}{
		{"no history", nil, false},
		{"last put", []HistoryEntry{put("a"), put("b")}, true},
		{"an earlier put", []HistoryEntry{put("b"), put("a")}, false},
		{"removed after", []HistoryEntry{put("b"), remove("b")}, false},
		{"removed of it", []HistoryEntry{remove("b")}, false},
	}
	for _, tt := range tests {
		if got := EndsWithPut(tt.h, "b"); got != tt.want {
			t.Errorf("%s: EndsWithPut = %v, want %v", tt.name, got, tt.want)
		}
	}
}
