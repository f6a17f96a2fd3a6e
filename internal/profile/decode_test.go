package profile

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
)

func ptrF(v float64) *float64 { return &v }
func ptrI(v int) *int         { return &v }

// allAsk returns a profile named name with every threshold 1.0 and the
// default safety profile: what a file holding only a name decodes to.
func allAsk(name string) *AutomationProfile {
	p := &AutomationProfile{Name: name, SchemaVersion: "1.0", Safety: DefaultSafetyProfile()}
	for _, g := range Gates {
		g.Set(p, 1)
	}
	return p
}

func with(p *AutomationProfile, f func(*AutomationProfile)) *AutomationProfile {
	f(p)
	return p
}

func TestDecodeProfileValid(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want *AutomationProfile
	}{
		{
			name: "name only",
			doc:  "name: acme/min\n",
			want: allAsk("acme/min"),
		},
		{
			name: "built-in name is accepted by the decoder",
			doc:  "name: cautious\n",
			want: allAsk("cautious"),
		},
		{
			name: "description and schema version",
			doc:  "name: acme/x\ndescription: 'Two words'\nschema_version: \"1.0\"\n",
			want: with(allAsk("acme/x"), func(p *AutomationProfile) { p.Description = "Two words" }),
		},
		{
			name: "thresholds as integers and floats",
			doc:  "name: acme/x\nauto_strategize: 0\nauto_execute: 1\nauto_apply: 0.25\nauto_retry_transient: 5e-1\n",
			want: with(allAsk("acme/x"), func(p *AutomationProfile) {
				p.AutoStrategize, p.AutoExecute, p.AutoApply, p.AutoRetryTransient = 0, 1, 0.25, 0.5
			}),
		},
		{
			name: "negative zero reads as zero",
			doc:  "name: acme/x\nauto_apply: -0.0\n",
			want: with(allAsk("acme/x"), func(p *AutomationProfile) { p.AutoApply = 0 }),
		},
		{
			name: "byte order mark and CRLF",
			doc:  "\xef\xbb\xbfname: acme/x\r\nauto_apply: 0.5\r\nsafety:\r\n  max_retries_per_step: 7\r\n",
			want: with(allAsk("acme/x"), func(p *AutomationProfile) { p.AutoApply = 0.5; p.Safety.MaxRetriesPerStep = 7 }),
		},
		{
			name: "full safety",
			doc: `name: acme/x
safety:
  require_sandbox: false
  require_checkpoints: false
  allow_unsafe_tools: true
  require_human_approval: true
  allowed_skill_categories: [" code ", test, code, deploy]
  max_cost_per_plan: 50
  max_total_cost: 200.5
  max_retries_per_step: 0
`,
			want: with(allAsk("acme/x"), func(p *AutomationProfile) {
				p.Safety = SafetyProfile{
					RequireSandbox: false, RequireCheckpoints: false, AllowUnsafeTools: true, RequireHumanApproval: true,
					AllowedSkillCategories: []string{"code", "test", "deploy"},
					MaxCostPerPlan:         ptrF(50), MaxTotalCost: ptrF(200.5), MaxRetriesPerStep: 0,
				}
			}),
		},
		{
			name: "equal costs and nulls",
			doc:  "name: acme/x\nsafety:\n  max_cost_per_plan: 3\n  max_total_cost: 3.0\n",
			want: with(allAsk("acme/x"), func(p *AutomationProfile) { p.Safety.MaxCostPerPlan, p.Safety.MaxTotalCost = ptrF(3), ptrF(3) }),
		},
		{
			name: "plan cost alone",
			doc:  "name: acme/x\nsafety:\n  max_cost_per_plan: 1000\n  max_total_cost: null\n",
			want: with(allAsk("acme/x"), func(p *AutomationProfile) { p.Safety.MaxCostPerPlan = ptrF(1000) }),
		},
		{
			name: "retries at the limits",
			doc:  "name: acme/x\nsafety: {max_retries_per_step: 100}\n",
			want: with(allAsk("acme/x"), func(p *AutomationProfile) { p.Safety.MaxRetriesPerStep = 100 }),
		},
		{
			name: "safety empty is the default",
			doc:  "name: acme/x\nsafety: {}\n",
			want: allAsk("acme/x"),
		},
		{
			name: "guards null",
			doc:  "name: acme/x\nguards: ~\n",
			want: allAsk("acme/x"),
		},
		{
			name: "guards empty",
			doc:  "name: acme/x\nguards: {}\n",
			want: with(allAsk("acme/x"), func(p *AutomationProfile) { p.Guards = &AutomationGuard{} }),
		},
		{
			name: "guards full",
			doc: `name: acme/x
guards:
  max_tool_calls_per_step: 0
  max_total_cost: 5
  tool_allowlist: []
  tool_denylist: [" shell_exec", file_delete, shell_exec]
  require_approval_for_writes: true
  require_approval_for_apply: false
`,
			want: with(allAsk("acme/x"), func(p *AutomationProfile) {
				p.Guards = &AutomationGuard{
					MaxToolCallsPerStep: ptrI(0), MaxTotalCost: ptrF(5),
					ToolAllowlist: []string{}, ToolDenylist: []string{"shell_exec", "file_delete"},
					RequireApprovalForWrites: true,
				}
			}),
		},
		{
			name: "guard lists null",
			doc:  "name: acme/x\nguards:\n  tool_allowlist: null\n  tool_denylist:\n  max_tool_calls_per_step: null\n  max_total_cost: ~\n",
			want: with(allAsk("acme/x"), func(p *AutomationProfile) { p.Guards = &AutomationGuard{} }),
		},
		{
			name: "aliases",
			doc:  "name: acme/x\nauto_strategize: &t 0.4\nauto_execute: *t\nsafety:\n  allowed_skill_categories: &c [a, b]\nguards:\n  tool_denylist: *c\n",
			want: with(allAsk("acme/x"), func(p *AutomationProfile) {
				p.AutoStrategize, p.AutoExecute = 0.4, 0.4
				p.Safety.AllowedSkillCategories = []string{"a", "b"}
				p.Guards = &AutomationGuard{ToolDenylist: []string{"a", "b"}}
			}),
		},
		{
			name: "merge keys",
			doc: `name: acme/x
<<: {auto_apply: 0.2, auto_execute: 0.3}
auto_execute: 0.6
safety: &s
  max_retries_per_step: 5
guards:
  <<: [{require_approval_for_apply: true}, {require_approval_for_writes: true, require_approval_for_apply: false}]
`,
			want: with(allAsk("acme/x"), func(p *AutomationProfile) {
				p.AutoApply, p.AutoExecute = 0.2, 0.6
				p.Safety.MaxRetriesPerStep = 5
				p.Guards = &AutomationGuard{RequireApprovalForApply: true, RequireApprovalForWrites: true}
			}),
		},
		{
			name: "comments and document markers",
			doc:  "# a profile\n---\nname: acme/x # trailing\n...\n",
			want: allAsk("acme/x"),
		},
		{
			name: "flow style",
			doc:  "{name: acme/x, auto_apply: 0.5, safety: {require_human_approval: true}}",
			want: with(allAsk("acme/x"), func(p *AutomationProfile) { p.AutoApply = 0.5; p.Safety.RequireHumanApproval = true }),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings, err := DecodeProfile([]byte(tt.doc), "p.yaml")
			if err != nil {
				t.Fatalf("DecodeProfile: %v\n%s", err, problemText(err))
			}
			if len(warnings) != 0 {
				t.Errorf("warnings: %v", warnings)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %s\nwant %s", dump(got), dump(tt.want))
			}
			if err := got.Validate(); err != nil {
				t.Errorf("decoded profile does not validate: %v", err)
			}
		})
	}
}

