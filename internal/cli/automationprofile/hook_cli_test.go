package automationprofile_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentsctl/agents/internal/cli"
	"github.com/agentsctl/agents/internal/cli/cmdutil"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/iostreams"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/store"
	filestore "github.com/agentsctl/agents/internal/store/file"
	"github.com/agentsctl/agents/profiles"
)

// hookEnv is one invocation's surroundings: a home on disk, the
// environment, and how the store opens.
type hookEnv struct {
	home string
	vars map[string]string
	open func(cmdutil.Config) (store.Store, error)
	ctx  context.Context
}

func newHookEnv(t *testing.T) *hookEnv {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	e := &hookEnv{home: home, vars: map[string]string{"AGENTS_HOME": home, "CI": "true"}}
	// The user's own settings (Claude Code's, say) are not the test's.
	t.Setenv("HOME", t.TempDir())
	st := newStore(t)
	e.open = func(cmdutil.Config) (store.Store, error) { return st, nil }
	return e
}

func (e *hookEnv) run(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(stdin)
	deps := &cmdutil.Deps{
		IO:        ios,
		Builtins:  profiles.Builtin,
		Getenv:    func(k string) string { return e.vars[k] },
		OpenStore: e.open,
		Context:   e.ctx,
	}
	code := cli.Run(deps, args)
	return result{code, out.String(), errOut.String()}
}

