package registry

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/agentsctl/agents/internal/hook"
	"github.com/agentsctl/agents/internal/plan"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/safefile"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/strictyaml"
)

// Subject is what a decision is taken under: an automation profile, the
// safety profile in force, and the level the profile came from. Naming a
// profile gives its composed safety and no level; a plan supplies all
// three from its recorded resolution; a hook that names neither, from a
// resolution in the agent's working folder.
type Subject struct {
	Profile *profile.AutomationProfile
	Safety  profile.SafetyProfile
	Level   string
	// LevelSource is the file that set the profile at its level, when one
	// did (a project's agents.yaml, the home's config.yaml).
	LevelSource string
	// Plan, SafetyLevel and SafetySource are set for a plan: its id, the
	// level its safety profile came from, and standalone or composed.
	Plan         string
	SafetyLevel  string
	SafetySource string
	// Pack is the verdict of the pack's boundary predicates on this
	// profile and safety profile: when it is refused, every decision is
	// blocked by its rule.
	Pack sp.PolicyVerdict
	// Unsealed are the problems of the seal of a pack in force that loaded
	// only under the development override: a decision taken under it says
	// so in its own answer, not only on stderr.
	Unsealed []string
}

// Warnings are what the answer of a decision under s must carry: the
// pack's warn-mode boundaries the profile violates, and, under the
// development override, that the pack in force is not sealed.
func (s Subject) Warnings() []string {
	var ws []string
	for _, p := range s.Unsealed {
		ws = append(ws, "decided under a safety pack that is not ratified (the development override): "+p)
	}
	return append(ws, s.Pack.Warnings()...)
}

// Under names what a decision is to be taken under: a profile by name, a
// plan by id, or neither, for the profiles that resolve in Cwd (a hook's
// working folder, where only a trusted project counts).
type Under struct {
	Profile string
	Plan    string
	Cwd     string
}

// Subject returns what a decision is taken under. The pack in force is
// loaded and verified first: no decision is taken under a pack that cannot
// be trusted, nor from a store that another user could have changed.
func (r *Registry) Subject(u Under) (Subject, error) {
	s, err := r.subject(u)
	if err != nil {
		return Subject{}, err
	}
	// Whatever the subject read, the configuration (or its absence) is
	// part of every decision.
	if _, err := r.Global(); err != nil {
		return Subject{}, err
	}
	if err := r.trusted(); err != nil {
		return Subject{}, err
	}
	return s, nil
}

// subject is Subject before the store it read is trusted.
func (r *Registry) subject(u Under) (Subject, error) {
	l, err := r.Pack()
	if err != nil {
		return Subject{}, err
	}
	s, err := r.subjectUnder(u)
	for _, p := range l.SealProblems {
		s.Unsealed = append(s.Unsealed, fmt.Sprintf("safety pack %s: %s", l.Pack.PackID, p.String()))
	}
	return s, err
}

// subjectUnder is subject once the pack in force is loaded.
func (r *Registry) subjectUnder(u Under) (Subject, error) {
	switch {
	case u.Plan != "":
		return r.subjectForPlan(u.Plan)
	case u.Profile != "":
		p, err := r.RecordedProfile(u.Profile)
		if err != nil {
			return Subject{}, err
		}
		s := Subject{Profile: p, Safety: p.Safety}
		return s, r.judge(&s, nil)
	}
	return r.subjectFromCwd(u.Cwd)
}

// subjectForPlan decides under what a plan recorded: the snapshot of its
// automation profile and its safety profile, standalone or composed, as
// they were resolved, whatever has changed since.
func (r *Registry) subjectForPlan(id string) (Subject, error) {
	p, ap, safety, err := r.plannedInStep(id)
	if err != nil {
		return Subject{}, err
	}
	s := Subject{
		Profile: ap, Safety: safety, Level: p.AutomationProfile.Provenance,
		Plan: p.ID, SafetyLevel: p.SafetyProfile.Provenance, SafetySource: p.SafetyProfile.Source,
	}
	return s, r.judge(&s, p)
}