func problemText(err error) string {
	var e *errs.Error
	if !errors.As(err, &e) {
		return ""
	}
	var b strings.Builder
	for _, p := range e.Problems {
		b.WriteString("  " + p.String() + "\n")
	}
	return b.String()
}

func dump(p *AutomationProfile) string {
	if p == nil {
		return "<nil>"
	}
	var b strings.Builder
	for _, g := range Gates {
		b.WriteString(" " + g.Name + "=" + formatFloat(g.Value(p)))
	}
	b.WriteString(" safety=" + safetyString(p.Safety))
	if p.Guards != nil {
		g := p.Guards
		b.WriteString(" guards={")
		if g.MaxToolCallsPerStep != nil {
			b.WriteString("calls=" + formatFloat(float64(*g.MaxToolCallsPerStep)) + " ")
		}
		if g.MaxTotalCost != nil {
			b.WriteString("cost=" + formatFloat(*g.MaxTotalCost) + " ")
		}
		b.WriteString("allow=" + listString(g.ToolAllowlist) + " deny=" + listString(g.ToolDenylist))
		b.WriteString("}")
	}
	return p.Name + " " + p.Description + " " + p.SchemaVersion + b.String()
}

func listString(l []string) string {
	if l == nil {
		return "nil"
	}
	return "[" + strings.Join(l, ",") + "]"
}

func safetyString(s SafetyProfile) string {
	f := func(p *float64) string {
		if p == nil {
			return "nil"
		}
		return formatFloat(*p)
	}
	return strings.Join([]string{
		boolS(s.RequireSandbox), boolS(s.RequireCheckpoints), boolS(s.AllowUnsafeTools), boolS(s.RequireHumanApproval),
		listString(s.AllowedSkillCategories), f(s.MaxCostPerPlan), f(s.MaxTotalCost), formatFloat(float64(s.MaxRetriesPerStep)),
	}, " ")
}

func boolS(b bool) string {
	if b {
		return "T"
	}
	return "F"
}

// wantProblem is one expected problem: its path, a substring of its
// message, and its line (0: not checked).
type wantProblem struct {
	path string
	msg  string
	line int
}

