// Package cmdutil is the command line's plumbing, shared by every command
// group: the Deps value built once in cli.Main (streams, configuration,
// the store and the registry), the UI a run function reads and prints
// through, and helpers for arguments, flags, completion, prompts and
// progress. It holds no use case: those are the registry's. It is a leaf
// of internal/cli, so the root command can import every group without a
// cycle.
package cmdutil

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/iostreams"
	"github.com/agentsctl/agents/internal/registry"
	sp "github.com/agentsctl/agents/internal/safetypack"
	"github.com/agentsctl/agents/internal/store"
	filestore "github.com/agentsctl/agents/internal/store/file"
)

// Config is the resolved configuration of one invocation.
type Config struct {
	// Home is the agents home directory (store, config.yaml, packs).
	Home string
	// Format is the output format name.
	Format string
	// LockTimeout bounds how long a mutation waits for the store lock.
	LockTimeout time.Duration
	// Store is the store URL (--store, AGENTS_STORE, store: in
	// config.yaml); "" is the file store in Home. It may hold a password:
	// show it only through storeurl.Redact.
	Store string
	// StoreFromFile says Store came from config.yaml, not from --store or
	// AGENTS_STORE: a command run with the same home finds it again.
	StoreFromFile bool
	// HookStore is the store a hook uses: --store, else store: in
	// config.yaml, else the file store; never AGENTS_STORE, which the
	// environment of the agent running the hook could set to a store of
	// its choosing.
	HookStore string
	// ForHook is set on the configuration a hook opens its store with: a
	// PostgreSQL store is then reached by its URL alone.
	ForHook bool
	// Quiet suppresses progress and informational messages on stderr.
	Quiet bool
	// GlobalRead says the home's config.yaml was read while resolving
	// this configuration: once per invocation, for every use. GlobalData
	// is its content as read (and checked to be trusted), nil when there
	// is none; GlobalErr why it could not be read; Global what it decoded
	// to when all of it did (nil otherwise, and the policy settings are
	// decoded from GlobalData again, to the same error).
	GlobalRead bool
	GlobalData []byte
	GlobalErr  error
	Global     *config.Global
}

// Deps are the dependencies of every command, built once in cli.Main (or by
// a test) and passed to each command constructor.
type Deps struct {
	IO       *iostreams.IOStreams
	Builtins fs.FS
	Now      func() time.Time
	Getenv   func(string) string
	// LookupEnv tells a variable set to "" from one not set, where that
	// matters (AGENTS_HOME, AGENTS_STORE); nil reads every "" as not set.
	LookupEnv func(string) (string, bool)
	// Context is cancelled when the user interrupts the command.
	Context context.Context

	// Config is filled in by the root command before any verb runs.
	Config Config
	// ResolveConfig works Config out from flags, environment and
	// config.yaml. The root command sets it, so that code which runs
	// without the root's pre-run hook (shell completion) can still reach
	// the right store; see EnsureConfig.
	ResolveConfig func() (Config, error)
	configured    bool

	// OpenStore opens the store Config names (Config.Store, else the file
	// store at Config.Home). Set by Main; tests may replace it.
	OpenStore func(cfg Config) (store.Store, error)
	store     store.Store

	// Exits is set by Main: the process exits when the command returns,
	// so the store may leave to the kernel what needs no orderly close.
	Exits bool
	// HookMode is set when the command answers an agent's hook: every
	// failure then blocks, and nothing that loosens a check for a person
	// at a terminal applies.
	HookMode bool
	// HookPrinted is set when the command printed the settings that
	// install a hook (--print-config): it ran as asked, and answered no
	// call, so none of HookMode applies.
	HookPrinted bool
	// Branch is the invocation's arguments when they name their command
	// from the first word on (see cli's treeFor): a group then builds only
	// the verb its second word names. Nil builds every verb.
	Branch []string
	// Args are the invocation's arguments, as given.
	Args []string
	// done says what the command changed, once it has changed it and
	// before it prints so: an error writing the output then says that
	// the change stands (see OutputLost).
	done   string
	nodiff bool
	global *config.Global // config.yaml, once read
	// format is Config.Format, for a goroutine other than the command's.
	format atomic.Pointer[string]

	registry *registry.Registry
	ui       UI
}

