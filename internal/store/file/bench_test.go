package file_test

import (
	"fmt"
	"testing"

	"github.com/agentsctl/agents/internal/store"
	filestore "github.com/agentsctl/agents/internal/store/file"
	"github.com/agentsctl/agents/internal/store/storetest"
)

// benchStore returns a file store holding n profiles across up to 50
// namespaces, written as the store writes them (without history, which
// neither get nor list reads).
func benchStore(b *testing.B, n int) (store.Store, []string) {
	b.Helper()
	home := b.TempDir()
	names := make([]string, n)
	for i := range n {
		name := fmt.Sprintf("ns%02d/profile-%05d", i%50, i)
		storetest.WriteProfileFile(b, home, storetest.Profile(b, name, i))
		names[i] = name
	}
	return openStore(b, home, filestore.Options{}), names
}

func BenchmarkGetProfile(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("profiles=%d", n), func(b *testing.B) {
			s, names := benchStore(b, n)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := s.Profiles().Get(ctx(), names[i%len(names)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkListProfiles lists stores with the derived cache of decoded
// profiles warm (every file unchanged since a listing cached it) and
// without it (every file parsed).
func BenchmarkListProfiles(b *testing.B) {
	for _, n := range []int{10, 1000, 10000} {
		for _, cache := range []bool{false, true} {
			if n == 10000 && !cache {
				continue // minutes of YAML; the 1,000 case shows the rate
			}
			name := fmt.Sprintf("profiles=%d/cache=off", n)
			if cache {
				name = fmt.Sprintf("profiles=%d/cache=warm", n)
			}
			b.Run(name, func(b *testing.B) {
				s, _ := benchStore(b, n)
				if cache {
					// The first listing fills the cache.
					if _, err := s.Profiles().List(ctx(), store.Query{}); err != nil {
						b.Fatal(err)
					}
				} else {
					s = openStore(b, s.(*filestore.Store).Home(), filestore.Options{NoCache: true})
				}
				b.ReportAllocs()
				for b.Loop() {
					l, err := s.Profiles().List(ctx(), store.Query{})
					if err != nil || len(l.Items) != n {
						b.Fatalf("listed %d of %d: %v", len(l.Items), n, err)
					}
				}
			})
		}
	}
}

func BenchmarkListProfileNames(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprintf("profiles=%d", n), func(b *testing.B) {
			s, _ := benchStore(b, n)
			b.ReportAllocs()
			for b.Loop() {
				names, err := s.Profiles().Names(ctx(), store.Query{})
				if err != nil || len(names) != n {
					b.Fatalf("listed %d of %d: %v", len(names), n, err)
				}
			}
		})
	}
}

func BenchmarkPutProfile(b *testing.B) {
	s := openStore(b, b.TempDir(), filestore.Options{})
	p := storetest.Profile(b, "acme/bench", 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Profiles().Put(ctx(), p, true); err != nil {
			b.Fatal(err)
		}
	}
}
