package file

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentsctl/agents/internal/errs"
)

// A lock that cannot be created for want of permission says the folder is
// not writable: there is no file to remove. One that is there and cannot
// be opened keeps the hint to remove it.
func TestLockOpenErrorHints(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, ".lock")
	denied := &fs.PathError{Op: "open", Path: missing, Err: fs.ErrPermission}
	if err := lockOpenError(missing, denied); !strings.Contains(hintOf(err), dir+" is not writable by this user") {
		t.Errorf("no lock file, permission denied: %v (hint %q)", err, hintOf(err))
	}
	if err := os.WriteFile(missing, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := lockOpenError(missing, denied); !strings.Contains(hintOf(err), "remove anything else by hand") {
		t.Errorf("a lock file there, permission denied: hint %q", hintOf(err))
	}
}

func hintOf(err error) string {
	var e *errs.Error
	if errors.As(err, &e) {
		return e.Hint
	}
	return ""
}

// TestIOErrorsKeepTheCause: a failed file operation is worded without the
// path the operating system repeats, and keeps what the file system said
// in its chain (full, read-only), so the command line can say what to do.
func TestIOErrorsKeepTheCause(t *testing.T) {
	tx := &txn{s: &Store{home: "/h"}}
	err := tx.ioErr("writing", "objects/.tmp-x", &fs.PathError{Op: "write", Path: "/h/objects/.tmp-x", Err: syscall.ENOSPC})
	if !errors.Is(err, syscall.ENOSPC) || err.Error() != "writing /h/objects/.tmp-x: no space left on device" {
		t.Errorf("ioErr = %q; the cause kept: %v", err, errors.Is(err, syscall.ENOSPC))
	}
}