// subjectFromCwd resolves the profiles for a hook that names none, from
// the agent's working folder, exactly as a plan made there without an
// action would: the project's agents.yaml (only if the person trusted the
// project), the global config.yaml, then the system default.
func (r *Registry) subjectFromCwd(cwd string) (Subject, error) {
	res, err := r.resolve(request{own: plan.Setting{Level: plan.LevelPlan}, projectDir: cwd, onlyTrusted: true})
	if err != nil {
		return Subject{}, err
	}
	s := Subject{
		Profile: res.Automation, Safety: res.Safety, Level: res.AutomationLevel,
		SafetyLevel: res.SafetyLevel, SafetySource: res.SafetySource,
	}
	for _, l := range res.Levels {
		if l.Level == res.AutomationLevel && l.Source != nil {
			s.LevelSource = *l.Source
		}
	}
	return s, r.judge(&s, nil)
}

// judge judges the subject against the boundary predicates of the pack in
// force (with the plan and its action, for a plan).
func (r *Registry) judge(s *Subject, pl *plan.Plan) error {
	v, err := r.judgeUnder(sp.PolicyContext{Profile: s.Profile, Safety: s.Safety, Plan: pl})
	s.Pack = v
	return err
}

// Gate decides whether gate lets a step of the given confidence proceed
// under the subject: blocked by the pack's first violated boundary in
// enforce mode, whatever the gate; else by the profile.
func (s Subject) Gate(gate profile.Gate, confidence float64) profile.GateDecision {
	d := profile.DecideGateUnder(s.Profile, s.Safety, gate, confidence)
	if s.Pack.Refused() {
		rule, reason := packBlock(s.Pack)
		d = d.Blocked(string(rule), reason)
	}
	return d
}

// Guard decides one tool call under the subject: blocked by the pack's
// first violated boundary in enforce mode, whatever the call; else by the
// profile's rules.
func (s Subject) Guard(in profile.GuardInput) profile.GuardResult {
	if s.Pack.Refused() {
		rule, reason := packBlock(s.Pack)
		return profile.BlockedBy(rule, reason, in)
	}
	return profile.CheckGuard(s.Profile, s.Safety, in)
}

// packBlock returns the rule and the reason of the first boundary in
// enforce mode that the verdict found violated, naming the others.
func packBlock(v sp.PolicyVerdict) (profile.Rule, string) {
	enforced := v.Violated(sp.ModeEnforce)
	first := enforced[0]
	reason := fmt.Sprintf("the profile violates boundary %s of safety pack %s: %s (%s)", first.BoundaryID, v.PackID, first.Reason, first.Predicate)
	if len(enforced) > 1 {
		ids := make([]string, 0, len(enforced)-1)
		for _, j := range enforced[1:] {
			ids = append(ids, j.BoundaryID)
		}
		reason += "; also violated: " + strings.Join(ids, ", ")
	}
	return profile.Rule(first.Rule()), reason
}

// HookCall is one call of an agent's pre-tool hook: the call as the agent
// sent it, what it is decided under, the session's settings (its skill
// category), and what the hook command declares and asks.
type HookCall struct {
	Agent   string
	Call    hook.Call
	Under   Under
	Session profile.GuardInput
	// Sandboxed and Checkpointed declare the conditions met, as the
	// home's config.yaml may too.
	Sandboxed, Checkpointed bool
	// Abstain leaves the calls a threshold would ask about to the
	// agent's own prompt where it still asks a person.
	Abstain bool
	// Settings are the agents' settings files found elsewhere than in
	// the .claude, .codex and .gemini folders of the working folder, its
	// parents and the home (see hook.SettingsFiles); a relative one is
	// read from the call's working folder.
	Settings []string
	// Claude is what Claude Code's environment says of its session, for
	// --abstain.
	Claude ClaudeSession
}

// ClaudeSession is what Claude Code's environment says of a session: where
// its settings are, and how this hook was run.
type ClaudeSession struct {
	// ConfigDir is the folder it keeps the user's settings in when its
	// environment moves them (CLAUDE_CONFIG_DIR); "" for ~/.claude.
	ConfigDir string
	// ProjectDir is the project's folder (CLAUDE_PROJECT_DIR), where its
	// .claude settings are whatever folder a call works in; "" when not
	// told.
	ProjectDir string
	// IsSelf tells whether a hook command in Claude Code's settings is
	// this one (nil: none is).
	IsSelf func(command string) bool
}

// Where a condition of a hook's call was declared met.
const (
	DeclaredByFlag   = "flag"
	DeclaredByConfig = "config.yaml"
)