func (e *hookEnv) write(t *testing.T, rel, content string) string {
	t.Helper()
	path := filepath.Join(e.home, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// The tools of each agent the table below uses: a read tool, a write
// tool, the shell, and a tool no table knows.
var tableTools = map[string][4]string{
	"claude-code": {"Read", "Write", "Bash", "Teleport"},
	"codex":       {"read_file", "apply_patch", "Bash", "spawn_agent"},
	"gemini-cli":  {"read_file", "write_file", "run_shell_command", "discovered_tool_deploy"},
}

// hookTable holds the answers every built-in gives, typed in by hand from
// the rules of docs/hooks.md (where the same table is), for the four tools
// above in order: Y allow, A ask, D deny, - no output. decl is what the
// agent declared: nothing, --sandboxed, or both.
//
// Built-ins other than full-auto require a sandbox (so every call is
// denied until one is declared), checkpoints before writes (writes denied
// until one is declared) and allow no unsafe tools (the shell and unknown
// tools denied). Then auto_decisions_execute decides: above 0 (manual,
// review, supervised, cautious) asks, 0 (trusted, auto, ci) allows.
// Codex has no ask and ignores an explicit allow; Gemini CLI's ask is
// sent as a deny.
var hookTable = []struct {
	profile, decl         string
	claude, codex, gemini string
}{
	{"manual", "", "DDDD", "DDDD", "DDDD"},
	{"manual", "s", "ADDD", "DDDD", "DDDD"},
	{"manual", "sc", "AADD", "DDDD", "DDDD"},
	{"review", "", "DDDD", "DDDD", "DDDD"},
	{"review", "s", "ADDD", "DDDD", "DDDD"},
	{"review", "sc", "AADD", "DDDD", "DDDD"},
	{"supervised", "", "DDDD", "DDDD", "DDDD"},
	{"supervised", "s", "ADDD", "DDDD", "DDDD"},
	{"supervised", "sc", "AADD", "DDDD", "DDDD"},
	{"cautious", "", "DDDD", "DDDD", "DDDD"},
	{"cautious", "s", "ADDD", "DDDD", "DDDD"},
	{"cautious", "sc", "AADD", "DDDD", "DDDD"},
	{"trusted", "", "DDDD", "DDDD", "DDDD"},
	{"trusted", "s", "YDDD", "-DDD", "YDDD"},
	{"trusted", "sc", "YYDD", "--DD", "YYDD"},
	{"auto", "", "DDDD", "DDDD", "DDDD"},
	{"auto", "s", "YDDD", "-DDD", "YDDD"},
	{"auto", "sc", "YYDD", "--DD", "YYDD"},
	{"ci", "", "DDDD", "DDDD", "DDDD"},
	{"ci", "s", "YDDD", "-DDD", "YDDD"},
	{"ci", "sc", "YYDD", "--DD", "YYDD"},
	{"full-auto", "", "YYYY", "----", "YYYY"},
	{"full-auto", "s", "YYYY", "----", "YYYY"},
	{"full-auto", "sc", "YYYY", "----", "YYYY"},
}

// hookInput is one call of agent's hook. An empty mode is Claude Code's
// default mode, which every version that has modes sends; "none" sends no
// mode at all.
func hookInput(agent, tool, mode string) string {
	if mode == "" && agent == "claude-code" {
		mode = "default"
	}
	event := "PreToolUse"
	if agent == "gemini-cli" {
		event = "BeforeTool"
	}
	in := map[string]any{"hook_event_name": event, "tool_name": tool, "tool_input": map[string]any{}, "cwd": "/nonexistent/project"}
	if mode != "" && mode != "none" {
		in["permission_mode"] = mode
	}
	b, _ := json.Marshal(in)
	return string(b)
}

// answerOf reads the answer a hook printed: its decision, or "-" for none.
func answerOf(t *testing.T, agent, stdout string) (decision, reason string) {
	t.Helper()
	if stdout == "" {
		return "-", ""
	}
	if strings.Count(stdout, "\n") != 1 || !strings.HasSuffix(stdout, "}\n") {
		t.Fatalf("answer %q is not one line of JSON", stdout)
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if agent == "gemini-cli" {
		var a struct {
			Decision string `json:"decision"`
			Reason   string `json:"reason"`
		}
		if err := dec.Decode(&a); err != nil {
			t.Fatalf("answer %q: %v", stdout, err)
		}
		return a.Decision, a.Reason
	}
	var a hookAnswer
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("answer %q: %v", stdout, err)
	}
	if a.HookSpecificOutput.HookEventName != "PreToolUse" {
		t.Errorf("hookEventName %q", a.HookSpecificOutput.HookEventName)
	}
	return a.HookSpecificOutput.PermissionDecision, a.HookSpecificOutput.PermissionDecisionReason
}

var letters = map[string]string{"allow": "Y", "ask": "A", "deny": "D", "-": "-"}

func TestHookTable(t *testing.T) {
	e := newHookEnv(t)
	for _, row := range hookTable {
		for agent, want := range map[string]string{"claude-code": row.claude, "codex": row.codex, "gemini-cli": row.gemini} {
			args := guard(row.profile, "--hook", agent)
			switch row.decl {
			case "s":
				args = append(args, "--sandboxed")
			case "sc":
				args = append(args, "--sandboxed", "--checkpointed")
			}
			for i, tool := range tableTools[agent] {
				r := e.run(t, hookInput(agent, tool, "default"), args...)
				if r.code != 0 || r.stderr != "" {
					t.Errorf("%s %s %s %s: exit %d stderr %q", row.profile, row.decl, agent, tool, r.code, r.stderr)
					continue
				}
				d, reason := answerOf(t, agent, r.stdout)
				if got := letters[d]; got != want[i:i+1] {
					t.Errorf("%s --%s %s, tool %s: answer %s (%s), want %s", row.profile, row.decl, agent, tool, d, reason, want[i:i+1])
				}
				if d != "-" && (!strings.Contains(reason, "rule ") || !strings.Contains(reason, "profile "+row.profile+" named in the hook command") || !strings.Contains(reason, `tool "`+tool+`" is `)) {
					t.Errorf("%s %s %s: reason %q does not name the rule, the profile and the tool's class", row.profile, agent, tool, reason)
				}
			}
		}
	}
}

// TestHookConfigDeclares: config.yaml may declare the sandbox and the
// checkpoints, and reclassify tools; its reason says so.
func TestHookConfigDeclares(t *testing.T) {
	e := newHookEnv(t)
	e.write(t, "config.yaml", "hooks:\n  sandboxed: true\n  checkpointed: true\n  claude-code:\n    tools:\n      Bash: {write: true, unsafe: false}\n")
	r := e.run(t, hookInput("claude-code", "Bash", ""), guard("ci", "--hook", "claude-code")...)
	d, reason := answerOf(t, "claude-code", r.stdout)
	if r.code != 0 || d != "allow" || !strings.Contains(reason, "reclassified in config.yaml") || !strings.Contains(reason, "sandbox declared in config.yaml") {
		t.Errorf("exit %d answer %s %q", r.code, d, reason)
	}
	// The reclassification is the claude-code agent's alone.
	r = e.run(t, hookInput("codex", "Bash", ""), guard("ci", "--hook", "codex")...)
	if d, _ := answerOf(t, "codex", r.stdout); d != "deny" {
		t.Errorf("codex Bash under ci: %s, want deny", d)
	}
}

// TestHookAbstain: --abstain leaves only the threshold's ask to the agent,
// only for a tool the agent itself is sure to ask about (a file edit of
// its table: a read runs without a prompt), and only in a mode where the
// agent still asks.
func TestHookAbstain(t *testing.T) {
	e := newHookEnv(t)
	tests := []struct {
		agent, mode, tool, profile string
		want                       string
	}{
		{"claude-code", "default", "Write", "review", "-"},
		{"claude-code", "plan", "Write", "review", "-"},
		{"claude-code", "acceptEdits", "Write", "review", "ask"},
		{"claude-code", "default", "Read", "review", "ask"},
		{"claude-code", "plan", "Read", "review", "ask"},
		{"claude-code", "acceptEdits", "Read", "review", "ask"},
		// Where nobody would be asked, the ask is a deny.
		{"claude-code", "bypassPermissions", "Read", "review", "deny"},
		{"claude-code", "dontAsk", "Read", "review", "deny"},
		{"claude-code", "auto", "Read", "review", "deny"},
		{"claude-code", "none", "Read", "review", "deny"},
		{"claude-code", "something-new", "Read", "review", "deny"},
		{"codex", "default", "read_file", "review", "deny"},
		{"codex", "bypassPermissions", "read_file", "review", "deny"},
		{"codex", "", "read_file", "review", "deny"},
		{"gemini-cli", "", "read_file", "review", "deny"},
		// Never anything but the threshold: a guard's ask, a deny and an
		// allow stay as they are.
		{"claude-code", "default", "Bash", "review", "deny"},
		{"claude-code", "default", "Read", "ci", "allow"},
		{"claude-code", "default", "Read", "acme/ask", "ask"},
	}
	for _, tt := range tests {
		r := e.run(t, hookInput(tt.agent, tt.tool, tt.mode), guard(tt.profile, "--hook", tt.agent, "--sandboxed", "--checkpointed", "--abstain")...)
		d, _ := answerOf(t, tt.agent, r.stdout)
		if r.code != 0 || d != tt.want {
			t.Errorf("%s mode %q %s under %s: exit %d answer %s, want %s", tt.agent, tt.mode, tt.tool, tt.profile, r.code, d, tt.want)
		}
	}
}

// TestHookGuardsAndApproval: a guard's ask, and require_human_approval,
// are asks (denies where the protocol cannot ask).
func TestHookGuardsAndApproval(t *testing.T) {
	e := newHookEnv(t)
	tests := []struct {
		profile, agent, tool, want, rule string
	}{
		{"acme/claude", "claude-code", "Read", "ask", "guards.tool_denylist"},
		{"acme/claude", "codex", "read_file", "deny", "guards.tool_denylist"},
		{"acme/claude", "claude-code", "Write", "ask", "guards.require_approval_for_writes"},
		{"acme/ask", "claude-code", "Read", "ask", "safety.require_human_approval"},
		{"acme/ask", "codex", "read_file", "deny", "safety.require_human_approval"},
		{"acme/ask", "gemini-cli", "read_file", "deny", "safety.require_human_approval"},
	}
	for _, tt := range tests {
		r := e.run(t, hookInput(tt.agent, tt.tool, "default"), guard(tt.profile, "--hook", tt.agent, "--sandboxed", "--checkpointed")...)
		d, reason := answerOf(t, tt.agent, r.stdout)
		if r.code != 0 || d != tt.want || !strings.Contains(reason, "rule "+tt.rule) {
			t.Errorf("%s %s %s: exit %d answer %s %q, want %s by %s", tt.profile, tt.agent, tt.tool, r.code, d, reason, tt.want, tt.rule)
		}
		if d == "deny" && !strings.Contains(reason, "cannot ask") {
			t.Errorf("%s: an ask sent as a deny does not say why: %q", tt.agent, reason)
		}
	}
}

// TestHookFailuresBlock drives every way a hook can fail to decide and
// checks that each blocks: exit 2, the cause on stderr, and a deny on
// stdout in the agent's protocol.
func TestHookFailuresBlock(t *testing.T) {
	good := hookInput("claude-code", "Read", "default")
	tests := []struct {
		name  string
		setup func(t *testing.T, e *hookEnv)
		stdin string
		args  []string
		cause string
	}{
		{"input not JSON", nil, "rm -rf /", guard("ci", "--hook", "claude-code"), "not JSON"},
		{"input empty", nil, "", guard("ci", "--hook", "claude-code"), "nothing was given"},
		{"tool_input null", nil, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":null}`, guard("ci", "--hook", "claude-code"), "tool_input: must be an object, got null"},
		{"tool_input too deep", nil, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"a":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}}`, guard("ci", "--hook", "claude-code"), "nested more than"},
		{"wrong event", nil, hookInput("gemini-cli", "Read", ""), guard("ci", "--hook", "claude-code"), `is "BeforeTool"`},
		{"unknown profile", nil, good, guard("acme/gaurded", "--hook", "claude-code"), `profile "acme/gaurded" not found`},
		{"bad profile name", nil, good, guard("Acme/X", "--hook", "claude-code"), "invalid name"},
		{"unknown plan", nil, good, []string{"automation-profile", "check-guard", "--plan", "01jq3v6m4x8b2c7d9e0f1g2h3k", "--hook", "claude-code"}, "not found"},
		{"unknown agent", nil, good, guard("ci", "--hook", "cursor"), `unknown hook "cursor"`},
		{"misspelt agent", nil, good, guard("ci", "--hook", "claude"), `did you mean "claude-code"`},
		{"bad flag", nil, good, guard("ci", "--hook", "claude-code", "--sandbox"), "unknown flag"},
		{"call flag", nil, good, guard("ci", "--hook", "claude-code", "--tool", "Bash"), "--hook cannot be combined with --tool"},
		{"contradiction", nil, good, guard("ci", "--hook", "claude-code", "--sandboxed", "--no-sandbox"), "contradict"},
		{"no cwd without a profile", nil, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}`, guard("--hook", "claude-code"), "cwd: is missing"},
		{"broken config", func(t *testing.T, e *hookEnv) { e.write(t, "config.yaml", "hooks:\n  sandboxd: true\n") }, good, guard("ci", "--hook", "claude-code"), `unknown field "sandboxd"`},
		{"config not yaml", func(t *testing.T, e *hookEnv) { e.write(t, "config.yaml", "hooks: [\n") }, good, guard("ci", "--hook", "claude-code"), "config.yaml"},
		{"config writable by all", func(t *testing.T, e *hookEnv) {
			p := e.write(t, "config.yaml", "format: json\n")
			if err := os.Chmod(p, 0o666); err != nil {
				t.Fatal(err)
			}
		}, good, guard("ci", "--hook", "claude-code"), "can be written by anyone"},
		{"broken profile in the store", func(t *testing.T, e *hookEnv) {
			e.write(t, "profiles/acme/broken.yaml", "name: acme/broken\nauto_apply: 7\n")
			e.open = func(c cmdutil.Config) (store.Store, error) { return filestore.Open(c.Home, filestore.Options{}) }
		}, good, guard("acme/broken", "--hook", "claude-code"), "auto_apply"},
		{"store unreachable", func(t *testing.T, e *hookEnv) {
			e.open = func(cmdutil.Config) (store.Store, error) {
				return nil, errs.New(errs.KindLocked, "the store's server at db.example does not answer")
			}
		}, good, guard("acme/strict", "--hook", "claude-code"), "does not answer"},
		{"internal error", func(t *testing.T, e *hookEnv) {
			e.open = func(cmdutil.Config) (store.Store, error) { panic("store exploded") }
		}, good, guard("acme/strict", "--hook", "claude-code"), "internal error: store exploded"},
		{"interrupted", func(t *testing.T, e *hookEnv) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			e.ctx = ctx
			e.open = func(cmdutil.Config) (store.Store, error) {
				return nil, errs.Wrap(errs.KindInterrupted, ctx.Err(), "interrupted")
			}
		}, good, guard("acme/strict", "--hook", "claude-code"), "interrupted"},
		{"configured pack missing", func(t *testing.T, e *hookEnv) { e.write(t, "config.yaml", "safety_pack: acme_safety_v1\n") }, good, guard("ci", "--hook", "claude-code"), "is missing"},
		{"configured pack tampered", func(t *testing.T, e *hookEnv) { installPack(t, e, "acme_safety_v1", true) }, good, guard("ci", "--hook", "claude-code"), "content has changed"},
		{"tampered pack, override set", func(t *testing.T, e *hookEnv) {
			installPack(t, e, "acme_safety_v1", true)
			e.vars[cmdutil.EnvAllowUnratified] = "1"
		}, good, guard("ci", "--hook", "claude-code"), "content has changed"},
		{"untrusted project", func(t *testing.T, e *hookEnv) {
			dir := filepath.Join(e.home, "..", "proj")
			_ = os.MkdirAll(dir, 0o755)
			_ = os.WriteFile(filepath.Join(dir, "agents.yaml"), []byte("automation_profile: full-auto\n"), 0o644)
		}, "", guard("--hook", "claude-code"), "is not trusted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newHookEnv(t)
			if tt.setup != nil {
				tt.setup(t, e)
			}
			stdin := tt.stdin
			if stdin == "" && tt.name == "untrusted project" {
				stdin = strings.Replace(hookInput("claude-code", "Read", "default"), "/nonexistent/project", filepath.Join(e.home, "..", "proj"), 1)
			}
			r := e.run(t, stdin, tt.args...)
			if r.code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, tt.cause) {
				t.Errorf("stderr %q does not name the cause %q", r.stderr, tt.cause)
			}
			if tt.name != "unknown agent" && tt.name != "misspelt agent" {
				if d, reason := answerOf(t, "claude-code", r.stdout); d != "deny" || !strings.Contains(reason, tt.cause) {
					t.Errorf("stdout answer %s %q, want a deny naming the cause", d, reason)
				}
			}
		})
	}
}

