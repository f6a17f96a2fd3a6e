package safetypack

import (
	"path/filepath"
	"testing"

	"github.com/agentsctl/agents/profiles"
)

// BenchmarkParsePackShipped is the parse of a pack without predicates,
// the floor of the next benchmark.
func BenchmarkParsePackShipped(b *testing.B) {
	data := validPack("acme_safety_v1").Encode()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParsePack(data, "x.json"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParsePackLockdown parses the example lock-down pack, compiling
// its three predicates: what loading a pack with predicates adds.
func BenchmarkParsePackLockdown(b *testing.B) {
	data := readFileB(b, filepath.Join("..", "..", "examples", "packs", "acme_lockdown_v1.json"))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParsePack(data, "x.json"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJudgeLockdown judges the example pack's three predicates for
// full-auto: what a decision under that pack adds.
func BenchmarkJudgeLockdown(b *testing.B) {
	p, err := ParsePack(readFileB(b, filepath.Join("..", "..", "examples", "packs", "acme_lockdown_v1.json")), "x.json")
	if err != nil {
		b.Fatal(err)
	}
	prof := profiles.Decoded("full-auto")
	ctx := PolicyContext{Profile: prof, Safety: prof.Safety}
	b.ReportAllocs()
	for b.Loop() {
		if v := p.Judge(ctx); !v.Refused() {
			b.Fatal("full-auto upheld the lock-down")
		}
	}
}

func readFileB(b *testing.B, path string) []byte {
	b.Helper()
	data, err := readTestFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}
