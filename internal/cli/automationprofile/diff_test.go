package automationprofile_test

import (
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/agentsctl/agents/internal/cli"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/profiles"
)

// seedMatrix is the built-in table of the specification (seed 002), flags
// down and profiles across, copied from it by hand.
var (
	seedProfiles = []string{"manual", "review", "supervised", "cautious", "trusted", "auto", "ci", "full-auto"}
	seedMatrix   = []struct {
		field  string
		values []any
	}{
		{"auto_strategize", []any{1.0, 0.0, 0.0, 0.7, 0.0, 0.0, 0.0, 0.0}},
		{"auto_execute", []any{1.0, 0.0, 1.0, 0.7, 0.0, 0.0, 0.0, 0.0}},
		{"auto_apply", []any{1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0}},
		{"auto_decisions_strategize", []any{1.0, 1.0, 0.0, 0.6, 0.0, 0.0, 0.0, 0.0}},
		{"auto_decisions_execute", []any{1.0, 1.0, 1.0, 0.8, 0.0, 0.0, 0.0, 0.0}},
		{"auto_validation_fix", []any{1.0, 1.0, 1.0, 0.7, 0.0, 0.0, 0.0, 0.0}},
		{"auto_strategy_revision", []any{1.0, 1.0, 1.0, 0.8, 1.0, 0.0, 0.0, 0.0}},
		{"auto_reversion_from_apply", []any{1.0, 1.0, 1.0, 0.9, 1.0, 1.0, 0.0, 0.0}},
		{"auto_child_plans", []any{1.0, 0.0, 1.0, 0.7, 0.0, 0.0, 0.0, 0.0}},
		{"auto_retry_transient", []any{1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
		{"auto_checkpoint_restore", []any{1.0, 1.0, 1.0, 0.6, 1.0, 0.0, 0.0, 0.0}},
		{"safety.require_sandbox", []any{true, true, true, true, true, true, true, false}},
		{"safety.require_checkpoints", []any{true, true, true, true, true, true, true, false}},
		{"safety.allow_unsafe_tools", []any{false, false, false, false, false, false, false, true}},
	}
	seedCategories = map[string]string{
		"auto_strategize": "phase transition", "auto_execute": "phase transition", "auto_apply": "phase transition",
		"auto_decisions_strategize": "decision autonomy", "auto_decisions_execute": "decision autonomy",
		"auto_validation_fix": "self-repair", "auto_strategy_revision": "self-repair", "auto_reversion_from_apply": "self-repair",
		"auto_child_plans": "child plans", "auto_retry_transient": "retry", "auto_checkpoint_restore": "checkpoint",
	}
)

// diffFieldNames are the 25 rows of a full comparison, in order.
var diffFieldNames = []string{
	"auto_strategize", "auto_execute", "auto_apply",
	"auto_decisions_strategize", "auto_decisions_execute",
	"auto_validation_fix", "auto_strategy_revision", "auto_reversion_from_apply",
	"auto_child_plans", "auto_retry_transient", "auto_checkpoint_restore",
	"safety.require_sandbox", "safety.require_checkpoints", "safety.allow_unsafe_tools",
	"safety.require_human_approval", "safety.allowed_skill_categories",
	"safety.max_cost_per_plan", "safety.max_total_cost", "safety.max_retries_per_step",
	"guards.max_tool_calls_per_step", "guards.max_total_cost", "guards.tool_allowlist",
	"guards.tool_denylist", "guards.require_approval_for_writes", "guards.require_approval_for_apply",
}

type diffDocument struct {
	Profiles    []string `json:"profiles"`
	Differences int      `json:"differences"`
	Fields      []struct {
		Field    string `json:"field"`
		Category string `json:"category"`
		Values   []any  `json:"values"`
		Differs  bool   `json:"differs"`
	} `json:"fields"`
}

func decodeDiff(t *testing.T, r result) diffDocument {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	var d diffDocument
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("stdout is not a comparison (%v): %q", err, r.stdout)
	}
	return d
}

func diffArgs(args ...string) []string {
	return append([]string{"automation-profile", "diff"}, args...)
}

// allEqual reports whether every value is the same, judged independently
// of the command: via their JSON text, lists sorted.
func allEqual(vs []any) bool {
	key := func(v any) string {
		if l, ok := v.([]any); ok {
			s := make([]string, len(l))
			for i, x := range l {
				s[i], _ = x.(string)
			}
			slices.Sort(s)
			v = s
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	for _, v := range vs[1:] {
		if key(v) != key(vs[0]) {
			return false
		}
	}
	return true
}

func TestDiffBuiltinMatrix(t *testing.T) {
	d := decodeDiff(t, run(t, "", diffArgs("--builtin", "-f", "json")...))
	if !slices.Equal(d.Profiles, seedProfiles) {
		t.Fatalf("profiles %v, want %v", d.Profiles, seedProfiles)
	}
	if len(d.Fields) != len(seedMatrix) {
		t.Fatalf("%d rows, want the seed's %d", len(d.Fields), len(seedMatrix))
	}
	for i, want := range seedMatrix {
		got := d.Fields[i]
		if got.Field != want.field {
			t.Errorf("row %d is %s, want %s", i, got.Field, want.field)
			continue
		}
		if !reflect.DeepEqual(got.Values, want.values) {
			t.Errorf("%s: values %v, want %v", want.field, got.Values, want.values)
		}
		wantCat := seedCategories[want.field]
		if strings.HasPrefix(want.field, "safety.") {
			wantCat = "safety"
		}
		if got.Category != wantCat {
			t.Errorf("%s: category %q, want %q", want.field, got.Category, wantCat)
		}
		if got.Differs == allEqual(want.values) {
			t.Errorf("%s: differs = %v", want.field, got.Differs)
		}
	}
	if d.Differences != len(seedMatrix) {
		t.Errorf("differences = %d, want %d (every row of the matrix differs somewhere)", d.Differences, len(seedMatrix))
	}
}

func TestDiffTwoProfiles(t *testing.T) {
	d := decodeDiff(t, run(t, "", diffArgs("acme/guarded", "acme/capped", "-f", "json")...))
	if !slices.Equal(d.Profiles, []string{"acme/guarded", "acme/capped"}) {
		t.Fatalf("profiles %v", d.Profiles)
	}
	var names []string
	byName := map[string]int{}
	for i, f := range d.Fields {
		names = append(names, f.Field)
		byName[f.Field] = i
	}
	if !slices.Equal(names, diffFieldNames) {
		t.Fatalf("fields\n%v\nwant\n%v", names, diffFieldNames)
	}
	want := map[string]struct {
		values  []any
		differs bool
	}{
		// guarded leaves auto_apply at 1.0 and the unset thresholds at
		// 1.0; capped sets auto_decisions_execute to 0.
		"auto_strategize":                    {[]any{0.7, 1.0}, true},
		"auto_apply":                         {[]any{1.0, 1.0}, false},
		"auto_decisions_execute":             {[]any{1.0, 0.0}, true},
		"safety.require_sandbox":             {[]any{true, false}, true},
		"safety.require_checkpoints":         {[]any{true, true}, false},
		"safety.allowed_skill_categories":    {[]any{[]any{}, []any{"coding", "docs"}}, true},
		"safety.max_cost_per_plan":           {[]any{nil, 50.0}, true},
		"safety.max_retries_per_step":        {[]any{3.0, 1.0}, true},
		"guards.max_tool_calls_per_step":     {[]any{10.0, nil}, true},
		"guards.tool_allowlist":              {[]any{nil, []any{"read", "edit", "shell_exec"}}, true},
		"guards.tool_denylist":               {[]any{[]any{"shell_exec", "file_delete"}, []any{"shell_exec"}}, true},
		"guards.require_approval_for_writes": {[]any{true, false}, true},
	}
	for field, w := range want {
		got := d.Fields[byName[field]]
		if !reflect.DeepEqual(got.Values, w.values) || got.Differs != w.differs {
			t.Errorf("%s: values %v differs %v, want %v differs %v", field, got.Values, got.Differs, w.values, w.differs)
		}
	}
	n := 0
	for _, f := range d.Fields {
		if f.Differs != !allEqual(f.Values) {
			t.Errorf("%s: differs = %v for values %v", f.Field, f.Differs, f.Values)
		}
		if f.Differs {
			n++
		}
	}
	if d.Differences != n {
		t.Errorf("differences = %d, but %d rows differ", d.Differences, n)
	}
}

func TestDiffGuardsAbsent(t *testing.T) {
	d := decodeDiff(t, run(t, "", diffArgs("review", "acme/strict", "-f", "json")...))
	for _, f := range d.Fields {
		if strings.HasPrefix(f.Field, "guards.") && (f.Values[0] != nil || f.Values[1] != nil || f.Differs) {
			t.Errorf("%s: %v differs %v; profiles without guards have null guard fields", f.Field, f.Values, f.Differs)
		}
	}
}

// runStore runs agents with the given custom profiles in the store.
func runStore(t *testing.T, docs []string, args ...string) result {
	t.Helper()
	st := store.NewMemory()
	for _, doc := range docs {
		p, _, err := profile.DecodeProfile([]byte(doc), "test.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Profiles().Put(t.Context(), p, false); err != nil {
			t.Fatal(err)
		}
	}
	ios, _, out, errOut := iostreams.Test()
	deps := &cmdutil.Deps{
		IO:        ios,
		Builtins:  profiles.Builtin,
		Getenv:    func(k string) string { return map[string]string{"AGENTS_HOME": t.TempDir()}[k] },
		OpenStore: func(cmdutil.Config) (store.Store, error) { return st, nil },
	}
	code := cli.Run(deps, args)
	return result{code, out.String(), errOut.String()}
}

func TestDiffLists(t *testing.T) {
	docs := []string{
		"name: t/a\nguards:\n  tool_denylist: [rm, curl]\n  tool_allowlist: []\n",
		"name: t/b\nguards:\n  tool_denylist: [curl, rm]\n",
		"name: t/c\nguards:\n  tool_denylist: [curl]\n  tool_allowlist: []\n",
	}
	field := func(d diffDocument, name string) (bool, []any) {
		for _, f := range d.Fields {
			if f.Field == name {
				return f.Differs, f.Values
			}
		}
		t.Fatalf("no field %s", name)
		return false, nil
	}
	tests := []struct {
		a, b, field string
		differs     bool
	}{
		{"t/a", "t/b", "guards.tool_denylist", false},  // same tools, other order
		{"t/a", "t/c", "guards.tool_denylist", true},   // one tool fewer
		{"t/a", "t/b", "guards.tool_allowlist", true},  // empty against absent
		{"t/a", "t/c", "guards.tool_allowlist", false}, // empty against empty
	}
	for _, tt := range tests {
		d := decodeDiff(t, runStore(t, docs, diffArgs(tt.a, tt.b, "-f", "json")...))
		if got, vals := field(d, tt.field); got != tt.differs {
			t.Errorf("%s vs %s, %s %v: differs = %v, want %v", tt.a, tt.b, tt.field, vals, got, tt.differs)
		}
	}
}

func TestDiffOnlyDifferences(t *testing.T) {
	full := decodeDiff(t, run(t, "", diffArgs("review", "cautious", "-f", "json")...))
	only := decodeDiff(t, run(t, "", diffArgs("review", "cautious", "--only-differences", "-f", "json")...))
	var want []string
	for _, f := range full.Fields {
		if f.Differs {
			want = append(want, f.Field)
		}
	}
	var got []string
	for _, f := range only.Fields {
		got = append(got, f.Field)
	}
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("--only-differences rows %v, want %v", got, want)
	}
	if only.Differences != len(want) {
		t.Errorf("differences = %d, want %d", only.Differences, len(want))
	}

	// A custom profile with ci's values differs from it in nothing.
	var doc strings.Builder
	doc.WriteString("name: t/ci\n")
	for _, g := range profile.GateNames() {
		doc.WriteString(g + ": 0.0\n")
	}
	docs := []string{doc.String()}
	same := decodeDiff(t, runStore(t, docs, diffArgs("ci", "t/ci", "--only-differences", "-f", "json")...))
	if same.Differences != 0 || len(same.Fields) != 0 {
		t.Errorf("ci against a copy: %+v", same)
	}
	r := runStore(t, docs, diffArgs("ci", "t/ci", "--only-differences")...)
	if r.code != 0 || !strings.Contains(r.stdout, "no differences") || !strings.Contains(r.stdout, "0 of 25 fields differ") {
		t.Errorf("rich with no differences: exit %d\n%s", r.code, r.stdout)
	}
}

func TestDiffFormats(t *testing.T) {
	args := diffArgs("review", "acme/guarded")
	jd := decodeDiff(t, run(t, "", append(args, "-f", "json")...))

	t.Run("yaml", func(t *testing.T) {
		r := run(t, "", append(args, "-f", "yaml")...)
		var fromYAML any
		if err := yaml.Unmarshal([]byte(r.stdout), &fromYAML); err != nil {
			t.Fatal(err)
		}
		var fromJSON any
		b, _ := json.Marshal(jd)
		_ = json.Unmarshal(b, &fromJSON)
		yb, _ := json.Marshal(fromYAML)
		var yAny any
		_ = json.Unmarshal(yb, &yAny)
		if !reflect.DeepEqual(yAny, fromJSON) {
			t.Errorf("yaml and json documents differ:\n%s\n%s", yb, b)
		}
	})

	differing := map[string]bool{}
	for _, f := range jd.Fields {
		differing[f.Field] = f.Differs
	}

	t.Run("plain", func(t *testing.T) {
		r := run(t, "", append(args, "-f", "plain")...)
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if len(lines) != 1+len(diffFieldNames) {
			t.Fatalf("%d lines, want a header and %d rows:\n%s", len(lines), len(diffFieldNames), r.stdout)
		}
		if f := strings.Fields(lines[0]); !slices.Equal(f, []string{"FIELD", "review", "acme/guarded"}) {
			t.Errorf("header %q", lines[0])
		}
		for i, line := range lines[1:] {
			name := diffFieldNames[i]
			f := strings.Fields(strings.TrimPrefix(line, "*"))
			if len(f) != 3 || f[0] != name {
				t.Errorf("row %q, want field %s and two values", line, name)
			}
			if strings.HasPrefix(line, "*") != differing[name] {
				t.Errorf("row %q: marked %v, differs %v", line, strings.HasPrefix(line, "*"), differing[name])
			}
		}
		if !regexp.MustCompile(`(?m)^\* guards\.tool_denylist +null +shell_exec,file_delete$`).MatchString(r.stdout) {
			t.Errorf("a profile without guards shows null:\n%s", r.stdout)
		}
	})

	t.Run("table", func(t *testing.T) {
		r := run(t, "", append(args, "-f", "table")...)
		marked := regexp.MustCompile(`(?m)^\| \* (\S+)`).FindAllStringSubmatch(r.stdout, -1)
		var got []string
		for _, m := range marked {
			got = append(got, m[1])
		}
		var want []string
		for _, f := range jd.Fields {
			if f.Differs {
				_, leaf, _ := strings.Cut(f.Field, ".")
				if leaf == "" {
					leaf = f.Field
				}
				want = append(want, leaf)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("marked rows %v, want %v\n%s", got, want, r.stdout)
		}
		for _, cat := range []string{"phase transition", "decision autonomy", "self-repair", "child plans", "retry", "checkpoint", "safety", "guards"} {
			if strings.Count(r.stdout, "| "+cat+" ") != 1 {
				t.Errorf("category %q should head its group once:\n%s", cat, r.stdout)
			}
		}
	})

	t.Run("rich without colour", func(t *testing.T) {
		r := run(t, "", append(args, "-f", "rich")...)
		if strings.Contains(r.stdout, "\x1b[") {
			t.Errorf("escape codes without a terminal:\n%q", r.stdout)
		}
		for _, want := range []string{"Phase transition", "Safety", "Guards", "review", "acme/guarded", "Autonomy"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("rich lacks %q:\n%s", want, r.stdout)
			}
		}
		n := 0
		for _, f := range jd.Fields {
			if f.Differs {
				n++
			}
		}
		if got := len(regexp.MustCompile(`(?m)^\*\s{2,}\S`).FindAllString(r.stdout, -1)); got != n {
			t.Errorf("%d rows marked *, want %d:\n%s", got, n, r.stdout)
		}
	})

	t.Run("rich with colour", func(t *testing.T) {
		ios, _, out, _ := iostreams.Test()
		ios.SetStdoutTTY(true)
		deps := &cmdutil.Deps{
			IO:        ios,
			Builtins:  profiles.Builtin,
			Getenv:    func(k string) string { return map[string]string{"AGENTS_HOME": t.TempDir()}[k] },
			OpenStore: func(cmdutil.Config) (store.Store, error) { return newStore(t), nil },
		}
		if code := cli.Run(deps, append(args, "-f", "rich")); code != 0 {
			t.Fatalf("exit %d", code)
		}
		// A differing row's marker is in the warning tone (yellow, bold).
		if !strings.Contains(out.String(), "\x1b[1;33m*") {
			t.Errorf("differing rows are not highlighted:\n%q", out.String())
		}
	})
}

func TestDiffErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"one name", diffArgs("review"), 2, "at least two profiles"},
		{"no names", diffArgs(), 2, "at least two profiles"},
		{"builtin with names", diffArgs("--builtin", "review"), 2, "--builtin takes no profile names"},
		{"twice", diffArgs("review", "review"), 2, `"review" is named twice`},
		{"unknown custom", diffArgs("review", "acme/none"), 4, `"acme/none" not found`},
		{"unknown bare", diffArgs("acme/strict", "strict"), 3, `invalid name "strict": it is not a built-in profile`},
		{"unknown flag", diffArgs("review", "ci", "--bogus"), 2, "unknown flag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", tt.args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.msg) || r.stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", r.code, r.stdout, r.stderr, tt.code, tt.msg)
			}
		})
	}
}
