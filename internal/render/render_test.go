package render_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/render"
	"github.com/charmbracelet/lipgloss"
	"go.yaml.in/yaml/v3"
)

// sgr matches the styling sequences lipgloss writes; nothing else in rich
// output may start with ESC.
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestNames(t *testing.T) {
	want := []string{"json", "yaml", "plain", "table", "rich"}
	if got := render.Names(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for _, n := range want {
		if _, err := render.Lookup(n, render.Options{}); err != nil {
			t.Errorf("Lookup(%q): %v", n, err)
		}
	}
}

func TestLookupUnknownFormat(t *testing.T) {
	for _, name := range []string{"xml", "", "JSON", "rich "} {
		_, err := render.Lookup(name, render.Options{})
		var e *errs.Error
		if !errors.As(err, &e) {
			t.Fatalf("Lookup(%q) error = %v, want *errs.Error", name, err)
		}
		if e.Kind != errs.KindUsage {
			t.Errorf("Lookup(%q) kind = %v, want usage", name, e.Kind)
		}
		if e.Hint != "use one of: json, yaml, plain, table, rich" {
			t.Errorf("Lookup(%q) hint = %q", name, e.Hint)
		}
	}
}

// TestJSONDocument checks the canonical document's shape: snake_case keys
// in the specification's order, safety nested, guards null when absent.
func TestJSONDocument(t *testing.T) {
	top := []string{"name", "description", "schema_version",
		"auto_strategize", "auto_execute", "auto_apply",
		"auto_decisions_strategize", "auto_decisions_execute",
		"auto_validation_fix", "auto_strategy_revision", "auto_reversion_from_apply",
		"auto_child_plans", "auto_retry_transient", "auto_checkpoint_restore",
		"safety", "guards"}
	safety := []string{"require_sandbox", "require_checkpoints", "allow_unsafe_tools",
		"require_human_approval", "allowed_skill_categories", "max_cost_per_plan",
		"max_total_cost", "max_retries_per_step"}
	guards := []string{"max_tool_calls_per_step", "max_total_cost", "tool_allowlist",
		"tool_denylist", "require_approval_for_writes", "require_approval_for_apply"}

	for _, p := range []*profile.AutomationProfile{cautious(), guarded()} {
		out := renderString(t, "json", render.Options{}, render.ProfileView{Profile: p})
		if got := objectKeys(t, []byte(out)); !reflect.DeepEqual(got, top) {
			t.Errorf("%s: keys %v, want %v", p.Name, got, top)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if got := objectKeys(t, doc["safety"]); !reflect.DeepEqual(got, safety) {
			t.Errorf("%s: safety keys %v, want %v", p.Name, got, safety)
		}
		if p.Guards == nil {
			if string(doc["guards"]) != "null" {
				t.Errorf("%s: guards = %s, want null", p.Name, doc["guards"])
			}
		} else if got := objectKeys(t, doc["guards"]); !reflect.DeepEqual(got, guards) {
			t.Errorf("%s: guards keys %v, want %v", p.Name, got, guards)
		}
	}
}

// objectKeys returns the keys of a JSON object in document order.
func objectKeys(t *testing.T, js []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(js))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %s", js)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestYAMLRoundTrip decodes the yaml output back into a profile and expects
// the very profile that was rendered: show -f yaml must be a valid input.
func TestYAMLRoundTrip(t *testing.T) {
	for _, p := range []*profile.AutomationProfile{cautious(), fullAuto(), guarded()} {
		out := renderString(t, "yaml", render.Options{}, render.ProfileView{Profile: p})
		var generic any
		if err := yaml.Unmarshal([]byte(out), &generic); err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		js, err := json.Marshal(generic)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.DisallowUnknownFields()
		var back profile.AutomationProfile
		if err := dec.Decode(&back); err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if !reflect.DeepEqual(&back, p) {
			t.Errorf("%s: yaml decodes to\n%+v\nwant\n%+v", p.Name, back, *p)
		}
	}
}

// TestYAMLAcceptedByDecoder feeds the yaml output of a custom profile to the
// decoder add uses.
func TestYAMLAcceptedByDecoder(t *testing.T) {
	p := guarded()
	out := renderString(t, "yaml", render.Options{}, render.ProfileView{Profile: p})
	back, warnings, err := profile.DecodeProfile([]byte(out), "show.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %v", warnings)
	}
	if !reflect.DeepEqual(back, p) {
		t.Errorf("decoded\n%+v\nwant\n%+v", *back, *p)
	}
}

func TestListDataIsAlwaysAnArray(t *testing.T) {
	for _, v := range []render.ProfileListView{{}, {Profiles: []*profile.AutomationProfile{}}} {
		if got := renderString(t, "json", render.Options{}, v); got != "[]\n" {
			t.Errorf("json = %q, want []", got)
		}
		if got := renderString(t, "yaml", render.Options{}, v); got != "[]\n" {
			t.Errorf("yaml = %q, want []", got)
		}
	}
}

func TestListPlainIsOneNamePerLine(t *testing.T) {
	v := render.ProfileListView{Profiles: []*profile.AutomationProfile{cautious(), fullAuto(), guarded()}}
	if got, want := renderString(t, "plain", render.Options{}, v), "cautious\nfull-auto\nacme/guarded\n"; got != want {
		t.Errorf("plain = %q, want %q", got, want)
	}
}

// TestRichColour checks that rich without colour writes no escape code at
// all, that with colour it does, and that colour changes nothing else.
func TestRichColour(t *testing.T) {
	for _, gv := range goldenViews() {
		t.Run(gv.name, func(t *testing.T) {
			plain := renderString(t, "rich", render.Options{}, gv.view)
			if strings.ContainsRune(plain, '\x1b') {
				t.Errorf("rich without colour contains ESC:\n%q", plain)
			}
			coloured := renderString(t, "rich", render.Options{Color: true}, gv.view)
			if !strings.ContainsRune(coloured, '\x1b') {
				t.Errorf("rich with colour has no escape code")
			}
			if got := sgr.ReplaceAllString(coloured, ""); got != plain {
				t.Errorf("rich with colour, styles removed, differs from rich without colour:\n%s\n---\n%s", got, plain)
			}
		})
	}
}

func TestTableIsNeverColoured(t *testing.T) {
	for _, gv := range goldenViews() {
		out := renderString(t, "table", render.Options{Color: true}, gv.view)
		if strings.ContainsRune(out, '\x1b') {
			t.Errorf("%s: table output contains ESC", gv.name)
		}
	}
}

// hostile is a profile whose every text field tries to drive the terminal:
// colour, carriage return, a bidirectional override, invalid UTF-8 and a
// window title sequence.
func hostile() *profile.AutomationProfile {
	p := guarded()
	p.Name = "acme/x\x1b]0;owned\x07"
	p.Description = "\x1b[31mred\r\u202eevil\xff"
	p.Safety.AllowedSkillCategories = []string{"co\x1b[2Jde", "\u202edocs"}
	p.Guards.ToolAllowlist = []string{"ok\rtool"}
	p.Guards.ToolDenylist = []string{"rm\x1b[0m", "bad\xfe"}
	return p
}

func TestHumanFormatsEscapeProfileText(t *testing.T) {
	views := map[string]render.View{
		"show": render.ProfileView{Profile: hostile()},
		"list": render.ProfileListView{Profiles: []*profile.AutomationProfile{hostile()}},
		"add":  render.Change{Verb: "added", Subject: hostile().Name, Detail: hostile().Description, Doc: hostile()},
	}
	variants := []struct {
		format string
		opts   render.Options
	}{
		{"plain", render.Options{}},
		{"table", render.Options{}},
		{"rich", render.Options{}},
		{"rich", render.Options{Color: true}},
	}
	// Every view shows the name and the description; show also shows the
	// categories and tool names.
	name := `acme/x\x1b]0;owned\a`
	always := []string{name, `\x1b[31mred\r\u202eevil\xff`}
	full := []string{`co\x1b[2Jde`, `\u202edocs`, `ok\rtool`, `rm\x1b[0m`, `bad\xfe`}
	for view, v := range views {
		for _, f := range variants {
			out := renderString(t, f.format, f.opts, v)
			label := view + " " + f.format
			if f.opts.Color {
				label += " colour"
			}
			rest := sgr.ReplaceAllString(out, "")
			for _, bad := range []string{"\x1b", "\r", "\a", "\u202e"} {
				if strings.Contains(rest, bad) {
					t.Errorf("%s: output contains raw %q", label, bad)
				}
			}
			if !utf8.ValidString(out) {
				t.Errorf("%s: output is not valid UTF-8", label)
			}
			var want []string
			switch {
			case view == "list" && f.format == "plain":
				want = []string{name}
			case view == "list", view == "add":
				want = always
			default:
				want = append(append([]string{}, always...), full...)
			}
			for _, w := range want {
				if !strings.Contains(rest, w) {
					t.Errorf("%s: output lacks the escaped text %s", label, w)
				}
			}
		}
	}
}

func TestEscape(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"café ✔ 日本", "café ✔ 日本"},
		{"\x1b[31mred", `\x1b[31mred`},
		{"a\rb\nc\td", `a\rb\nc\td`},
		{"\u202eevil", `\u202eevil`},
		{"zero\u200bwidth", `zero\u200bwidth`},
		{"del\x7f", `del\x7f`},
		{"c1\u009b", `c1\u009b`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"\xe2\x82", `\xe2\x82`},
		{"\ufffd is valid", "\ufffd is valid"},
		{"line\u2028sep", `line\u2028sep`},
		{"para\u2029sep", `para\u2029sep`},
		{"nbsp\u00a0ok", "nbsp\u00a0ok"},
	}
	for _, tt := range tests {
		if got := render.Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := render.Escape(render.Escape(tt.in)); again != tt.want {
			t.Errorf("Escape is not idempotent on %q: %q", tt.in, again)
		}
	}
}

