// Package config decodes the two configuration files that take part in
// resolution: the global $AGENTS_HOME/config.yaml and a project's
// agents.yaml. Both may set the automation profile and an inline safety
// profile for the plans made under them; config.yaml also names the safety
// pack in force and holds the presentation settings (format, lock_timeout).
//
// The policy keys go through the same strict decoder as profiles: viper,
// which reads the presentation settings, decodes loosely (a quoted "yes"
// would pass as a bool), and a safety setting must not be read that way.
// Unknown keys are invalid input with a did-you-mean, so a misspelt key can
// never be silently ignored. The package never prints, reads flags or
// environment, or exits.
package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/hook"
	"github.com/agentsctl/agents/internal/profile"
	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/storeurl"
	"github.com/agentsctl/agents/internal/strictyaml"
	"go.yaml.in/yaml/v3"
)

// File names.
const (
	// GlobalFileName is the global configuration, in the agents home.
	GlobalFileName = "config.yaml"
	// ProjectFileName is a project's configuration, in the project's
	// folder or any folder above the working directory.
	ProjectFileName = "agents.yaml"
)

// Keys of the configuration files.
const (
	KeyAutomationProfile = "automation_profile"
	KeySafetyProfile     = "safety_profile"
	KeySafetyPack        = "safety_pack"
	KeyFormat            = "format"
	KeyLockTimeout       = "lock_timeout"
	KeyHooks             = "hooks"
	KeyTrustedProjects   = "trusted_projects"
	KeyStore             = "store"
)

// MaxLockTimeout is the longest lock timeout accepted, from any source. A
// longer one is refused rather than wrapped or trusted: no change waits a
// day for another writer.
const MaxLockTimeout = 24 * time.Hour

// CheckLockTimeout returns why a lock timeout cannot be used, or "".
func CheckLockTimeout(d time.Duration) string {
	switch {
	case d < 0:
		return "must not be negative"
	case d > MaxLockTimeout:
		return "is over the maximum of " + FormatDuration(MaxLockTimeout)
	}
	return ""
}

// FormatDuration writes a duration as a person would: 24h, not 24h0m0s.
func FormatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// SecondsDuration converts a number of seconds, as config.yaml may give the
// lock timeout, to a duration, refusing what is not finite, is negative, or
// is past MaxLockTimeout (so the conversion can never wrap).
func SecondsDuration(secs float64) (time.Duration, string) {
	switch {
	case secs != secs:
		return 0, "must be a number of seconds"
	case secs < 0:
		return 0, "must not be negative"
	case secs > MaxLockTimeout.Seconds():
		return 0, "is over the maximum of " + FormatDuration(MaxLockTimeout)
	}
	return time.Duration(secs * float64(time.Second)), ""
}

// GlobalKeys are the keys config.yaml may hold.
var GlobalKeys = []string{KeyAutomationProfile, KeySafetyProfile, KeySafetyPack, KeyFormat, KeyLockTimeout, KeyHooks, KeyTrustedProjects, KeyStore}

// Keys under hooks: the two declarations, and one mapping per agent.
const (
	KeySandboxed    = "sandboxed"
	KeyCheckpointed = "checkpointed"
	KeyTools        = "tools"
)

// ProjectKeys are the keys agents.yaml may hold.
var ProjectKeys = []string{KeyAutomationProfile, KeySafetyProfile}

// Policy is what a configuration level sets for the plans made under it.
// A nil field sets nothing, leaving the choice to a less specific level.
type Policy struct {
	// AutomationProfile names an automation profile (built-in or
	// namespace/name). Whether it exists is checked when it is used.
	AutomationProfile *string
	// SafetyProfile is an inline, standalone safety profile; fields it
	// leaves out take their defaults.
	SafetyProfile *profile.SafetyProfile
}