// HookDecision is a hook's answer and everything its reason tells: what it
// was decided under, how the tool was classed, and where each condition
// was declared met (DeclaredByFlag, DeclaredByConfig or "" for not).
type HookDecision struct {
	Answer  hook.Answer
	Subject Subject
	// Tool is the tool called, and Class how it was classed.
	Tool       string
	Class      hook.Classification
	Sandbox    string
	Checkpoint string
}

// DecideHook answers one call of an agent's pre-tool hook, never more than
// the profile allows: a sandbox and checkpoints are absent unless
// declared; tools are classed by the agent's table, as the home's
// config.yaml may reclassify them.
func (r *Registry) DecideHook(c HookCall) (HookDecision, error) {
	g, err := r.Global()
	if err != nil {
		return HookDecision{}, err
	}
	s, err := r.Subject(c.Under)
	if err != nil {
		return HookDecision{}, err
	}
	d := HookDecision{
		Subject: s,
		Tool:    c.Call.Tool,
		Class:   hook.ClassifyCall(c.Agent, c.Call, g.Hooks.Tools[c.Agent]),
		// --no-sandbox and --no-checkpoint on the command line say the
		// condition is not met, whatever config.yaml declares.
		Sandbox:    declaration(c.Sandboxed, g.Hooks.Sandboxed && !c.Session.NoSandbox),
		Checkpoint: declaration(c.Checkpointed, g.Hooks.Checkpointed && !c.Session.NoCheckpoint),
	}
	in := c.Session
	in.Tool, in.Write, in.Unsafe = c.Call.Tool, d.Class.Write, d.Class.Unsafe
	in.NoSandbox = d.Sandbox == ""
	in.NoCheckpoint = d.Checkpoint == ""
	modeAsks := hook.ModeAsks(c.Agent, c.Call.Mode, d.Class)
	if c.Abstain && modeAsks && c.Agent == hook.ClaudeCode && claudePermitsEdits(c.Call.Cwd, c.Claude) {
		// A permission rule lets Claude Code run the edit without asking,
		// in its default mode too: abstaining would let it run with
		// nobody asked.
		modeAsks = false
	}
	d.Answer = hook.Decide(s.Guard(in), s.Profile, hook.Options{Abstain: c.Abstain, ModeAsks: modeAsks})
	if u, ok := hook.Unprovable(s.Safety, s.Profile.Guards); ok && hook.Supersedes(u, d.Answer) {
		d.Answer = u
	}
	if d.Class.Write {
		written := writeTargets{paths: c.Call.Paths, cwd: c.Call.Cwd, dirs: c.Call.Dirs}
		if c.Call.MCP || !hook.Listed(c.Agent, c.Call.Tool) {
			// A tool the agent's table does not list, or an MCP server's
			// under a name the table lists, may take its files under any
			// key; more of them than were read are not told.
			written.paths = append(slices.Clip(written.paths), c.Call.Named...)
			written.dirs = append(slices.Clip(written.dirs), c.Call.NamedDirs...)
			written.untold = c.Call.NamedTooMany
		}
		// Each path is tried from each folder, each try a walk of the
		// file system: past a bound, which files are meant is not told.
		if len(written.paths)*(1+len(written.dirs)) > maxTries {
			written.untold = true
		}
		for _, g := range []struct {
			rule  string
			match func(string) bool
			why   string
		}{
			// The home holds what every later answer rests on: the
			// profiles, the trusted projects, the tools reclassified for
			// this very hook. An agent allowed to write files must not
			// widen its own limits by writing there; a person may.
			{RuleAgentsHome, inHomeOf(r.Home()), "in the agents home, where the profiles, the trusted projects and the hook's own tool classes are kept"},
			// The agents' own settings install the hooks: an agent that
			// rewrites them can take its hook away.
			{RuleAgentSettings, settingsOf(written.base(), c.Settings), "one of the files an agent's hooks are installed in, so the call could remove the hook that guards the agent"},
		} {
			f := written.first(g.match)
			if f == "" {
				continue
			}
			why := "the call would write " + f + ", " + g.why
			if written.untold {
				why = "the call names too many files to tell where it writes, so it may write " + g.why
			}
			a := hook.Answer{Kind: hook.Ask, Rule: g.rule, Why: why}
			if hook.Stricter(a.Kind, d.Answer.Kind) {
				d.Answer = a
			}
			break
		}
	}
	if d.Answer.Kind == hook.Ask && c.Agent == hook.ClaudeCode && hook.AskReaches(c.Agent, c.Call.Mode) {
		if where := claudeAnswersAsks(c.Call.Cwd, c.Claude); where != "" {
			// Claude Code runs its PermissionRequest hooks before it puts
			// an ask to the person, and one may allow the call in their
			// place.
			d.Answer.Kind = hook.Deny
			d.Answer.Why = "a person's approval is needed, and a PermissionRequest hook (or a plugin, which may bring one) in Claude Code's settings could give it in their place (" + where + "): " + d.Answer.Why
		}
	}
	if d.Answer.Kind == hook.Allow && hook.PersonTool(c.Agent, c.Call.Tool) {
		// The agent's prompt for this tool is the question the call puts
		// to a person: an allow would answer it in their place.
		d.Answer = hook.Answer{Kind: hook.Abstain, Rule: d.Answer.Rule,
			Why: "the call is itself a question to a person, which an allow would answer in their place"}
	}
	return d, nil
}