// SetConfig records the resolved configuration. What was read under an
// earlier configuration (config.yaml, the pack in force) is dropped.
func (d *Deps) SetConfig(cfg Config) {
	d.Config = cfg
	d.format.Store(&cfg.Format)
	d.configured = true
	d.global = nil
	if d.registry != nil {
		d.registry.Reset()
	}
}

// Format returns the output format the configuration chose, "" before
// it is resolved; unlike Config, it may be read from any goroutine.
func (d *Deps) Format() string {
	if f := d.format.Load(); f != nil {
		return *f
	}
	return ""
}

// EnsureConfig resolves the configuration if nothing has yet. Cobra's hidden
// completion command skips the root's pre-run hook, which is where the
// configuration is normally resolved and where a broken one stops the
// command; without this, completion would read the store of an empty home
// rather than the one --home or AGENTS_HOME names. Completion needs only
// the home, so a configuration whose other settings are broken still gives
// it one; the error is returned only when no home could be found.
func (d *Deps) EnsureConfig() error {
	if d.configured || d.ResolveConfig == nil {
		return nil
	}
	cfg, err := d.ResolveConfig()
	if err != nil && cfg.Home == "" {
		return err
	}
	d.SetConfig(cfg)
	return nil
}

// openStore returns the store, opening it on first use.
func (d *Deps) openStore() (store.Store, error) {
	if d.store != nil {
		return d.store, nil
	}
	if err := d.EnsureConfig(); err != nil {
		return nil, err
	}
	cfg := d.Config
	if d.HookMode && cfg.Store != cfg.HookStore {
		d.UI().Warn("%s is ignored by a hook: it uses the store its command names (--store) or the home's config.yaml does", EnvStore)
		cfg.Store = cfg.HookStore
	}
	cfg.ForHook = d.HookMode
	s, err := d.OpenStore(cfg)
	if err != nil {
		return nil, err
	}
	d.store = s
	return s, nil
}

// CloseStore closes the store, if one was opened and it holds anything
// to close (a database connection): for a process that exits next
// (Exits), through the store's CloseForExit where it has one.
func (d *Deps) CloseStore() {
	if c, ok := d.store.(interface{ CloseForExit() error }); ok && d.Exits {
		_ = c.CloseForExit()
	} else if c, ok := d.store.(interface{ Close() error }); ok {
		_ = c.Close()
	}
	d.store = nil
}

// Done records what the command changed, in words ("added acme/strict"),
// as soon as the change is made; unchanged is set when it found nothing
// to change.
//
// From then on a write to a pipe its reader closed fails rather than ends
// the process on SIGPIPE (with 141 and not a word), so that the command
// can still say that the change was made.
func (d *Deps) Done(what string, unchanged bool) {
	d.done, d.nodiff = what, unchanged
	if d.Exits {
		signal.Ignore(syscall.SIGPIPE)
	}
}

// OutputLost is the error of output that could not be written (a full
// disk, a closed terminal): for a command that changed something, it says
// that the change was made all the same, so that nobody runs it again to
// make it, nor takes it for undone.
func (d *Deps) OutputLost(err error) *errs.Error {
	switch {
	case d.done == "":
		return errs.Wrap(errs.KindInternal, err, "writing the output")
	case d.nodiff:
		return errs.Wrap(errs.KindInternal, err, "nothing was changed (%s), but writing the output failed", d.done).
			WithHint("there is nothing to redo")
	default:
		return errs.Wrap(errs.KindInternal, err, "the change was made (%s), but writing the output failed", d.done).
			WithHint("do not run the command again to make it: it is done")
	}
}

// Ctx returns the command's context.
func (d *Deps) Ctx() context.Context {
	if d.Context == nil {
		return context.Background()
	}
	return d.Context
}

// Registry returns the registry every command runs its use case through,
// built on first use (cli.Main builds it at once) from the store, the
// embedded built-ins, the home, the clock and what the environment
// decides.
func (d *Deps) Registry() *registry.Registry {
	if d.registry == nil {
		d.registry = registry.New(sources{d})
	}
	return d.registry
}

// UI returns what run functions read and print through.
func (d *Deps) UI() *UI {
	d.ui.d = d
	return &d.ui
}

