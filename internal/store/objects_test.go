package store

import (
	"context"
	"errors"
	"testing"

	"github.com/agentsctl/agents/internal/canon"
)

// TestObjectPut: put is called with the digest only once the checks pass,
// and its error is the caller's.
func TestObjectPut(t *testing.T) {
	var got []string
	put := func(digest string) error { got = append(got, digest); return nil }
	d, err := ObjectPut(context.Background(), []byte("x"), put)
	if err != nil || d != canon.Digest([]byte("x")) || len(got) != 1 || got[0] != d {
		t.Fatalf("digest %q, err %v, put %v", d, err, got)
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ObjectPut(ended, []byte("x"), put); err == nil || len(got) != 1 {
		t.Errorf("ended context: err %v, put %d times", err, len(got))
	}
	if _, err := ObjectPut(context.Background(), make([]byte, MaxObjectSize+1), put); err == nil || len(got) != 1 {
		t.Errorf("too large: err %v, put %d times", err, len(got))
	}
	failed := errors.New("disk full")
	if d, err := ObjectPut(context.Background(), []byte("x"), func(string) error { return failed }); d != "" || !errors.Is(err, failed) {
		t.Errorf("failed put: digest %q, err %v", d, err)
	}
}