func TestDecodeProfileInvalid(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []wantProblem
	}{
		// The document as a whole.
		{"empty", "", []wantProblem{{"", "file is empty", 0}}},
		{"only comments", "# nothing\n", []wantProblem{{"", "file is empty", 0}}},
		{"list root", "- name: acme/x\n", []wantProblem{{"", "must be a mapping", 1}}},
		{"scalar root", "acme/x\n", []wantProblem{{"", "must be a mapping", 1}}},
		{"second document", "name: acme/x\n---\nname: acme/y\n", []wantProblem{{"", "more than one YAML document", 2}}},
		{"nul byte", "name: acme/x\n\x00", []wantProblem{{"", "NUL byte", 2}}},
		{"invalid utf-8", "name: acme/\xfe\n", []wantProblem{{"", "not valid UTF-8", 1}}},
		{"syntax", "name: acme/x\n  bad: indent\n", []wantProblem{{"", "invalid YAML", 0}}},
		{"too large", "name: acme/x\ndescription: " + strings.Repeat("x", MaxFileSize) + "\n", []wantProblem{{"", "larger than", 0}}},
		{"custom tag on root", "!profile {name: acme/x}\n", []wantProblem{{"", "unsupported tag", 1}}},

		// Keys.
		{"unknown key with suggestion", "name: acme/x\nauto_aply: 0.5\n", []wantProblem{{"auto_aply", `unknown field "auto_aply" (did you mean "auto_apply"?)`, 2}}},
		{"unknown key without suggestion", "name: acme/x\nowner: me\n", []wantProblem{{"owner", `unknown field "owner"`, 2}}},
		{"unknown nested key", "name: acme/x\nsafety:\n  requre_sandbox: true\n", []wantProblem{{"safety.requre_sandbox", `did you mean "require_sandbox"?`, 3}}},
		{"unknown guard key", "name: acme/x\nguards:\n  tool_denylst: []\n", []wantProblem{{"guards.tool_denylst", `did you mean "tool_denylist"?`, 3}}},
		{"safety null", "name: acme/x\nsafety: null\n", []wantProblem{{"safety", "got null; remove the key to use the default safety profile", 2}}},
		{"safety with no value", "name: acme/x\nsafety:\n", []wantProblem{{"safety", "got null", 2}}},
		{"safety field at the top level", "name: acme/x\nmax_retries_per_step: 3\n", []wantProblem{{"max_retries_per_step", "belongs under safety:", 2}}},
		{"guard field at the top level", "name: acme/x\ntool_denylist: [a]\n", []wantProblem{{"tool_denylist", "belongs under guards:", 2}}},
		{"shared field at the top level", "name: acme/x\nmax_total_cost: 3\n", []wantProblem{{"max_total_cost", "belongs under safety: or guards:", 2}}},
		{"duplicate key", "name: acme/x\nauto_apply: 0\nauto_apply: 1\n", []wantProblem{{"auto_apply", "duplicate key", 3}}},
		{"duplicate nested key", "name: acme/x\nsafety:\n  require_sandbox: true\n  require_sandbox: false\n", []wantProblem{{"safety.require_sandbox", "duplicate key", 4}}},
		{"non-string key", "name: acme/x\n1: one\n", []wantProblem{{"", "keys must be strings", 2}}},
		{"quoted merge key", "name: acme/x\n'<<': {auto_apply: 0}\n", []wantProblem{{"<<", "unknown field", 2}}},

		// name, description, schema_version.
		{"name missing", "description: x\n", []wantProblem{{"name", "is required", 1}}},
		{"name null", "name: ~\n", []wantProblem{{"name", "must be a string, got null", 1}}},
		{"name empty", "name: ''\n", []wantProblem{{"name", "must have the form namespace/name", 1}}},
		{"name number", "name: 123\n", []wantProblem{{"name", "must be a string, got integer 123", 1}}},
		{"name bool", "name: true\n", []wantProblem{{"name", "must be a string, got boolean true", 1}}},
		{"name bare custom", "name: strict\n", []wantProblem{{"name", "must have the form namespace/name", 1}}},
		{"name upper case", "name: Acme/strict\n", []wantProblem{{"name", "lower-case", 1}}},
		{"name escapes", "name: ../x\n", []wantProblem{{"name", `namespace ".."`, 1}}},
		{"name absolute", "name: /etc/passwd\n", []wantProblem{{"name", "must have the form namespace/name", 1}}},
		{"name dot dot", "name: a/../../b\n", []wantProblem{{"name", "must have the form namespace/name", 1}}},
		{"name qa dot dot", "name: qa/..\n", []wantProblem{{"name", `name part ".."`, 1}}},
		{"name look-alike", "name: аcme/strict\n", []wantProblem{{"name", "lower-case", 1}}},
		{"name windows device", "name: acme/con\n", []wantProblem{{"name", "reserved device name", 1}}},
		{"name too long", "name: acme/" + strings.Repeat("a", 64) + "\n", []wantProblem{{"name", "at most 63", 1}}},
		{"name three segments", "name: a/b/c\n", []wantProblem{{"name", "must have the form namespace/name", 1}}},
		{"name built-in with namespace is fine but padded is not", "name: ' acme/x'\n", []wantProblem{{"name", "lower-case", 1}}},
		{"description number", "name: acme/x\ndescription: 42\n", []wantProblem{{"description", "must be a string", 2}}},
		{"description null", "name: acme/x\ndescription:\n", []wantProblem{{"description", "must be a string, got null", 2}}},
		{"description date", "name: acme/x\ndescription: 2024-05-01\n", []wantProblem{{"description", "got timestamp", 2}}},
		{"schema version unquoted", "name: acme/x\nschema_version: 1.0\n", []wantProblem{{"schema_version", "must be a string, got number 1.0", 2}}},
		{"schema version other", "name: acme/x\nschema_version: \"2.0\"\n", []wantProblem{{"schema_version", `must be "1.0", got "2.0"`, 2}}},

		// Thresholds.
		{"threshold nan", "name: acme/x\nauto_apply: .nan\n", []wantProblem{{"auto_apply", "finite", 2}}},
		{"threshold inf", "name: acme/x\nauto_apply: .inf\n", []wantProblem{{"auto_apply", "finite", 2}}},
		{"threshold minus inf", "name: acme/x\nauto_apply: -.Inf\n", []wantProblem{{"auto_apply", "finite", 2}}},
		{"threshold overflow", "name: acme/x\nauto_apply: 1e400\n", []wantProblem{{"auto_apply", "out of range", 2}}},
		{"threshold above one", "name: acme/x\nauto_apply: 1.5\n", []wantProblem{{"auto_apply", "must be between 0 and 1, got 1.5", 2}}},
		{"threshold integer above one", "name: acme/x\nauto_apply: 2\n", []wantProblem{{"auto_apply", "must be between 0 and 1, got 2", 2}}},
		{"threshold negative", "name: acme/x\nauto_apply: -0.1\n", []wantProblem{{"auto_apply", "must be between 0 and 1, got -0.1", 2}}},
		{"threshold string", "name: acme/x\nauto_apply: \"0.5\"\n", []wantProblem{{"auto_apply", `must be a number, got string "0.5"`, 2}}},
		{"threshold word", "name: acme/x\nauto_apply: high\n", []wantProblem{{"auto_apply", "must be a number", 2}}},
		{"threshold hex float", "name: acme/x\nauto_apply: !!float 0x1p-2\n", []wantProblem{{"auto_apply", "plain decimal, got 0x1p-2", 2}}},
		{"threshold binary", "name: acme/x\nauto_apply: 0b0\n", []wantProblem{{"auto_apply", "plain decimal, got 0b0", 2}}},
		{"retries with a leading zero", "name: acme/x\nsafety:\n  max_retries_per_step: 010\n", []wantProblem{{"safety.max_retries_per_step", "must be an integer written in plain decimal, got 010", 3}}},
		{"retries in hex", "name: acme/x\nsafety: {max_retries_per_step: 0x1f}\n", []wantProblem{{"safety.max_retries_per_step", "plain decimal, got 0x1f", 2}}},
		{"calls with separators", "name: acme/x\nguards: {max_tool_calls_per_step: 1_000}\n", []wantProblem{{"guards.max_tool_calls_per_step", "plain decimal, got 1_000", 2}}},
		{"calls with a plus", "name: acme/x\nguards: {max_tool_calls_per_step: +3}\n", []wantProblem{{"guards.max_tool_calls_per_step", "plain decimal, got +3", 2}}},
		{"cost with separators", "name: acme/x\nsafety: {max_cost_per_plan: 1_0.5}\n", []wantProblem{{"safety.max_cost_per_plan", "plain decimal, got 1_0.5", 2}}},
		{"threshold null", "name: acme/x\nauto_apply: null\n", []wantProblem{{"auto_apply", "must be a number, got null", 2}}},
		{"threshold bool", "name: acme/x\nauto_apply: yes\n", []wantProblem{{"auto_apply", "must be a number", 2}}},
		{"threshold list", "name: acme/x\nauto_apply: [0]\n", []wantProblem{{"auto_apply", "got a list", 2}}},
		{"threshold custom tag", "name: acme/x\nauto_apply: !custom 0.5\n", []wantProblem{{"auto_apply", `unsupported tag "!custom"`, 2}}},

		// Safety.
		{"safety not a mapping", "name: acme/x\nsafety: true\n", []wantProblem{{"safety", "must be a mapping, got boolean true", 2}}},
		{"safety list", "name: acme/x\nsafety: [require_sandbox]\n", []wantProblem{{"safety", "must be a mapping, got a list", 2}}},
		{"bool yes", "name: acme/x\nsafety:\n  require_sandbox: yes\n", []wantProblem{{"safety.require_sandbox", `must be true or false, got string "yes"`, 3}}},
		{"bool on", "name: acme/x\nsafety:\n  require_checkpoints: on\n", []wantProblem{{"safety.require_checkpoints", `got string "on"`, 3}}},
		{"bool quoted", "name: acme/x\nsafety:\n  allow_unsafe_tools: \"false\"\n", []wantProblem{{"safety.allow_unsafe_tools", `got string "false"`, 3}}},
		{"bool number", "name: acme/x\nsafety:\n  require_human_approval: 1\n", []wantProblem{{"safety.require_human_approval", "got integer 1", 3}}},
		{"bool null", "name: acme/x\nsafety:\n  require_sandbox: null\n", []wantProblem{{"safety.require_sandbox", "got null", 3}}},
		{"retries fraction", "name: acme/x\nsafety:\n  max_retries_per_step: 1.5\n", []wantProblem{{"safety.max_retries_per_step", "must be an integer, got number 1.5", 3}}},
		{"retries float integral", "name: acme/x\nsafety:\n  max_retries_per_step: 3.0\n", []wantProblem{{"safety.max_retries_per_step", "must be an integer, got number 3.0", 3}}},
		{"retries overflow", "name: acme/x\nsafety:\n  max_retries_per_step: 99999999999999999999\n", []wantProblem{{"safety.max_retries_per_step", "out of range", 3}}},
		{"retries above", "name: acme/x\nsafety:\n  max_retries_per_step: 101\n", []wantProblem{{"safety.max_retries_per_step", "must be between 0 and 100, got 101", 3}}},
		{"retries negative", "name: acme/x\nsafety:\n  max_retries_per_step: -1\n", []wantProblem{{"safety.max_retries_per_step", "must be between 0 and 100, got -1", 3}}},
		{"retries string", "name: acme/x\nsafety:\n  max_retries_per_step: \"3\"\n", []wantProblem{{"safety.max_retries_per_step", `got string "3"`, 3}}},
		{"retries null", "name: acme/x\nsafety:\n  max_retries_per_step: ~\n", []wantProblem{{"safety.max_retries_per_step", "got null", 3}}},
		{"cost negative", "name: acme/x\nsafety:\n  max_cost_per_plan: -1\n", []wantProblem{{"safety.max_cost_per_plan", "must not be negative, got -1", 3}}},
		{"cost nan", "name: acme/x\nsafety:\n  max_total_cost: .nan\n", []wantProblem{{"safety.max_total_cost", "finite", 3}}},
		{"cost inf", "name: acme/x\nsafety:\n  max_total_cost: .inf\n", []wantProblem{{"safety.max_total_cost", "finite", 3}}},
		{"cost string", "name: acme/x\nsafety:\n  max_total_cost: \"5\"\n", []wantProblem{{"safety.max_total_cost", "must be a number", 3}}},
		{"plan cost above total", "name: acme/x\nsafety:\n  max_cost_per_plan: 10\n  max_total_cost: 5\n", []wantProblem{{"safety.max_cost_per_plan", "must not exceed max_total_cost (5), got 10", 3}}},
		{"categories not a list", "name: acme/x\nsafety:\n  allowed_skill_categories: code\n", []wantProblem{{"safety.allowed_skill_categories", `must be a list, got string "code"`, 3}}},
		{"categories mapping", "name: acme/x\nsafety:\n  allowed_skill_categories: {code: true}\n", []wantProblem{{"safety.allowed_skill_categories", "must be a list, got a mapping", 3}}},
		{"categories null", "name: acme/x\nsafety:\n  allowed_skill_categories: null\n", []wantProblem{{"safety.allowed_skill_categories", "got null", 3}}},
		{"category number", "name: acme/x\nsafety:\n  allowed_skill_categories: [code, 123]\n", []wantProblem{{"safety.allowed_skill_categories[1]", "must be a string, got integer 123", 3}}},
		{"category bool", "name: acme/x\nsafety:\n  allowed_skill_categories:\n    - code\n    - true\n", []wantProblem{{"safety.allowed_skill_categories[1]", "got boolean true", 5}}},
		{"category null", "name: acme/x\nsafety:\n  allowed_skill_categories: [~]\n", []wantProblem{{"safety.allowed_skill_categories[0]", "got null", 3}}},
		{"category blank", "name: acme/x\nsafety:\n  allowed_skill_categories: [code, '  ']\n", []wantProblem{{"safety.allowed_skill_categories[1]", "must not be blank", 3}}},
		{"category nested list", "name: acme/x\nsafety:\n  allowed_skill_categories: [[code]]\n", []wantProblem{{"safety.allowed_skill_categories[0]", "got a list", 3}}},

		// Guards.
		{"guards not a mapping", "name: acme/x\nguards: []\n", []wantProblem{{"guards", "must be a mapping, got a list", 2}}},
		{"guard calls negative", "name: acme/x\nguards:\n  max_tool_calls_per_step: -1\n", []wantProblem{{"guards.max_tool_calls_per_step", "must not be negative", 3}}},
		{"guard calls fraction", "name: acme/x\nguards:\n  max_tool_calls_per_step: 2.5\n", []wantProblem{{"guards.max_tool_calls_per_step", "must be an integer", 3}}},
		{"guard calls string", "name: acme/x\nguards:\n  max_tool_calls_per_step: ten\n", []wantProblem{{"guards.max_tool_calls_per_step", "must be an integer", 3}}},
		{"guard cost negative", "name: acme/x\nguards:\n  max_total_cost: -0.5\n", []wantProblem{{"guards.max_total_cost", "must not be negative", 3}}},
		{"guard cost inf", "name: acme/x\nguards:\n  max_total_cost: .inf\n", []wantProblem{{"guards.max_total_cost", "finite", 3}}},
		{"guard list not a list", "name: acme/x\nguards:\n  tool_allowlist: read_file\n", []wantProblem{{"guards.tool_allowlist", "must be a list", 3}}},
		{"guard list number", "name: acme/x\nguards:\n  tool_denylist: [a, b, 3]\n", []wantProblem{{"guards.tool_denylist[2]", "must be a string, got integer 3", 3}}},
		{"guard list blank", "name: acme/x\nguards:\n  tool_denylist: [a, '']\n", []wantProblem{{"guards.tool_denylist[1]", "must not be blank", 3}}},
		{"guard bool yes", "name: acme/x\nguards:\n  require_approval_for_writes: yes\n", []wantProblem{{"guards.require_approval_for_writes", `got string "yes"`, 3}}},
		{"guard bool upper case", "name: acme/x\nguards:\n  require_approval_for_writes: FALSE\n", []wantProblem{{"guards.require_approval_for_writes", "write true or false, in lower case", 3}}},
		{"safety bool capitalised", "name: acme/x\nsafety:\n  require_sandbox: True\n", []wantProblem{{"safety.require_sandbox", "write true or false, in lower case", 3}}},
		{"safety bool tagged quoted", "name: acme/x\nsafety:\n  allow_unsafe_tools: !!bool \"false\"\n", []wantProblem{{"safety.allow_unsafe_tools", "without quotes", 3}}},
		{"guard bool null", "name: acme/x\nguards:\n  require_approval_for_apply: ~\n", []wantProblem{{"guards.require_approval_for_apply", "got null", 3}}},

		// Aliases and merges.
		{"alias to wrong type", "name: acme/x\nsafety: &s {}\nauto_apply: *s\n", []wantProblem{{"auto_apply", "got a mapping", 3}}},
		{"merge of a scalar", "name: acme/x\n<<: 0.5\n", []wantProblem{{"", "merge key (<<) must name a mapping", 2}}},
		{"merged unknown key", "name: acme/x\n<<: {auto_aply: 0.5}\n", []wantProblem{{"auto_aply", "did you mean", 2}}},
		{"root merged into safety", "&r\nname: acme/x\nsafety:\n  <<: *r\n", []wantProblem{{"safety.name", "unknown field", 2}, {"safety.safety", "unknown field", 3}}},
		{"self merge", "&r\nname: acme/x\n<<: *r\n", []wantProblem{{"", "refers to a mapping that contains it", 3}}},
		// A second << is a duplicate key, as the YAML library and other
		// readers see it; taking the first would read auto_apply as 0.
		{"second merge key", "name: acme/m\n<<: {auto_apply: 0}\n<<: {auto_apply: 1}\n", []wantProblem{{"<<", `duplicate key "<<" (first at line 2)`, 3}}},
		{"second merge key in safety", "name: acme/m\nsafety:\n  <<: {require_sandbox: false}\n  <<: {require_sandbox: true}\n", []wantProblem{{"safety.<<", `duplicate key "<<" (first at line 3)`, 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, _, err := DecodeProfile([]byte(tt.doc), "p.yaml")
			if err == nil {
				t.Fatalf("DecodeProfile accepted it: %s", dump(p))
			}
			if p != nil {
				t.Errorf("DecodeProfile returned a profile with an error")
			}
			checkProblems(t, err, "p.yaml", tt.want)
		})
	}
}