// Global is the decoded $AGENTS_HOME/config.yaml.
type Global struct {
	// File is the path read, or "" when there is no config.yaml.
	File string
	// Doubt, for a home with no config.yaml, says why its absence proves
	// nothing: someone other than the user could have removed it. ""
	// when the home is the user's alone (or not there).
	Doubt string
	Policy
	// SafetyPack is the id of the configured safety pack; "" means the
	// shipped one.
	SafetyPack string
	// Format and LockTimeout are the presentation settings, as written
	// ("" when not set). The root command reads them through viper; they
	// are checked here so that a bad value is reported with the others.
	Format      string
	LockTimeout string
	// Hooks holds what the user declares about the agents the hooks
	// guard. Only this file may declare it: never a project, never the
	// environment.
	Hooks Hooks
	// TrustedProjects are the folders (absolute, as recorded) whose
	// agents.yaml a hook may use; see 'agents project trust'.
	TrustedProjects []string
	// TrustedDigests pins a trusted folder to the agents.yaml it held
	// when 'agents project trust' recorded it: folder → the sha256 of the
	// file's content, "" when it had none. A folder recorded as a plain
	// path (written by hand) has no entry: it trusts whatever its
	// agents.yaml says.
	TrustedDigests map[string]string
	// Store is the store URL, as written ("" when not set: the file store
	// in the home). The root command reads it; it is checked here so that
	// a bad value is reported with the others.
	Store string
}

// Hooks is the hooks section of config.yaml.
type Hooks struct {
	// Sandboxed declares that every agent runs its tools in a sandbox;
	// Checkpointed that it takes a checkpoint before every write. Left
	// out, neither is assumed.
	Sandboxed    bool
	Checkpointed bool
	// Tools reclassifies tools, by agent and then by tool name.
	Tools map[string]map[string]hook.ToolClass
}

// Project is the decoded agents.yaml of a project.
type Project struct {
	// Dir is the folder the file was looked for from.
	Dir string
	// File is the agents.yaml found, or "" when there is none.
	File string
	// Unpinned is set when only trusted projects were asked for and the
	// folder is trusted by plain entries alone (written by hand, or by an
	// agents that did not pin): whatever its agents.yaml says counts.
	Unpinned bool
	Policy
}

// GlobalPath returns where the global configuration lives under home.
func GlobalPath(home string) string { return filepath.Join(home, GlobalFileName) }

// LoadGlobal reads and decodes <home>/config.yaml. A missing file is an
// empty configuration (see Absent): a new home has none. A file that
// someone other than the user (or root) owns or could have written is
// refused (see CheckOwnership).
func LoadGlobal(home string) (*Global, error) {
	data, err := ReadGlobal(home)
	if err != nil {
		return &Global{}, err
	}
	if data == nil {
		return Absent(home), nil
	}
	return DecodeGlobal(data, GlobalPath(home))
}

// Absent is the configuration of a home with no config.yaml: empty, with
// Doubt set when someone other than the user could have removed the file
// (the home is theirs, or they may write to it), so that what it said,
// a stricter pack say, is unknown.
func Absent(home string) *Global {
	g := &Global{}
	if err := CheckOwnership(GlobalPath(home), "the configuration", func(e *errs.Error) *errs.Error { return e }); err != nil {
		g.Doubt = strings.TrimPrefix(err.Error(), "refusing ") + "; what it would say is unknown"
	} else if why := swappable(home); why != "" {
		g.Doubt = "the configuration " + GlobalPath(home) + " is missing, and " + why + "; what it would say is unknown"
	}
	return g
}

// ReadGlobal returns the content of <home>/config.yaml, or nil when there
// is none, after checking that it can be trusted.
func ReadGlobal(home string) ([]byte, error) {
	if err := safefile.CheckHome(home); err != nil {
		return nil, err
	}
	file := GlobalPath(home)
	data, err := readTrusted(file, "the configuration", func(e *errs.Error) *errs.Error {
		return e.WithHint("make the file and its folder yours and writable by you alone (chown, chmod go-w)")
	})
	if errs.Is(err, errs.KindNotFound) {
		// No file is an empty configuration; a link to nothing is one
		// that cannot be read, and what it would have said is unknown.
		if fi, lerr := os.Lstat(file); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(file)
			return nil, errs.Invalid("%s is a link to %s, which does not exist", file, target).
				WithHint("restore the file it names, or remove the link to use no configuration")
		}
		return nil, nil
	}
	return data, err
}