// installPack puts a ratified pack stricter than the shipped one in the
// home and names it in config.yaml; tampered changes it afterwards.
func installPack(t *testing.T, e *hookEnv, id string, tampered bool) {
	t.Helper()
	shipped, err := sp.LoadShipped(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	p := shipped.Pack.Clone()
	p.PackID, p.Version, p.MasteryReportSHA256 = id, "1.0.0", ""
	p.BoundaryIDs = append(p.BoundaryIDs, "no_friday_deploys")
	p.BoundaryDescriptions["no_friday_deploys"] = "Nothing ships on a Friday."
	path := e.write(t, filepath.Join("packs", "safety", id+".json"), string(p.Encode()))
	if _, err := sp.RatifyFile(path); err != nil {
		t.Fatal(err)
	}
	if tampered {
		data, _ := os.ReadFile(path)
		if err := os.WriteFile(path, []byte(strings.Replace(string(data), "Nothing ships", "Little ships", 1)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	e.write(t, "config.yaml", "safety_pack: "+id+"\n")
}

// TestDecisionsNeedThePack: every decision command refuses under a pack
// that cannot be trusted, with exit 6.
func TestDecisionsNeedThePack(t *testing.T) {
	cmds := [][]string{
		gateArgs("ci", "auto_apply", "--confidence", "0.5"),
		guard("ci", "--tool", "read"),
		{"automation-profile", "resolve"},
	}
	for _, c := range cmds {
		e := newHookEnv(t)
		installPack(t, e, "acme_safety_v1", false)
		if r := e.run(t, "", c...); r.code != 0 {
			t.Errorf("%v under a ratified pack: exit %d %s", c, r.code, r.stderr)
		}
		installPack(t, e, "acme_safety_v1", true)
		r := e.run(t, "", c...)
		if r.code != 6 || r.stdout != "" || !strings.Contains(r.stderr, "content has changed") {
			t.Errorf("%v under a tampered pack: exit %d stdout %q stderr %q, want 6", c, r.code, r.stdout, r.stderr)
		}
	}
}

func TestCheckGateHumanApproval(t *testing.T) {
	e := newHookEnv(t)
	for _, f := range []string{"json", "yaml", "plain", "table", "rich"} {
		r := e.run(t, "", gateArgs("acme/ask", "auto_execute", "--confidence", "1", "-f", f)...)
		if r.code != 10 || !strings.Contains(r.stdout, "safety.require_human_approval") {
			t.Errorf("-f %s: exit %d stdout %q, want 10 and the rule", f, r.code, r.stdout)
		}
	}
	r := e.run(t, "", gateArgs("acme/ask", "auto_execute", "--confidence", "1", "-f", "json")...)
	d := decode(t, r)
	if d.Allowed || !d.RequiresApproval || d.Rule != "safety.require_human_approval" || d.Reason == nil || !strings.Contains(*d.Reason, "approval for every step") {
		t.Errorf("decision %+v", d)
	}
}

func TestPrintConfig(t *testing.T) {
	e := newHookEnv(t)
	for _, agent := range []string{"claude-code", "codex", "gemini-cli"} {
		r := e.run(t, "", guard("ci", "--hook", agent, "--print-config", "--sandboxed")...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d %s", agent, r.code, r.stderr)
		}
		var doc map[string]map[string][]map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", agent, err, r.stdout)
		}
		if len(doc["hooks"]) != 1 || !strings.Contains(r.stdout, "--hook "+agent+" --sandboxed") || !strings.Contains(r.stdout, e.home) {
			t.Errorf("%s: snippet %s", agent, r.stdout)
		}
	}
	// A profile that does not exist would block every call: refused now.
	if r := e.run(t, "", guard("acme/none", "--hook", "claude-code", "--print-config")...); r.code != 2 || !strings.Contains(r.stderr, "not found") {
		t.Errorf("unknown profile: exit %d %s", r.code, r.stderr)
	}
}
