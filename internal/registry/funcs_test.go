package registry

import (
	"context"
	"io/fs"
	"os"
	"time"

	"github.com/agentsctl/agents/internal/config"
	"github.com/agentsctl/agents/internal/store"
)

// Funcs are Sources from functions and values; a nil function gives the
// default its method names.
type Funcs struct {
	StoreFunc  func() (store.Store, error) // no store: an empty in-memory one
	FS         fs.FS                       // no built-ins: none
	HomeFunc   func() string               // none: ""
	GlobalFunc func() (*config.Global, error)
	// UnratifiedFunc: none lets no unratified pack load.
	UnratifiedFunc func() (bool, []string)
	System         string
	LockHomeFunc   func(ctx context.Context) (func(), error) // none: no lock
	NowFunc        func() time.Time                          // none: time.Now
	ContextFunc    func() context.Context                    // none: context.Background
	GetwdFunc      func() (string, error)                    // none: os.Getwd
}

// Store implements Sources.
func (f Funcs) Store() (store.Store, error) {
	if f.StoreFunc == nil {
		return store.NewMemory(), nil
	}
	return f.StoreFunc()
}

// Builtins implements Sources.
func (f Funcs) Builtins() fs.FS { return f.FS }

// Home implements Sources.
func (f Funcs) Home() string {
	if f.HomeFunc == nil {
		return ""
	}
	return f.HomeFunc()
}

// Global implements Sources: config.yaml in the home, read at every call.
func (f Funcs) Global() (*config.Global, error) {
	if f.GlobalFunc == nil {
		return config.LoadGlobal(f.Home())
	}
	return f.GlobalFunc()
}

// Unratified implements Sources.
func (f Funcs) Unratified() (bool, []string) {
	if f.UnratifiedFunc == nil {
		return false, nil
	}
	return f.UnratifiedFunc()
}

// SystemDir implements Sources.
func (f Funcs) SystemDir() string { return f.System }

// LockHome implements Sources.
func (f Funcs) LockHome(ctx context.Context) (func(), error) {
	if f.LockHomeFunc == nil {
		return func() {}, nil
	}
	return f.LockHomeFunc(ctx)
}

// Now implements Sources.
func (f Funcs) Now() time.Time {
	if f.NowFunc == nil {
		return time.Now()
	}
	return f.NowFunc()
}

// Context implements Sources.
func (f Funcs) Context() context.Context {
	if f.ContextFunc == nil {
		return context.Background()
	}
	return f.ContextFunc()
}

// Getwd implements Sources.
func (f Funcs) Getwd() (string, error) {
	if f.GetwdFunc == nil {
		return os.Getwd()
	}
	return f.GetwdFunc()
}