// The rules of a hook's answer to a write into the agents home, and to
// a write into an agent's settings.
const (
	RuleAgentsHome    = "hook.agents_home"
	RuleAgentSettings = "hook.agent_settings"
)

// maxTries bounds the paths times the folders a write's targets are read
// from: well past any real tool call, and well within a hook's deadline.
const maxTries = 4096

// writeTargets are the files a tool's input names: paths, a relative one
// read from cwd (else the working folder) and from each of dirs, the
// folders the input names (a relative one read from cwd). The tool works
// in one of them, and this side cannot tell which.
type writeTargets struct {
	paths []string
	cwd   string
	dirs  []string
	// untold is set when the input names more files than paths holds:
	// every rule then counts as matched.
	untold bool
}

// first returns the first path (cleaned) that match accepts as written or
// where its links lead, or whose destination cannot be told; "" for none.
func (w writeTargets) first(match func(string) bool) string {
	if w.untold {
		return "files too many to tell" // see DecideHook's reason
	}
	cwd := w.base()
	bases := []string{cwd}
	for _, d := range w.dirs {
		if d == "" {
			continue
		}
		if !filepath.IsAbs(d) {
			d = join(cwd, d)
		}
		bases = append(bases, d)
	}
	for _, p := range w.paths {
		if p == "" {
			continue
		}
		if home, tilde := userHome(p); tilde {
			// Codex reads "~/x" as x in the user's home folder; the
			// others, as a folder named "~". Both are checked, and a
			// home folder that cannot be told counts as matched.
			if home == "" {
				return p
			}
			if f := w.first1(home, match); f != "" {
				return f
			}
		}
		for _, home := range otherHomes(p) {
			// "~user/x" is x in that user's home to Python's
			// expanduser; "~x" is x in the user's own to a server that
			// drops the "~" and joins the rest to the home.
			if f := w.first1(home, match); f != "" {
				return f
			}
		}
		written := []string{p}
		if !filepath.IsAbs(p) {
			written = written[:0]
			for _, b := range bases {
				if !filepath.IsAbs(b) {
					return p
				}
				written = append(written, join(b, p))
			}
		}
		for _, w := range written {
			// Every link followed as the write would follow it, one to a
			// file not there yet included.
			resolved, _, err := safefile.WalkLinks(w, nil)
			if errors.Is(err, syscall.ENAMETOOLONG) {
				// A part too long for any file to have: text, unless a
				// server tidies it away ("long/../x"), so it is read
				// tidied, and passed over when that is no path either.
				c := filepath.Clean(w)
				if resolved, _, err = safefile.WalkLinks(c, nil); errors.Is(err, syscall.ENAMETOOLONG) {
					continue
				}
				w = c
			}
			w = filepath.Clean(w)
			if err != nil || match(w) || match(resolved) {
				return w
			}
		}
	}
	return ""
}