// checkProblems checks that err is invalid input carrying exactly the
// wanted problems, in any order.
func checkProblems(t *testing.T, err error, file string, want []wantProblem) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || e.Kind != errs.KindInvalid {
		t.Fatalf("error %v (%T) is not invalid input", err, err)
	}
	if len(e.Problems) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(e.Problems), len(want), problemText(err))
	}
	used := make([]bool, len(e.Problems))
	for _, w := range want {
		found := false
		for i, p := range e.Problems {
			if used[i] || p.Path != w.path || !strings.Contains(p.Message, w.msg) || (w.line != 0 && p.Line != w.line) {
				continue
			}
			if p.File != file {
				t.Errorf("problem %v names file %q, want %q", p, p.File, file)
			}
			used[i], found = true, true
			break
		}
		if !found {
			t.Errorf("no problem at %q (line %d) containing %q in:\n%s", w.path, w.line, w.msg, problemText(err))
		}
	}
}

func TestDecodeProfileReportsEveryProblem(t *testing.T) {
	doc := `name: Acme/Strict
description: 7
schema_version: "2"
auto_strategize: 1.2
auto_execute: .nan
auto_aply: 0.5
auto_apply: yes
safety:
  require_sandbox: "yes"
  max_retries_per_step: 1.5
  allowed_skill_categories: [code, "", 3]
  max_cost_per_plan: 10
  max_total_cost: 1
  sandbox: true
guards:
  max_tool_calls_per_step: -2
  tool_denylist: [a, ~]
  require_approval_for_apply: on
`
	_, _, err := DecodeProfile([]byte(doc), "many.yaml")
	checkProblems(t, err, "many.yaml", []wantProblem{
		{"name", "lower-case", 1},
		{"description", "must be a string", 2},
		{"schema_version", `must be "1.0"`, 3},
		{"auto_strategize", "between 0 and 1", 4},
		{"auto_execute", "finite", 5},
		{"auto_aply", "did you mean", 6},
		{"auto_apply", "must be a number", 7},
		{"safety.require_sandbox", "true or false", 9},
		{"safety.max_retries_per_step", "integer", 10},
		{"safety.allowed_skill_categories[1]", "blank", 11},
		{"safety.allowed_skill_categories[2]", "string", 11},
		{"safety.max_cost_per_plan", "must not exceed", 12},
		{"safety.sandbox", "unknown field", 14},
		{"guards.max_tool_calls_per_step", "negative", 16},
		{"guards.tool_denylist[1]", "null", 17},
		{"guards.require_approval_for_apply", "true or false", 18},
	})
	var e *errs.Error
	errors.As(err, &e)
	for i := 1; i < len(e.Problems); i++ {
		if e.Problems[i].Line < e.Problems[i-1].Line {
			t.Errorf("problems not in line order: %v before %v", e.Problems[i-1], e.Problems[i])
		}
	}
	if !strings.Contains(e.Error(), "many.yaml is invalid (16 problems)") {
		t.Errorf("message = %q", e.Error())
	}
}

