package render_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
)

// benchProfiles returns n profiles like the golden ones, each named apart.
func benchProfiles(n int) []*profile.AutomationProfile {
	bases := []*profile.AutomationProfile{cautious(), fullAuto(), guarded()}
	out := make([]*profile.AutomationProfile, n)
	for i := range out {
		p := bases[i%len(bases)].Clone()
		p.Name = fmt.Sprintf("ns%02d/profile-%05d", i%50, i)
		out[i] = p
	}
	return out
}

// BenchmarkRender renders one profile (show) and a list of 1,000 (list) in
// every format, to a writer that discards.
func BenchmarkRender(b *testing.B) {
	views := []struct {
		name string
		view render.View
	}{
		{"show", render.ProfileView{Profile: guarded()}},
		{"list=1000", render.ProfileListView{Profiles: benchProfiles(1000)}},
	}
	for _, v := range views {
		for _, format := range render.Names() {
			for _, color := range []bool{false, true} {
				if color && format != "rich" {
					continue
				}
				name := fmt.Sprintf("%s/%s", v.name, format)
				if color {
					name += "-color"
				}
				b.Run(name, func(b *testing.B) {
					r, err := render.Lookup(format, render.Options{Color: color, Width: 120})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					for b.Loop() {
						if err := r.Render(io.Discard, v.view); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