// ancestors returns dir, cleaned, and every folder above it up to the root;
// none for a dir that is not absolute.
func ancestors(dir string) []string {
	var out []string
	for d := filepath.Clean(dir); filepath.IsAbs(d); d = filepath.Dir(d) {
		out = append(out, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	return out
}

// base is the folder a relative path is read from first: cwd, else the
// working folder, as the hook runs in the agent's; "" when neither can be
// told, and then what cannot be shown to be elsewhere counts as matched.
func (w writeTargets) base() string {
	if w.cwd != "" {
		return w.cwd
	}
	wd, _ := os.Getwd()
	return wd
}

// first1 is first for the one absolute path p.
func (w writeTargets) first1(p string, match func(string) bool) string {
	return writeTargets{paths: []string{p}}.first(match)
}

// otherHomes returns the paths p may name with a leading "~" that is not
// "~/": in the home of the user it names ("~root/x", when there is one),
// and in the user's own home with the "~" dropped ("~x" as home/x).
func otherHomes(p string) []string {
	rest, ok := strings.CutPrefix(p, "~")
	if !ok || rest == "" || rest[0] == '/' || rest[0] == filepath.Separator {
		return nil
	}
	var out []string
	name, after, _ := strings.Cut(rest, "/")
	if u, err := user.Lookup(name); err == nil && u.HomeDir != "" {
		out = append(out, u.HomeDir+"/"+after)
	}
	if home, _ := userHome("~"); home != "" {
		out = append(out, home+"/"+rest)
	}
	return out
}

// userHome returns p with a leading "~" (alone or before a separator)
// read as the user's home folder ($HOME, else the user's entry in the
// system's accounts); tilde is false when p has no such "~", and the path
// "" when the home folder cannot be told.
func userHome(p string) (path string, tilde bool) {
	rest, ok := strings.CutPrefix(p, "~")
	if !ok || rest != "" && rest[0] != '/' && rest[0] != filepath.Separator {
		return "", false
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		u, uerr := user.Current()
		if uerr != nil || u.HomeDir == "" {
			return "", true
		}
		home = u.HomeDir
	}
	return home + rest, true
}

// join joins a relative path to base as written: "link/.." leads where
// the link's target's parent is, which cleaning the text would lose.
func join(base, rel string) string {
	if base == "" {
		return rel
	}
	return base + string(filepath.Separator) + rel
}

// inHomeOf matches a path in home or home itself, as given or where its
// links lead.
func inHomeOf(home string) func(string) bool {
	if home == "" {
		return func(string) bool { return false }
	}
	homes := []string{filepath.Clean(home)}
	if real, err := filepath.EvalSymlinks(home); err == nil {
		homes = append(homes, real)
	}
	return func(p string) bool {
		for _, h := range homes {
			if rel, err := filepath.Rel(h, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return true
			}
		}
		return false
	}
}

// settingsOf matches a file an agent's hooks are installed in: by its
// name (see isAgentSettings), as one of elsewhere (files found elsewhere,
// a relative one read from cwd), as any file of Claude Code's
// managed-settings.d folders, or as where the settings files of cwd, its
// parent folders (the project may be any of them), the user's home folder
// and elsewhere lead, for a folder such as .claude that is a link to
// elsewhere. What needs the file system is worked out on the first path
// the name alone does not match.
func settingsOf(cwd string, elsewhere []string) func(string) bool {
	var (
		real    map[string]bool
		managed []func(string) bool
	)
	return func(p string) bool {
		if isAgentSettings(p) {
			return true
		}
		if real == nil {
			real = settingsFiles(cwd, elsewhere)
			for _, d := range hook.ClaudeManagedDirs {
				managed = append(managed, inHomeOf(d))
			}
		}
		// A file in a folder Claude Code merges administrators' settings
		// from (or that folder itself) is one of them, whatever its name.
		return real[filepath.Clean(p)] || slices.ContainsFunc(managed, func(in func(string) bool) bool { return in(p) })
	}
}

// settingsFiles returns the files elsewhere names (a relative one read
// from cwd) and where they and the agents' settings files of cwd, its
// parent folders and the user's home folder lead, links followed (a file
// not there yet included).
func settingsFiles(cwd string, elsewhere []string) map[string]bool {
	roots := ancestors(cwd)
	if home, _ := userHome("~"); home != "" {
		roots = append(roots, home)
	}
	out := map[string]bool{}
	follow := func(p string) {
		if end, _, err := safefile.WalkLinks(p, nil); err == nil && end != p {
			out[filepath.Clean(end)] = true
		}
	}
	for _, root := range roots {
		for dir, names := range hook.SettingsFolders {
			for _, n := range names {
				follow(filepath.Join(root, dir, n))
			}
		}
	}
	for _, p := range elsewhere {
		if !filepath.IsAbs(p) {
			if cwd == "" {
				continue
			}
			p = join(cwd, p)
		}
		out[filepath.Clean(p)] = true
		follow(p)
	}
	return out
}

// isAgentSettings matches a file an agent's hooks are installed in, in
// any case of its letters (a file system may fold them).
func isAgentSettings(p string) bool {
	dir, base := filepath.Base(filepath.Dir(p)), filepath.Base(p)
	for d, names := range hook.SettingsFolders {
		if strings.EqualFold(d, dir) && slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, base) }) {
			return true
		}
	}
	return false
}