// DecodeGlobal decodes the global configuration document; file names it in
// problems. Every problem is collected into one errs.KindInvalid error
// whose problems carry their key path (see ProblemsAt). The configuration
// returned with an error holds what did decode.
func DecodeGlobal(data []byte, file string) (*Global, error) {
	g := &Global{File: file}
	d, root := decoder(data, file)
	if root == nil {
		return g, emptyHint(d.Err(), data)
	}
	for _, f := range d.Fields(strictyaml.At("", root), GlobalKeys) {
		switch f.Key {
		case KeyAutomationProfile, KeySafetyProfile:
			decodePolicyField(d, f, &g.Policy)
		case KeySafetyPack:
			g.SafetyPack = decodePackID(d, f)
		case KeyFormat:
			if s, ok := d.OptString(f); ok && s != nil {
				g.Format = *s
			}
		case KeyLockTimeout:
			g.LockTimeout = decodeDuration(d, f)
		case KeyHooks:
			g.Hooks = decodeHooks(d, f)
		case KeyTrustedProjects:
			g.TrustedProjects, g.TrustedDigests = decodeTrusted(d, f)
		case KeyStore:
			g.Store = decodeStore(d, f)
		}
	}
	return g, d.Err()
}

func decodeHooks(d *strictyaml.Decoder, f strictyaml.Field) Hooks {
	var h Hooks
	if f.IsNull() {
		// A section left empty is more likely cut short than meant: a
		// reclassification it held may have made a tool stricter.
		d.Fieldf(f, "must be a mapping, got null; remove the key, or write hooks: {} for no settings")
		return h
	}
	known := append([]string{KeySandboxed, KeyCheckpointed}, hook.Agents()...)
	for _, e := range d.Fields(f, known) {
		switch e.Key {
		case KeySandboxed:
			h.Sandboxed, _ = d.Bool(e)
		case KeyCheckpointed:
			h.Checkpointed, _ = d.Bool(e)
		default:
			if e.IsNull() {
				d.Fieldf(e, "must be a mapping, got null; remove the key, or write %s: {} for no settings", e.Key)
				continue
			}
			for _, t := range d.Fields(e, []string{KeyTools}) {
				tools := decodeTools(d, t)
				if len(tools) > 0 {
					if h.Tools == nil {
						h.Tools = map[string]map[string]hook.ToolClass{}
					}
					h.Tools[e.Key] = tools
				}
			}
		}
	}
	return h
}

// decodeTools reads hooks.<agent>.tools: tool name → {write, unsafe}, both
// stated, so that a reclassification is never half a guess.
func decodeTools(d *strictyaml.Decoder, f strictyaml.Field) map[string]hook.ToolClass {
	if f.IsNull() {
		d.Fieldf(f, "must be a mapping of tool names, got null; remove the key, or write tools: {} for none")
		return nil
	}
	entries, _ := d.Mapping(f)
	out := map[string]hook.ToolClass{}
	for _, e := range entries {
		if strings.TrimSpace(e.Key) == "" || strings.TrimSpace(e.Key) != e.Key {
			d.Addf(e.Path, e.KeyNode, "%q is not a tool name: tools are matched exactly", e.Key)
			continue
		}
		var c hook.ToolClass
		seen := map[string]bool{}
		for _, k := range d.Fields(e, []string{"write", "unsafe"}) {
			seen[k.Key] = true
			switch k.Key {
			case "write":
				c.Write, _ = d.Bool(k)
			case "unsafe":
				c.Unsafe, _ = d.Bool(k)
			}
		}
		if !e.IsNull() && (!seen["write"] || !seen["unsafe"]) {
			d.Addf(e.Path, e.KeyNode, "must state both write and unsafe, as true or false")
			continue
		}
		out[e.Key] = c
	}
	return out
}

// The keys of a pinned entry of trusted_projects.
const (
	KeyFolder = "folder"
	KeySHA256 = "sha256"
)