func TestAutonomy(t *testing.T) {
	all := func(v float64) *profile.AutomationProfile {
		p := cautious()
		for _, g := range profile.Gates {
			g.Set(p, v)
		}
		return p
	}
	tests := []struct {
		name string
		p    *profile.AutomationProfile
		want float64
	}{
		{"every gate asks", all(1), 0},
		{"every gate automatic", all(0), 1},
		{"every gate at 0.75", all(0.75), 0.25},
		// cautious: (0.3+0.3+0+0.4+0.2+0.3+0.2+0.1+0.3+1+0.4) / 11
		{"cautious", cautious(), 3.5 / 11},
	}
	for _, tt := range tests {
		if got := render.Autonomy(tt.p); got < tt.want-1e-9 || got > tt.want+1e-9 {
			t.Errorf("%s: Autonomy = %v, want %v", tt.name, got, tt.want)
		}
	}
	if got := render.Percent(3.5 / 11); got != "32%" {
		t.Errorf("Percent = %q, want 32%%", got)
	}
}

func TestThresholdMeaning(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0, "automatic"},
		{1, "always asks"},
		{0.7, "automatic if confidence > 0.7"},
		{0.05, "automatic if confidence > 0.05"},
	}
	for _, tt := range tests {
		if got := render.ThresholdMeaning(tt.v); got != tt.want {
			t.Errorf("ThresholdMeaning(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestGauge(t *testing.T) {
	th := render.NewTheme(&bytes.Buffer{}, render.Options{})
	tests := []struct {
		v    float64
		want string
	}{
		{0, "░░░░░░░░░░ 0.0"},
		{0.6, "██████░░░░ 0.6"},
		{0.25, "███░░░░░░░ 0.25"},
		{0.04, "░░░░░░░░░░ 0.04"},
		{1, "██████████ 1.0"},
		{1.5, "██████████ 1.5"},
		{-1, "░░░░░░░░░░ -1.0"},
	}
	for _, tt := range tests {
		if got := th.Gauge(tt.v); got != tt.want {
			t.Errorf("Gauge(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
	if got := th.Ladder(0.3); got != "▮▮▮▯▯▯▯▯▯▯" {
		t.Errorf("Ladder(0.3) = %q", got)
	}
}

func TestThemeHelpersEscapeAndColour(t *testing.T) {
	plain := render.NewTheme(&bytes.Buffer{}, render.Options{})
	colour := render.NewTheme(&bytes.Buffer{}, render.Options{Color: true})
	var zero render.Theme
	helpers := map[string]func(*render.Theme, string) string{
		"Title": (*render.Theme).Title, "Heading": (*render.Theme).Heading,
		"Muted": (*render.Theme).Muted, "Good": (*render.Theme).Good,
		"Bad": (*render.Theme).Bad, "Warn": (*render.Theme).Warn,
		"Accent": (*render.Theme).Accent, "Strong": (*render.Theme).Strong,
	}
	for name, h := range helpers {
		if got := h(plain, "a\x1bb"); got != `a\x1bb` {
			t.Errorf("%s without colour = %q", name, got)
		}
		if got := h(&zero, "x"); got != "x" {
			t.Errorf("%s on a zero Theme = %q", name, got)
		}
		got := h(colour, "a\x1bb")
		if !strings.HasPrefix(got, "\x1b[") || sgr.ReplaceAllString(got, "") != `a\x1bb` {
			t.Errorf("%s with colour = %q", name, got)
		}
	}
	if got := plain.Badge(render.ToneAccent, "custom"); got != "[custom]" {
		t.Errorf("Badge = %q", got)
	}
	for _, tt := range []struct {
		got, want string
	}{
		{plain.Check(true), "✔"}, {plain.Check(false), "✘"},
		{plain.Flag(true, false), "✔"}, {plain.Flag(false, true), "✘"},
	} {
		if tt.got != tt.want {
			t.Errorf("mark = %q, want %q", tt.got, tt.want)
		}
	}
	// A relaxed flag and a safe one must not look the same in colour.
	if colour.Flag(true, true) == colour.Flag(true, false) {
		t.Errorf("Flag gives the same style to safe and relaxed values")
	}
}

func TestGridAlignsStyledCells(t *testing.T) {
	th := render.NewTheme(&bytes.Buffer{}, render.Options{Color: true})
	out := th.Grid(2, [][]string{
		{th.Good("ok"), "a"},
		{"longer", th.Warn("b")},
		{"x"},
	})
	want := "  ok      a\n  longer  b\n  x\n"
	if got := sgr.ReplaceAllString(out, ""); got != want {
		t.Errorf("Grid = %q, want %q", got, want)
	}
}

func TestRichTableFitsKnownWidth(t *testing.T) {
	v := render.ProfileListView{Profiles: []*profile.AutomationProfile{cautious(), guarded()}}
	wide := renderString(t, "rich", render.Options{}, v)
	if lipgloss.Width(wide) <= 70 {
		t.Fatalf("test needs a list wider than 70 columns, got %d", lipgloss.Width(wide))
	}
	out := renderString(t, "rich", render.Options{Width: 70}, v)
	for _, line := range strings.Split(out, "\n") {
		if w := lipgloss.Width(line); w > 70 {
			t.Errorf("line of width %d > 70: %q", w, line)
		}
	}
	if !strings.Contains(out, "cautious") || !strings.Contains(out, "acme/guarded") {
		t.Errorf("names lost when fitting the width:\n%s", out)
	}
}

func TestTableFitsKnownWidth(t *testing.T) {
	v := render.ProfileView{Profile: guarded()}
	if natural := renderString(t, "table", render.Options{}, v); lipgloss.Width(natural) <= 80 {
		t.Fatalf("test needs a table wider than 80 columns, got %d", lipgloss.Width(natural))
	}
	out := renderString(t, "table", render.Options{Width: 80}, v)
	for _, line := range strings.Split(out, "\n") {
		if w := lipgloss.Width(line); w > 80 {
			t.Errorf("line of width %d > 80: %q", w, line)
		}
	}
	if !strings.Contains(out, "destructive") {
		t.Errorf("description lost when wrapping:\n%s", out)
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly10!", 10, "exactly10!"},
		{"eleven char", 10, "eleven ch…"},
		{"cut at a space", 8, "cut at…"},
		{"日本語のテキスト", 7, "日本語…"},
		{"anything", 0, "anything"},
	}
	for _, tt := range tests {
		got := render.Truncate(tt.in, tt.width)
		if got != tt.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
		}
		if tt.width > 0 && lipgloss.Width(got) > tt.width {
			t.Errorf("Truncate(%q, %d) is %d wide", tt.in, tt.width, lipgloss.Width(got))
		}
	}
}

func TestJoinList(t *testing.T) {
	if got := render.JoinList(nil); got != "null" {
		t.Errorf("nil: %q", got)
	}
	if got := render.JoinList([]string{}); got != "[]" {
		t.Errorf("empty: %q", got)
	}
	if got := render.JoinList([]string{"a", "b"}); got != "a, b" {
		t.Errorf("two: %q", got)
	}
}

func TestKVKeepsKeyOrder(t *testing.T) {
	v := render.KV{Pairs: []render.Pair{{Key: "z", Value: "1"}, {Key: "a", Value: "2"}}}
	if got, want := renderString(t, "json", render.Options{}, v), "{\n  \"z\": \"1\",\n  \"a\": \"2\"\n}\n"; got != want {
		t.Errorf("json = %q, want %q", got, want)
	}
	if got, want := renderString(t, "yaml", render.Options{}, v), "z: \"1\"\na: \"2\"\n"; got != want {
		t.Errorf("yaml = %q, want %q", got, want)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrorsAreReturned(t *testing.T) {
	for _, name := range render.Names() {
		r, err := render.Lookup(name, render.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Render(failWriter{}, render.ProfileView{Profile: cautious()}); err == nil {
			t.Errorf("%s: no error from a failing writer", name)
		}
	}
}