// claudePermitsEdits reports whether one of the settings files Claude Code
// reads could let a file edit run without asking a person (see
// hook.PermitsEdits); see claudeSettingsSay for the files.
func claudePermitsEdits(cwd string, session ClaudeSession) bool {
	return claudeSettingsSay(cwd, session, func(data []byte) bool { return hook.PermitsEdits(data, session.IsSelf) }) != ""
}

// claudeAnswersAsks returns the first of the settings files Claude Code
// reads that could answer an ask in a person's place (see
// hook.AnswersAsks), or what could not be told; "" when none could. See
// claudeSettingsSay for the files.
func claudeAnswersAsks(cwd string, session ClaudeSession) string {
	return claudeSettingsSay(cwd, session, hook.AnswersAsks)
}

// claudeSettingsSay returns the first of the settings files Claude Code
// reads for which say holds, or what could not be told (a file or folder
// that cannot be read, a working or home folder unknown), as a message names
// it; "" when say holds for none. The files: a project's, in cwd or any
// folder above it, as written or where its links lead, as the project may
// be any of them, and in the session's
// project folder (cwd is the hook's own working folder when the input names
// none, and one that cannot be told counts as permitting); the user's, in
// the session's config folder, else ~/.claude; the administrators',
// managed-settings.json and every .json file of the managed-settings.d
// folder Claude Code merges over it. A file that is there but cannot be read
// could say anything, and counts as saying so; so does a home folder that
// cannot be told. What is given on Claude Code's command line
// (--allowedTools, --settings) reaches none of these files, and cannot be
// seen here.
func claudeSettingsSay(cwd string, session ClaudeSession, say func(data []byte) bool) string {
	cwd = writeTargets{cwd: cwd}.base() // the hook's own, when the input has none
	if !filepath.IsAbs(cwd) {
		return "the working folder, which cannot be told"
	}
	// The folders above cwd as written, and above where it leads: the
	// agent may name its folder either way, and "link/.." is the parent
	// of the link's target, as the search for agents.yaml takes it.
	roots := ancestors(cwd)
	end, _, err := safefile.WalkLinks(cwd, nil)
	if err != nil {
		return "the working folder " + cwd + ", whose links cannot be followed"
	}
	if end = filepath.Clean(end); end != filepath.Clean(cwd) {
		roots = append(roots, ancestors(end)...)
	}
	var dirs []string
	seen := map[string]bool{}
	for _, d := range roots {
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, filepath.Join(d, ".claude"))
		}
	}
	if p := session.ProjectDir; p != "" {
		if !filepath.IsAbs(p) {
			p = join(cwd, p)
		}
		dirs = append(dirs, filepath.Join(p, ".claude"))
	}
	switch configDir := session.ConfigDir; {
	case configDir != "":
		if !filepath.IsAbs(configDir) {
			configDir = join(cwd, configDir)
		}
		dirs = append(dirs, configDir)
	default:
		home, _ := userHome("~")
		if home == "" {
			return "your home folder, which cannot be told"
		}
		dirs = append(dirs, filepath.Join(home, ".claude"))
	}
	var files []string
	for _, d := range dirs {
		for _, n := range hook.ClaudeSettingsNames {
			files = append(files, filepath.Join(d, n))
		}
	}
	files = append(files, hook.ClaudeManaged...)
	for _, d := range hook.ClaudeManagedDirs {
		des, err := os.ReadDir(d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return d + ", which cannot be read"
		}
		for _, de := range des {
			if strings.HasSuffix(de.Name(), ".json") {
				files = append(files, filepath.Join(d, de.Name()))
			}
		}
	}
	for _, f := range files {
		data, err := safefile.ReadFile(f, strictyaml.MaxFileSize)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return f + ", which cannot be read"
		case say(data):
			return f
		}
	}
	return ""
}

func declaration(flag, config bool) string {
	switch {
	case flag:
		return DeclaredByFlag
	case config:
		return DeclaredByConfig
	}
	return ""
}