func TestDecodeProfileHostile(t *testing.T) {
	// Inputs that must be refused, quickly and without a panic.
	var bomb strings.Builder
	bomb.WriteString("name: acme/x\nsafety:\n  allowed_skill_categories: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	bomb.WriteString("guards:\n")
	for i := 1; i <= 9; i++ {
		bomb.WriteString("  l" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" +
			strings.TrimSuffix(strings.Repeat("*a"+string(rune('0'+i-1))+", ", 9), ", ") + "]\n")
	}
	var mergeBomb strings.Builder
	mergeBomb.WriteString("name: acme/x\nsafety: &m0 {require_sandbox: true, require_checkpoints: true}\n")
	mergeBomb.WriteString("guards:\n")
	for i := 1; i <= 9; i++ {
		mergeBomb.WriteString("  tool_allowlist" + string(rune('0'+i)) + ": &m" + string(rune('0'+i)) + " {<<: [" +
			strings.TrimSuffix(strings.Repeat("*m"+string(rune('0'+i-1))+", ", 9), ", ") + "]}\n")
	}
	mergeBomb.WriteString("<<: *m9\n")
	tests := map[string]string{
		"billion laughs":   bomb.String(),
		"merge bomb":       mergeBomb.String(),
		"deep nesting":     "name: acme/x\nguards: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n",
		"deep mappings":    "name: acme/x\nsafety: " + strings.Repeat("{a: ", 5000) + "1" + strings.Repeat("}", 5000) + "\n",
		"binary garbage":   "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"only a tab":       "\t",
		"unterminated":     "name: \"acme/x\n",
		"anchor cycle":     "&a\nname: acme/x\n<<: *a\n",
		"second doc":       "name: acme/x\n--- !custom\nx: 1\n",
		"many unknowns":    strings.Repeat("k: 1\n", 1) + strings.Repeat("x", 100) + ": 1\n",
		"utf-16":           "\xff\xfen\x00a\x00m\x00e\x00",
		"custom tag value": "name: acme/x\nguards: !custom\n  tool_denylist: [a]\n",
	}
	for name, doc := range tests {
		t.Run(name, func(t *testing.T) {
			p, _, err := DecodeProfile([]byte(doc), "h.yaml")
			if err == nil {
				t.Fatalf("accepted: %s", dump(p))
			}
			if !errs.Is(err, errs.KindInvalid) {
				t.Fatalf("error kind %v: %v", errs.KindOf(err), err)
			}
			var e *errs.Error
			errors.As(err, &e)
			if len(e.Problems) == 0 || len(e.Problems) > 101 {
				t.Errorf("%d problems", len(e.Problems))
			}
		})
	}
}

func TestDecodeProfileLegacyFlat(t *testing.T) {
	tests := []struct {
		name     string
		doc      string
		want     SafetyProfile
		warnKeys []string
	}{
		{
			name:     "flat only",
			doc:      "name: acme/x\nrequire_sandbox: false\nallow_unsafe_tools: true\n",
			want:     with2(DefaultSafetyProfile(), func(s *SafetyProfile) { s.RequireSandbox, s.AllowUnsafeTools = false, true }),
			warnKeys: []string{"require_sandbox", "allow_unsafe_tools"},
		},
		{
			name:     "flat and nested agree",
			doc:      "name: acme/x\nrequire_checkpoints: false\nsafety:\n  require_checkpoints: false\n  max_retries_per_step: 4\n",
			want:     with2(DefaultSafetyProfile(), func(s *SafetyProfile) { s.RequireCheckpoints, s.MaxRetriesPerStep = false, 4 }),
			warnKeys: []string{"require_checkpoints"},
		},
		{
			name:     "flat joins other nested fields",
			doc:      "name: acme/x\nsafety:\n  require_human_approval: true\nrequire_sandbox: false\n",
			want:     with2(DefaultSafetyProfile(), func(s *SafetyProfile) { s.RequireSandbox, s.RequireHumanApproval = false, true }),
			warnKeys: []string{"require_sandbox"},
		},
		{
			name:     "flat same as default",
			doc:      "name: acme/x\nrequire_sandbox: true\nrequire_checkpoints: true\nallow_unsafe_tools: false\n",
			want:     DefaultSafetyProfile(),
			warnKeys: []string{"require_sandbox", "require_checkpoints", "allow_unsafe_tools"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, warnings, err := DecodeProfile([]byte(tt.doc), "old.yaml")
			if err != nil {
				t.Fatalf("DecodeProfile: %v\n%s", err, problemText(err))
			}
			if !reflect.DeepEqual(p.Safety, tt.want) {
				t.Errorf("safety = %s, want %s", safetyString(p.Safety), safetyString(tt.want))
			}
			if len(warnings) != 1 {
				t.Fatalf("warnings = %q, want one", warnings)
			}
			w := warnings[0].String()
			if !warnings[0].Migrate {
				t.Errorf("warning %q is not marked as fixed by a migration", w)
			}
			for _, k := range tt.warnKeys {
				if !strings.Contains(w, k) {
					t.Errorf("warning %q does not name %s", w, k)
				}
			}
			for _, part := range []string{"old.yaml: ", "legacy", "under safety:"} {
				if !strings.Contains(w, part) {
					t.Errorf("warning %q does not contain %q", w, part)
				}
			}
		})
	}

	// Disagreement is refused, each flag on its own path.
	doc := "name: acme/x\nrequire_sandbox: false\nrequire_checkpoints: true\nallow_unsafe_tools: true\nsafety:\n  require_sandbox: true\n  require_checkpoints: true\n  allow_unsafe_tools: false\n"
	_, warnings, err := DecodeProfile([]byte(doc), "old.yaml")
	checkProblems(t, err, "old.yaml", []wantProblem{
		{"require_sandbox", "disagrees with safety.require_sandbox", 2},
		{"allow_unsafe_tools", "disagrees with safety.allow_unsafe_tools", 4},
	})
	if len(warnings) != 1 {
		t.Errorf("warnings with the error = %q", warnings)
	}

	// A flat field of the wrong type is a problem of its own.
	_, _, err = DecodeProfile([]byte("name: acme/x\nrequire_sandbox: yes\n"), "old.yaml")
	checkProblems(t, err, "old.yaml", []wantProblem{{"require_sandbox", "true or false", 2}})
}

func with2(s SafetyProfile, f func(*SafetyProfile)) SafetyProfile {
	f(&s)
	return s
}

func TestDecodeProfileNoWarningWithoutLegacy(t *testing.T) {
	_, warnings, err := DecodeProfile([]byte("name: acme/x\nsafety:\n  require_sandbox: false\n"), "new.yaml")
	if err != nil || warnings != nil {
		t.Fatalf("warnings %q, err %v", warnings, err)
	}
}

func TestKeyLists(t *testing.T) {
	// The key lists must follow the struct's canonical field order, which
	// canon uses for output.
	if !slices.Equal(ProfileKeys[3:14], GateNames()) {
		t.Errorf("ProfileKeys gates = %v", ProfileKeys[3:14])
	}
	wantSafety := jsonNames(reflect.TypeOf(SafetyProfile{}))
	if !slices.Equal(SafetyKeys, wantSafety) {
		t.Errorf("SafetyKeys = %v, struct has %v", SafetyKeys, wantSafety)
	}
	wantGuards := jsonNames(reflect.TypeOf(AutomationGuard{}))
	if !slices.Equal(GuardKeys, wantGuards) {
		t.Errorf("GuardKeys = %v, struct has %v", GuardKeys, wantGuards)
	}
	if !slices.Equal(ProfileKeys, jsonNames(reflect.TypeOf(AutomationProfile{}))) {
		t.Errorf("ProfileKeys = %v", ProfileKeys)
	}
}

func jsonNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		out = append(out, strings.Split(t.Field(i).Tag.Get("json"), ",")[0])
	}
	return out
}