// decodeTrusted reads trusted_projects: absolute folder paths, each a
// plain path or a pinned entry, {folder: <path>, sha256: <digest of its
// agents.yaml, or "" for none>}, as 'agents project trust' writes it.
func decodeTrusted(d *strictyaml.Decoder, f strictyaml.Field) ([]string, map[string]string) {
	if f.IsNull() {
		return nil, nil
	}
	items, _ := d.Seq(f)
	var (
		out    []string
		pinned map[string]string
	)
	for _, it := range items {
		folder, digest, isPinned := it, "", false
		if it.Value != nil && it.Value.Kind == yaml.MappingNode {
			isPinned = true
			folder = strictyaml.Field{}
			d.Each(it, []string{KeyFolder, KeySHA256}, []string{KeyFolder, KeySHA256}, func(e strictyaml.Field) {
				switch e.Key {
				case KeyFolder:
					folder = e
				case KeySHA256:
					if v, ok := d.String(e); ok {
						if v != "" && !isDigest(v) {
							d.Fieldf(e, "%q is not a sha256 digest (64 lower-case hex digits, or \"\" for a folder that had no %s)", v, ProjectFileName)
						}
						digest = v
					}
				}
			})
			if folder.Value == nil {
				continue
			}
		}
		s, ok := d.String(folder)
		if !ok {
			continue
		}
		if !filepath.IsAbs(s) || filepath.Clean(s) != s {
			d.Fieldf(folder, "%q must be an absolute, clean folder path", s)
			continue
		}
		out = append(out, s)
		if isPinned {
			if pinned == nil {
				pinned = map[string]string{}
			}
			pinned[s] = digest
		}
	}
	return out, pinned
}

// isDigest reports whether s is a sha256 digest as agents writes one.
func isDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// lstat is os.Lstat; tests put a folder that cannot be searched in its
// place, which root (who runs them in CI) cannot make.
var lstat = os.Lstat

// BadProjectPath says why the project folder start cannot be a folder,
// when the reason lies in the path itself: its links go round in a loop,
// or a part of it is a file. For any other path it returns nil.
func BadProjectPath(start string) error {
	_, err := os.Stat(start)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return strictyaml.LoopError(err, start, "folder", "cannot read the project folder %s", start)
	case errors.Is(err, syscall.ENOTDIR):
		return notAFolder(start, ": a part of its path is a file")
	case errors.Is(err, syscall.ENAMETOOLONG):
		return errs.NotFound("project folder %s not found: the name is longer than the file system allows", start)
	}
	return nil
}

// NotAFolder is the refusal of a project folder that is not a folder.
func NotAFolder(start string) error { return notAFolder(start, "") }

// notAFolder is NotAFolder saying why, when why is not "".
func notAFolder(start, why string) error {
	return errs.Invalid("project folder %s is not a folder%s", start, why).
		WithHint("give the folder that holds agents.yaml (or a folder below it)")
}

// FindProject returns the agents.yaml in start or its nearest ancestor, or
// "" when there is none up to the root of the file system. A start folder
// that does not exist is not found; one on the way that cannot be searched
// is invalid input, since the file that applies may be there. The search
// goes up from where start leads, its links followed as the kernel
// follows them ("link/.." is the parent of the link's target), so that
// the folders searched are the ones the agent works in, and the ones
// 'agents project trust' records; when going up start as written finds
// another file, which one applies cannot be told, and that is invalid
// input too.
func FindProject(start string) (string, error) {
	dir, err := safefile.AbsAsOpened(start)
	if err != nil {
		return "", errs.Wrap(errs.KindInternal, err, "resolving the project folder %s", start)
	}
	asWritten := filepath.Clean(dir)
	real, err := filepath.EvalSymlinks(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", errs.NotFound("project folder %s not found", start)
	case err != nil && !errors.Is(err, fs.ErrPermission):
		if bad := BadProjectPath(start); bad != nil {
			return "", bad
		}
		return "", errs.Wrap(errs.KindInternal, err, "resolving the project folder %s", start)
	case err == nil:
		dir = real
	default:
		dir = filepath.Clean(dir) // the Stat below says what is wrong
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", errs.NotFound("project folder %s not found", start)
	case err != nil:
		return "", cannotCheck(err, "reading the project folder %s", start)
	case !fi.IsDir():
		return "", notAFolder(start, "")
	}
	found, err := findUp(dir)
	if err != nil {
		return "", err
	}
	// Going up the path as written can find another project than going
	// up from where it leads (a link into another tree, "link/.."): the
	// agent works in the one, the folder names the other. Each may be the
	// stricter; which applies cannot be told, so neither is taken.
	if asWritten != dir {
		other, err := findUp(asWritten)
		if err != nil {
			// A folder on the written way up that cannot be searched may
			// hold the file that applies there.
			return "", err
		}
		if !sameFile(found, other) {
			return "", errs.Invalid("the folder %s leads to %s, and the agents.yaml found above each differs (%s and %s), so which applies cannot be told", start, dir, orNone(other), orNone(found)).
				WithHint("work in %s itself, or give --project for the folder meant", dir)
		}
	}
	return found, nil
}

