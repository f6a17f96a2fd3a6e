package cmdutil

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/safefile"
	"github.com/agentsctl/agents/internal/store"
	"github.com/agentsctl/agents/internal/store/file"
	"github.com/agentsctl/agents/internal/store/postgres"
	"github.com/agentsctl/agents/internal/storeurl"
)

// OpenStore opens the store a store URL names (postgres:// or
// postgresql://), or the file store in home when url is "".
func OpenStore(url, home string, lockTimeout time.Duration) (store.Store, error) {
	return openStoreAs(url, home, lockTimeout, false)
}

// OpenHookStore is OpenStore for a hook: a PostgreSQL store is reached by
// what its URL says alone (see postgres.Options.URLOnly).
func OpenHookStore(url, home string, lockTimeout time.Duration) (store.Store, error) {
	return openStoreAs(url, home, lockTimeout, true)
}

func openStoreAs(url, home string, lockTimeout time.Duration, urlOnly bool) (store.Store, error) {
	if url == "" {
		return file.Open(home, file.Options{LockTimeout: lockTimeout})
	}
	if !storeurl.IsPostgres(url) {
		return nil, UnsupportedStore(url)
	}
	return postgres.Open(url, postgres.Options{LockTimeout: lockTimeout, URLOnly: urlOnly})
}

// OpenStoreAt opens the store a command-line argument names: a URL as for
// --store, or else the folder of an agents home. A home that must exist
// and does not is not found.
func OpenStoreAt(arg string, mustExist bool, lockTimeout time.Duration) (store.Store, error) {
	if storeurl.LooksLikeURL(arg) {
		return OpenStore(arg, "", lockTimeout)
	}
	if storeurl.LooksLikeMistypedURL(arg) {
		return nil, errs.Usage("%s is neither a store URL nor an agents home folder", storeurl.Redact(arg)).
			WithHint("write a PostgreSQL store as postgres://user@host/dbname (or postgresql://), or give a home folder (a path with no ':' before an '@', and no key=value pairs)")
	}
	if arg == "" {
		return nil, errs.Usage("no store given").WithHint("give an agents home folder or a postgres:// URL")
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return nil, errs.Wrap(errs.KindUsage, err, "bad folder %q", arg)
	}
	if mustExist {
		if _, err := os.Stat(abs); err != nil {
			if errors.Is(err, syscall.ELOOP) {
				return nil, errs.LoopedHome(abs, err)
			}
			msg := "agents home " + abs + " not found"
			if link, target := safefile.DanglingLink(abs); link == abs {
				msg += ": it is a link to " + target + ", which does not exist"
			} else if link != "" {
				msg += ": " + link + ", on the way to it, is a link to " + target + ", which does not exist"
			}
			return nil, errs.NotFound("%s", msg).
				WithHint("give the folder of an agents home (such as ~/.config/agents) or a postgres:// URL")
		}
	}
	return file.Open(abs, file.Options{LockTimeout: lockTimeout})
}

// UnsupportedStore is the error for a store URL of a scheme agents does
// not know. The value given ends the message: a masked password in
// unquoted text runs to the next space, so nothing may follow it there.
func UnsupportedStore(url string) error {
	return errs.Usage("unsupported store: a store is a postgres:// or postgresql:// URL, or none for the file store in the home; this is %s", storeurl.Redact(url)).
		WithHint("see docs/postgres.md")
}

// Stores is what the store commands work with, beside the registry's own
// store: other stores, named on the command line, and the configuration
// that chose the registry's.
type Stores struct{ d *Deps }

// Stores returns what the store commands work with.
func (d *Deps) Stores() Stores { return Stores{d} }

// OpenAt opens the store a command-line argument names (see OpenStoreAt),
// waiting for its lock as --lock-timeout says.
func (s Stores) OpenAt(arg string, mustExist bool) (store.Store, error) {
	return OpenStoreAt(arg, mustExist, s.d.Config.LockTimeout)
}

// URL is the configured store URL; "" for the file store in the home.
func (s Stores) URL() string { return s.d.Config.Store }

// Home is the agents home.
func (s Stores) Home() string { return s.d.Config.Home }

// Ctx is the command's context.
func (s Stores) Ctx() context.Context { return s.d.Ctx() }

// Now is the clock.
func (s Stores) Now() time.Time { return s.d.Now() }
