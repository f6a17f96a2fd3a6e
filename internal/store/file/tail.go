package file

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/agentsctl/agents/internal/store"
)

// maxEntryLen bounds the length of one history line, its newline
// included: the JSON of an entry with a digest, a time to the nanosecond in
// the year 9999 and the longer event. A writer keeps room for its lines by
// it (see logRoom). It is a constant, not measured with encoding/json at
// start-up, because every process would pay for that and only a writer
// needs it; TestMaxEntryLen holds it to what encoding/json writes.
const maxEntryLen = len(`{"digest":"`) + 64 + len(`","time":"9999-12-31T23:59:59.999999999Z","event":"remove"}`) + len("\n")

const (
	// tailChunk is how much of a log's end is read at a time.
	tailChunk = 4 << 10
	// maxLastLine bounds how far back from its end a reader looks for a
	// log's last line: far more than any entry takes.
	maxLastLine = 64 << 10
)

// logTail is the end of a history log.
type logTail struct {
	last     store.HistoryEntry // its last entry, when found
	found    bool
	complete int64 // the length of the log up to its last newline
}

// badLastLine is a log whose last line is not a history entry.
type badLastLine struct{ err error }

func (b badLastLine) Error() string { return "its last line is not a history entry: " + b.err.Error() }

// readTail reads a history log of size bytes from its end, and no further
// back than it must, so the length of a log never slows down a reader
// that needs only its last event. Text after the last newline is a torn
// append and is not a line. With skip, lines that are not entries are
// passed over, as parseLog passes over them, looking back as far as
// maxLogSize; without, the last line must be an entry, found within
// maxLastLine of the end, and one that is not is a badLastLine.
func readTail(f io.ReaderAt, size int64, skip bool) (logTail, error) {
	t := logTail{complete: -1}
	back := int64(maxLastLine)
	if skip {
		back = maxLogSize
	}
	var buf []byte // the log from pos, without the lines already taken
	pos := size
	for {
		if t.complete < 0 {
			if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
				t.complete = pos + int64(i) + 1
				buf = buf[:i+1]
			} else if pos == 0 {
				t.complete = 0
				return t, nil
			}
		}
		for t.complete >= 0 && len(buf) > 0 {
			j := bytes.LastIndexByte(buf[:len(buf)-1], '\n')
			if j < 0 && pos > 0 {
				break // the line starts before what has been read
			}
			raw := bytes.TrimSpace(buf[j+1:])
			buf = buf[:j+1]
			if len(raw) == 0 {
				continue
			}
			e, err := parseEntry(raw)
			if err == nil {
				t.last, t.found = e, true
				return t, nil
			}
			if !skip {
				return t, badLastLine{err}
			}
		}
		switch {
		case pos == 0:
			return t, nil
		case size-pos >= back && skip:
			return t, nil
		case size-pos >= back:
			return t, badLastLine{fmt.Errorf("no line ends in the last %d bytes", back)}
		}
		n := min(int64(tailChunk), pos)
		chunk := make([]byte, n, n+int64(len(buf)))
		if got, err := f.ReadAt(chunk, pos-n); err != nil && !(errors.Is(err, io.EOF) && int64(got) == n) {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF // the log shrank while it was read
			}
			return t, err
		}
		buf = append(chunk, buf...)
		pos -= n
	}
}