// realPath returns where dir leads, links followed, or "" when that
// cannot be told.
func realPath(dir string) string {
	abs, err := safefile.AbsAsOpened(dir)
	if err != nil {
		return ""
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return ""
	}
	return real
}

// sameFile reports whether a and b (either "" for none) are the same file.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return a == b
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return os.SameFile(fa, fb)
}

func orNone(file string) string {
	if file == "" {
		return "none"
	}
	return file
}

// findUp returns the agents.yaml in dir or its nearest ancestor by name,
// or "" when there is none up to the root.
func findUp(dir string) (string, error) {
	for {
		file := filepath.Join(dir, ProjectFileName)
		// Anything by that name is the project's file: one that is not a
		// regular file (a folder, a FIFO) is refused when it is read, not
		// passed over for a file further up.
		_, err := lstat(file)
		if err == nil {
			return file, nil
		}
		if errors.Is(err, fs.ErrPermission) {
			// A folder that cannot be searched may hold the file that
			// applies; passing over it would use one further up instead.
			return "", errs.Invalid("cannot look for %s in %s: permission denied", ProjectFileName, dir).
				WithHint("run agents as a user who can read %s, or give --project for the folder meant", dir)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", errs.Wrap(errs.KindInternal, err, "looking for %s", file)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// ProjectOptions say where to look for a project's agents.yaml and which
// ones to trust.
type ProjectOptions struct {
	// Dir is the folder the search starts from.
	Dir string
	// Explicit is true when the user named Dir (--project): an agents.yaml
	// in Dir itself is then trusted whoever owns it, as git's
	// safe.directory trusts a folder the user names. One found above Dir
	// is checked as usual.
	Explicit bool
	// OnlyTrusted, when true, uses an agents.yaml only in a folder listed
	// in Trusted (a hook's resolution: a cloned repository must not
	// choose the profile of the agent working in it); any other is
	// refused.
	OnlyTrusted bool
	Trusted     []string
	// Digests pins trusted folders to the agents.yaml each held when it
	// was trusted (Global.TrustedDigests): a pinned folder whose file has
	// changed since is refused like an untrusted one.
	Digests map[string]string
}

// ReadProjectFile reads a project's agents.yaml as a hook or a search from
// the working folder reads it: the file and each folder above it must pass
// the ownership checks of CheckOwnership.
func ReadProjectFile(file string) ([]byte, error) {
	folder := filepath.Dir(file)
	about := func(e *errs.Error) *errs.Error { return e.About(errs.AboutProjectOwner, folder) }
	data, err := readTrusted(file, "the project file", about)
	if errs.Is(err, errs.KindNotFound) {
		if target, lerr := os.Readlink(file); lerr == nil {
			// Found by the search, so not a name someone mistyped: a
			// link to nothing stands where the project's file is.
			return nil, errs.Invalid("the project file %s is a link to %s, which does not exist", file, target).
				WithHint("put the file it names back, or remove the link %s", file)
		}
	}
	return data, err
}

// LoadProject finds the agents.yaml that applies in opts.Dir (see
// FindProject), checks that it can be trusted and decodes it. No file is
// an empty project configuration. A file that someone other than the user
// or root owns or could write is refused (errs.KindInvalid), unless the
// user named its folder; with OnlyTrusted, so is one in a folder the user
// has not trusted.
func LoadProject(opts ProjectOptions) (*Project, error) {
	abs, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, errs.Wrap(errs.KindInternal, err, "resolving the project folder %s", opts.Dir)
	}
	// The folder as given, not tidied as text: "link/.." is where the
	// kernel takes it, which FindProject follows.
	file, err := FindProject(opts.Dir)
	if err != nil {
		var e *errs.Error
		if opts.Explicit && errors.As(err, &e) && e.Kind == errs.KindNotFound {
			// A folder the person named: the hint says to check it.
			e.About(errs.AboutProjectFolder, opts.Dir)
		}
		return nil, err
	}
	if !opts.Explicit {
		// Whoever could have made or changed a link on the way to the
		// working folder chooses where the search starts, and so which
		// agents.yaml applies (a trusted project's, say, for an agent
		// working elsewhere), as a link on the way to a file chooses
		// what is read. A folder the user names is their word.
		if why := untrustedLink(opts.Dir); why != "" {
			return nil, errs.Invalid("the working folder %s cannot choose the project configuration: %s", opts.Dir, why).
				WithHint("work in %s, where it leads, or name the profile (in a hook's command) or the folder (--project)", orNone(realPath(opts.Dir)))
		}
	}
	if opts.OnlyTrusted {
		if err := checkPassedOver(opts); err != nil {
			return nil, err
		}
	}
	if file == "" {
		return &Project{Dir: abs}, nil
	}
	folder := filepath.Dir(file)
	entries, doubted := trustedEntries(folder, opts.Trusted)
	if opts.OnlyTrusted && len(entries) == 0 {
		if doubted != "" {
			return nil, errs.Invalid("the project %s is not trusted, so its %s cannot choose the profiles: %s", folder, ProjectFileName, doubted).
				About(errs.AboutUntrustedProject, folder, file)
		}
		return nil, errs.Invalid("the project %s is not trusted, so its %s cannot choose the profiles", folder, ProjectFileName).
			About(errs.AboutUntrustedProject, folder, file)
	}
	var data []byte
	if opts.Explicit && (folder == abs || folder == realPath(opts.Dir)) {
		data, err = strictyaml.ReadOwnFile(file)
	} else {
		data, err = ReadProjectFile(file)
	}
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		want, pinned := opts.Digests[e]
		if !opts.OnlyTrusted || !pinned {
			continue
		}
		// Every pin that names the folder holds, whatever other entry
		// names it too. The bytes decoded below are the bytes compared:
		// what the person read before trusting it, or nothing.
		if got := Digest(data); got != want {
			was := "there was none"
			if want != "" {
				was = "sha256 " + want[:12] + "…"
			}
			return nil, errs.Invalid("the project %s has changed its %s since it was trusted (%s; now sha256 %s…), so it cannot choose the profiles until it is trusted again", folder, ProjectFileName, was, got[:12]).
				About(errs.AboutUntrustedProject, folder, file)
		}
	}
	p, err := DecodeProject(data, file)
	var e *errs.Error
	if errors.As(err, &e) && e.Hint == "" {
		// As config.yaml's: the file is to be mended, or set aside.
		e.WithHint("fix %s, or move it aside to use no project configuration", file)
	}
	p.Dir = abs
	p.Unpinned = opts.OnlyTrusted && !anyPinned(entries, opts.Digests)
	return p, err
}

// checkPassedOver refuses a search for the project's file that passed
// over a folder trusted with an agents.yaml pinned: that file has been
// removed or moved away since, and what it chose (a stricter profile than
// the one found above it, or than the global one) cannot be told. An agent
// that could delete the file must not get a looser profile by it. The
// folders passed over are those below the first that holds an agents.yaml
// (every one up to the root, when none does), going up from where abs
// leads and from abs as written, each way to its own first file.
func checkPassedOver(opts ProjectOptions) error {
	// Only a folder trusted with a file can have lost it: most homes
	// trust none, and the search then costs nothing more.
	type pin struct{ entry, real, digest string }
	var pins []pin
	for _, e := range opts.Trusted {
		if d, ok := opts.Digests[e]; ok && d != "" {
			real, err := filepath.EvalSymlinks(e)
			if err != nil {
				real = ""
			}
			pins = append(pins, pin{e, real, d})
		}
	}
	if len(pins) == 0 {
		return nil
	}
	abs, err := safefile.AbsAsOpened(opts.Dir)
	if err != nil {
		return nil // FindProject has said so
	}
	starts := []string{filepath.Clean(abs)}
	if real := realPath(opts.Dir); real != "" && real != starts[0] {
		starts = append(starts, real)
	}
	for _, dir := range starts {
		for {
			if _, err := lstat(filepath.Join(dir, ProjectFileName)); err == nil {
				break // the file that applies here
			}
			real, err := filepath.EvalSymlinks(dir)
			if err != nil {
				real = dir
			}
			for _, p := range pins {
				if p.entry == dir || p.real == dir || p.real == real {
					return errs.Invalid("the project %s had an %s when it was trusted (sha256 %s…) and has none now, so what it chose cannot be told", dir, ProjectFileName, p.digest[:12]).
						About(errs.AboutRemovedProjectFile, dir, "")
				}
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return nil
}

// anyPinned reports whether one of entries is pinned in digests.
func anyPinned(entries []string, digests map[string]string) bool {
	for _, e := range entries {
		if _, ok := digests[e]; ok {
			return true
		}
	}
	return false
}

// Digest is the sha256 of a project file's content, as trust pins it.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// trustedEntries returns the entries of trusted that name folder,
// comparing the paths as written and with links resolved. An entry that
// leads to folder only through a link someone other than the user could
// have made or changed (see untrustedLink) is left out, and doubted says
// why: a folder once trusted may be gone, and whoever may write where it
// was could otherwise hand its trust to any folder of the user's by
// putting a link in its place.
func trustedEntries(folder string, trusted []string) (out []string, doubted string) {
	real := folder
	if r, err := filepath.EvalSymlinks(folder); err == nil {
		real = r
	}
	for _, t := range trusted {
		switch {
		case t == folder:
		case !sameFolder(t, real):
			continue
		default:
			if why := untrustedLink(t); why != "" {
				doubted = "the trusted folder " + t + " leads to it, but " + why
				continue
			}
		}
		out = append(out, t)
	}
	return out, doubted
}

// DecodeProject decodes a project's agents.yaml; file names it in
// problems. Keys that belong in the global configuration only are refused
// with a message saying so.
func DecodeProject(data []byte, file string) (*Project, error) {
	p := &Project{File: file}
	d, root := decoder(data, file)
	if root == nil {
		return p, emptyHint(d.Err(), data)
	}
	fields, ok := d.Mapping(strictyaml.At("", root))
	if ok && len(fields) == 0 {
		// "{}" says nothing, as an empty file does: taken as a project
		// that sets nothing, it would hand the decision to a level above.
		d.Addf("", root, "the file sets nothing (an empty mapping); give it at least one setting, or remove it")
	}
	for _, f := range fields {
		switch f.Key {
		case KeyAutomationProfile, KeySafetyProfile:
			decodePolicyField(d, f, &p.Policy)
		case KeySafetyPack, KeyFormat, KeyLockTimeout, KeyStore:
			d.Addf(f.Path, f.KeyNode, "%s is set only in the global configuration, $AGENTS_HOME/%s", f.Key, GlobalFileName)
		default:
			d.Unknown(f, ProjectKeys)
		}
	}
	return p, d.Err()
}

// ProblemsAt returns the problems of a decoding error whose path is key or
// lies under it.
func ProblemsAt(err error, key string) []errs.Problem {
	var e *errs.Error
	if !errors.As(err, &e) {
		return nil
	}
	var out []errs.Problem
	for _, p := range e.Problems {
		if p.Path == key || strings.HasPrefix(p.Path, key+".") || strings.HasPrefix(p.Path, key+"[") {
			out = append(out, p)
		}
	}
	return out
}

func decodePolicyField(d *strictyaml.Decoder, f strictyaml.Field, p *Policy) {
	if f.IsNull() {
		// A key left empty is more likely an unfinished edit or a
		// template that rendered nothing than a wish to leave the level
		// unset: taken as unset, it would hand the decision to a level
		// above, which may be looser.
		what := "a profile name"
		if f.Key == KeySafetyProfile {
			what = "a safety profile mapping"
		}
		d.Fieldf(f, "must be %s, got null; remove the key to leave this level unset", what)
		return
	}
	switch f.Key {
	case KeyAutomationProfile:
		p.AutomationProfile = profile.DecodeProfileNameField(d, f)
	case KeySafetyProfile:
		p.SafetyProfile = profile.DecodeOptSafetyField(d, f)
	}
}

// decodePackID reads safety_pack: a string holding a valid pack id, checked
// before it ever becomes a path.
func decodePackID(d *strictyaml.Decoder, f strictyaml.Field) string {
	if f.IsNull() {
		// An empty safety_pack is more likely an unfinished edit than a
		// wish for the shipped pack: never guess which pack is in force.
		d.Fieldf(f, "must be a string naming a pack id, got null; remove the key to use the shipped pack")
		return ""
	}
	if f.Value.Kind != yaml.ScalarNode || f.Value.ShortTag() != "!!str" {
		d.Fieldf(f, "must be a string naming a pack id, got %s", strictyaml.Describe(f.Value))
		return ""
	}
	id, ok := d.String(f)
	if !ok {
		return ""
	}
	if why := safetypack.CheckPackID(id); why != "" {
		d.Fieldf(f, "%q %s", id, why)
		return ""
	}
	return id
}

// decodeStore reads store: a postgres:// or postgresql:// URL. A message
// never quotes the value whole: it may hold a password.
func decodeStore(d *strictyaml.Decoder, f strictyaml.Field) string {
	if f.IsNull() {
		// An empty store: is more likely a line cut short or a template
		// that rendered nothing than a wish for the file store, which
		// may hold other profiles under the same names.
		d.Fieldf(f, "must be a string holding a store URL, got null; remove the key for the file store in the home")
		return ""
	}
	if f.Value.Kind != yaml.ScalarNode || f.Value.ShortTag() != "!!str" {
		d.Fieldf(f, "must be a string holding a store URL, got %s", strictyaml.Describe(f.Value))
		return ""
	}
	s := f.Value.Value
	if s == "" {
		d.Fieldf(f, "is empty: give a postgres:// or postgresql:// URL, or remove the key for the file store in the home")
		return ""
	}
	if !storeurl.IsPostgres(s) {
		d.Fieldf(f, "%q is not a store URL: give a postgres:// or postgresql:// URL, or remove the key for the file store in the home", storeurl.Redact(s))
		return ""
	}
	return s
}

// decodeDuration reads lock_timeout as the root command accepts it: a
// duration such as 10s, or a number of seconds, not negative.
func decodeDuration(d *strictyaml.Decoder, f strictyaml.Field) string {
	if f.IsNull() {
		return ""
	}
	if f.Value.Kind == yaml.ScalarNode && f.Value.ShortTag() == "!!str" {
		s, ok := d.String(f)
		if !ok {
			return ""
		}
		v, err := time.ParseDuration(s)
		if err != nil || v < 0 {
			d.Fieldf(f, "must be a duration such as 10s or 2m, got %q", s)
			return ""
		}
		if why := CheckLockTimeout(v); why != "" {
			d.Fieldf(f, "%s %s", s, why)
			return ""
		}
		return s
	}
	v, ok := d.Float(f)
	if !ok {
		return ""
	}
	if v < 0 {
		d.Fieldf(f, "must not be negative, got %s", f.Value.Value)
		return ""
	}
	if _, why := SecondsDuration(v); why != "" {
		d.Fieldf(f, "%s seconds %s", f.Value.Value, why)
		return ""
	}
	return fmt.Sprintf("%gs", v)
}

// decoder returns a decoder for file and the root mapping of data, or a
// nil root when there is nothing to decode: the decoder then holds why. A
// file of nothing but white space and comments is refused as empty, as
// every file agents reads is: an empty file is more likely one truncated
// or not yet written than one meant to say nothing.
func decoder(data []byte, file string) (*strictyaml.Decoder, *yaml.Node) {
	d := strictyaml.NewDecoder(file)
	root, _ := d.Root(data)
	return d, root
}

// emptyHint adds to err, the refusal of a configuration file, how to mend
// it when the file is blank.
func emptyHint(err error, data []byte) error {
	var e *errs.Error
	if blank(data) && errors.As(err, &e) && e.Hint == "" {
		return e.WithHint("give the file at least one setting, or remove it to use none")
	}
	return err
}

// blank reports whether data holds no YAML content: only white space,
// comments and document markers.
func blank(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	for _, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0, line[0] == '#', bytes.Equal(line, []byte("---")), bytes.Equal(line, []byte("...")):
		default:
			return false
		}
	}
	return true
}