// sources are the registry's sources in this invocation: the
// configuration as the root command resolved it.
type sources struct{ d *Deps }

func (s sources) Store() (store.Store, error)     { return s.d.openStore() }
func (s sources) Builtins() fs.FS                 { return s.d.Builtins }
func (s sources) Home() string                    { return s.d.Config.Home }
func (s sources) Global() (*config.Global, error) { return s.d.Global() }
func (s sources) Unratified() (bool, []string)    { return s.d.allowUnratified() }
func (s sources) SystemDir() string               { return sp.SystemDir }
func (s sources) Now() time.Time                  { return s.d.Now() }
func (s sources) Context() context.Context        { return s.d.Ctx() }
func (s sources) Getwd() (string, error)          { return os.Getwd() }

func (s sources) LockHome(ctx context.Context) (func(), error) {
	return filestore.LockHome(ctx, s.d.Config.Home, s.d.Config.LockTimeout)
}

// Global returns the home's config.yaml, decoded strictly, read at most
// once per invocation. A missing file is an empty configuration.
func (d *Deps) Global() (*config.Global, error) {
	if d.global != nil {
		return d.global, nil
	}
	if err := d.EnsureConfig(); err != nil {
		return nil, err
	}
	var g *config.Global
	var err error
	switch {
	case d.Config.Global != nil:
		g = d.Config.Global
	case !d.Config.GlobalRead:
		// A configuration made without the root command (a test's).
		g, err = config.LoadGlobal(d.Config.Home)
	case d.Config.GlobalErr != nil:
		err = d.Config.GlobalErr
	case d.Config.GlobalData == nil:
		g = config.Absent(d.Config.Home)
	default:
		g, err = config.DecodeGlobal(d.Config.GlobalData, config.GlobalPath(d.Config.Home))
	}
	if err != nil {
		return nil, err
	}
	d.global = g
	return g, nil
}

// EnvAllowUnratified is the environment variable that, set to exactly "1",
// lets an unratified or tampered pack load while it is being authored.
const EnvAllowUnratified = sp.EnvAllowUnratified

// EnvSeedAllowUnratified is the override's name in the specification the
// safety pack comes from. agents does not read it; set, it earns a warning
// naming the variable that counts.
const EnvSeedAllowUnratified = "CORE_ALLOW_UNRATIFIED_SAFETY"

// SetButEmpty reports whether the variable name is set to "".
func (d *Deps) SetButEmpty(name string) bool {
	if d.LookupEnv == nil {
		return false
	}
	v, ok := d.LookupEnv(name)
	return ok && v == ""
}

// EnvStore names the store outside a hook (see Config.HookStore).
const EnvStore = "AGENTS_STORE"

// allowUnratified decides whether the development override is in effect,
// with a warning whenever the variable is set: it comes from the
// environment only, counts only when exactly "1", and never applies in
// hook mode, since a hook decides for an agent nobody is watching.
func (d *Deps) allowUnratified() (bool, []string) {
	var warnings []string
	if v := d.Getenv(EnvSeedAllowUnratified); v != "" {
		warnings = append(warnings, fmt.Sprintf("%s is not read by agents; the development override is %s=1", EnvSeedAllowUnratified, EnvAllowUnratified))
	}
	v := d.Getenv(EnvAllowUnratified)
	switch {
	case v == "":
		return false, warnings
	case d.HookMode:
		return false, append(warnings, fmt.Sprintf("%s is ignored by a hook: a hook decides only under a ratified pack", EnvAllowUnratified))
	case v == "1":
		return true, append(warnings, fmt.Sprintf("%s=1: safety pack seals are not enforced; use this only while authoring a pack", EnvAllowUnratified))
	}
	return false, append(warnings, fmt.Sprintf("%s=%q is ignored: only the value 1 turns the override on", EnvAllowUnratified, v))
}

// Run is what a run function works with: the registry, for its use case,
// and the UI, to read and print through. Every verb's options embed it.
type Run struct {
	Reg *registry.Registry
	UI  *UI
}

// Run returns what run functions work with.
func (d *Deps) Run() Run { return Run{Reg: d.Registry(), UI: d.UI()} }
