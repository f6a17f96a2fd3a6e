package file

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentsctl/agents/internal/errs"
	"github.com/agentsctl/agents/internal/store"
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

// readTail, reading a log from its end, finds what parseLog finds reading
// it whole: the last entry (passing over lines that are not entries, with
// skip) and where the last complete line ends, wherever the log is cut,
// over lines that straddle the chunks it reads.
func TestReadTailAgreesWithParseLog(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		e := store.HistoryEntry{Digest: fmt.Sprintf("%064x", i), Time: time.Unix(int64(i), int64(i)).UTC(), Event: store.EventPut}
		line, _ := json.Marshal(e)
		b.Write(line)
		b.WriteString("\n")
		switch i % 7 {
		case 3:
			b.WriteString("\n  \n")
		case 5:
			b.WriteString("not json\n")
		}
	}
	data := []byte(b.String())
	for n := 0; n <= len(data); n += 1 + n%97 {
		cut := data[:n]
		entries, complete, problems := parseLog(cut, "log")
		tail, err := readTail(bytes.NewReader(cut), int64(n), true)
		if err != nil || tail.complete != int64(complete) || tail.found != (len(entries) > 0) ||
			(tail.found && tail.last != entries[len(entries)-1]) {
			t.Fatalf("cut at %d: tail %+v, %v; parseLog %d entries, complete %d", n, tail, err, len(entries), complete)
		}
		// Without skip, the last line must be an entry.
		strict, err := readTail(bytes.NewReader(cut), int64(n), false)
		lastBad := len(problems) > 0 && lastLineOf(cut[:complete]) == "not json"
		var bad badLastLine
		switch {
		case lastBad && !errors.As(err, &bad):
			t.Fatalf("cut at %d: a damaged last line gave %+v, %v", n, strict, err)
		case !lastBad && (err != nil || strict != tail):
			t.Fatalf("cut at %d: strict %+v, %v; with skip %+v", n, strict, err, tail)
		}
	}
}

// lastLineOf returns the last line of data that is not blank.
func lastLineOf(data []byte) string {
	lines := strings.Fields(strings.ReplaceAll(string(data), "not json", "not_json"))
	if len(lines) == 0 {
		return ""
	}
	return strings.ReplaceAll(lines[len(lines)-1], "not_json", "not json")
}

// maxEntryLen is what encoding/json writes for the longest entry a log
// can hold, its newline included: a shorter bound would let a writer take
// a log past what readers accept.
func TestMaxEntryLen(t *testing.T) {
	longest := 0
	for _, event := range []string{store.EventPut, store.EventRemove} {
		line, err := json.Marshal(store.HistoryEntry{
			Digest: strings.Repeat("f", 64),
			Time:   time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
			Event:  event,
		})
		if err != nil {
			t.Fatal(err)
		}
		longest = max(longest, len(line)+1)
	}
	if longest != maxEntryLen {
		t.Errorf("the longest history line takes %d bytes, maxEntryLen says %d", longest, maxEntryLen)
	}
}

// A reader looks no further back than maxLastLine for the last line; a
// writer, passing over damage, looks as far as maxLogSize.
func TestReadTailBounds(t *testing.T) {
	line, _ := json.Marshal(store.HistoryEntry{Digest: strings.Repeat("a", 64), Time: time.Unix(1, 0).UTC(), Event: store.EventPut})
	data := append(append(line, '\n'), bytes.Repeat([]byte("x"), maxLastLine)...)
	data = append(data, '\n')
	var bad badLastLine
	if _, err := readTail(bytes.NewReader(data), int64(len(data)), false); !errors.As(err, &bad) {
		t.Errorf("a last line longer than a reader looks back: %v", err)
	}
	if tail, err := readTail(bytes.NewReader(data), int64(len(data)), true); err != nil || !tail.found {
		t.Errorf("a writer passing over a long damaged line: %+v, %v", tail, err)
	}
	if len(line)+1 > maxEntryLen {
		t.Errorf("a line of %d bytes is longer than maxEntryLen %d", len(line)+1, maxEntryLen)
	}
}
