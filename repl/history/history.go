// Package history keeps the shell's command history in a file that lasts
// between sessions and that several shells can share: one JSON string per
// line (so multi-line entries survive), appended with O_APPEND under an
// exclusive flock, so concurrent shells never lose or tear each other's
// lines.
//
// A History shows this process's own lines as the most recent (reached first
// when walking back with Up), then the lines that were in the file when it
// was opened, which came from earlier or other sessions.
package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/todo-shell/todo-shell/internal/readgate"
)

// MaxEntries is the most entries kept in memory and, after compaction, in
// the file.
const MaxEntries = 10000

// maxLine is the longest line read back; a longer one counts as corrupt.
const maxLine = 1 << 20

// File names under the state directory.
const (
	ShellFile = "history"       // lines typed at the shell
	AgentFile = "agent-history" // prompts typed in agent mode
)

// DefaultDir is $XDG_STATE_HOME/todo-shell, or ~/.local/state/todo-shell.
func DefaultDir(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "todo-shell")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "state", "todo-shell")
}

// compactAt is the file size beyond which the file is rewritten with its
// last entries.
const compactAt = 8 << 20

// History is one history file's entries; the zero of Path means memory only.
// It is not safe for concurrent use; several processes may share the file.
type History struct {
	Path      string
	entries   []string // oldest first: the file's lines, then this session's
	max       int
	base      int64 // the file's size when read or last compacted
	compactAt int64 // the size past which the file is compacted
}

// Open reads the history at path. A missing file is an empty history; an
// unreadable or corrupt one gives an empty (or partial) history and a
// warning, never an error: a shell must start whatever its history file
// holds. A path that is not a regular file (a symbolic link, a FIFO, a
// device) is neither read nor written: the history is kept in memory, with
// one warning. Only the end of the file is read, its last MaxEntries
// entries, so a huge file costs no more than a full one. An empty path
// gives a history kept in memory only (--no-history).
func Open(path string) (h *History, warning string) {
	h = &History{Path: path, max: MaxEntries, compactAt: compactAt}
	if path == "" {
		return h, ""
	}
	f, info, err := readgate.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return h, ""
	}
	if errors.Is(err, readgate.ErrNotRegular) {
		h.Path = ""
		what := strings.Trim(strings.TrimPrefix(readgate.Reason(err), readgate.ErrNotRegular.Error()), " ()")
		return h, fmt.Sprintf("history: %s is %s: not read or written (this session's history stays in memory)", path, what)
	}
	if err != nil {
		return h, fmt.Sprintf("history: cannot read %s: %v (starting with an empty history)", path, err)
	}
	defer func() { _ = f.Close() }() // only read
	h.base = info.Size()
	entries, bad, err := readLast(f, info.Size(), h.max)
	if err != nil {
		return h, fmt.Sprintf("history: cannot read %s: %v (starting with an empty history)", path, err)
	}
	if bad > 0 && len(entries) == 0 {
		return h, fmt.Sprintf("history: %s is corrupt (starting with an empty history)", path)
	}
	if bad > 0 {
		warning = fmt.Sprintf("history: skipped %d corrupt lines in %s", bad, path)
	}
	h.entries = entries
	return h, warning
}

// readLast returns the last keep entries of the history file r (size bytes
// long), oldest first, reading it from its end, and counts the lines on the
// way that are not one. It stops after 4*keep lines: a file of garbage
// costs no more than a full one.
func readLast(r io.ReaderAt, size int64, keep int) (entries []string, bad int, err error) {
	visited := 0
	err = readgate.LastLines(r, size, maxLine, func(_ int64, line []byte, long bool) (bool, error) {
		visited++
		line = bytes.TrimRight(line, "\r")
		switch {
		case long:
			bad++
		case len(bytes.TrimSpace(line)) == 0:
		default:
			if s, ok := decode(line); ok {
				entries = append(entries, s)
			} else {
				bad++
			}
		}
		return len(entries) >= keep || visited >= 4*keep, nil
	})
	slices.Reverse(entries)
	return entries, bad, err
}

// decode reads one line's JSON string, fast when it has no escapes.
func decode(b []byte) (string, bool) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return "", false
	}
	inner := b[1 : len(b)-1]
	if bytes.IndexByte(inner, '\\') < 0 && bytes.IndexByte(inner, '"') < 0 && isPlain(inner) {
		return string(inner), true
	}
	var s string
	if json.Unmarshal(b, &s) != nil {
		return "", false
	}
	return s, true
}

// isPlain reports whether b has no control bytes (which JSON forbids raw).
func isPlain(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return false
		}
	}
	return true
}

// Entries returns the entries, oldest first; the last is the most recent
// line of this session. The slice must not be changed.
func (h *History) Entries() []string { return h.entries }

// Len is the number of entries.
func (h *History) Len() int { return len(h.entries) }

// Saved reports whether text would be recorded: not blank, not starting
// with a space (bash's ignorespace).
func Saved(text string) bool {
	return strings.TrimSpace(text) != "" && !strings.HasPrefix(text, " ")
}

// Add records text, verbatim (newlines included), unless it is blank, starts
// with a space, or repeats the most recent entry. It appends it to the file
// under an exclusive lock; a failure to write is returned, and the entry
// stays in memory.
func (h *History) Add(text string) error {
	if !Saved(text) {
		return nil
	}
	if n := len(h.entries); n > 0 && h.entries[n-1] == text {
		return nil
	}
	h.entries = append(h.entries, text)
	if len(h.entries) > h.max {
		h.entries = h.entries[len(h.entries)-h.max:]
	}
	if h.Path == "" {
		return nil
	}
	return appendLine(h.Path, text, h.max, h.compactAt, &h.base)
}

// appendLine writes text as one JSON line at the end of the file at path.
// O_APPEND puts every write at the end; the flock makes a line's one write
// exclusive of other writers and of compaction. The file is reopened if a
// compaction replaced it while we waited for the lock.
func appendLine(path, text string, keep int, compactAt int64, base *int64) error {
	b, err := json.Marshal(text)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	for range 3 {
		f, _, err := readgate.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return fmt.Errorf("history: %w", err)
		}
		if err := lock(f); err != nil {
			_ = f.Close() // nothing written
			return fmt.Errorf("history: lock: %w", err)
		}
		if !samePath(f, path) { // replaced by a compaction: write to the new file
			_ = f.Close() // nothing written
			continue
		}
		info, _ := f.Stat()
		_, werr := f.Write(b)
		cerr := f.Close() // releases the lock
		if werr != nil {
			return fmt.Errorf("history: %w", werr)
		}
		if cerr != nil {
			return fmt.Errorf("history: %w", cerr)
		}
		// Compact when the file has grown past the threshold and to twice
		// what it held after the last compaction (or at start), so a file of
		// many long entries is not rewritten on every line.
		if info != nil && info.Size() > max(compactAt, 2*(*base)) {
			if size, err := compact(path, keep); err == nil {
				*base = size
			}
		}
		return nil
	}
	return errors.New("history: file keeps being replaced")
}

// compact rewrites the file at path keeping its last keep entries, and
// returns the new size. It holds the lock on the old file while it writes
// the new one and renames it into place; writers waiting on the old file
// see it replaced and reopen.
func compact(path string, keep int) (int64, error) {
	f, info, err := readgate.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return 0, err
	}
	defer func() { _ = f.Close() }() // only read and locked; the new file is checked below
	if err := lock(f); err != nil {
		return 0, err
	}
	if !samePath(f, path) {
		info, err := os.Stat(path) // someone else compacted it
		if err != nil {
			return 0, err
		}
		return info.Size(), nil
	}
	if fi, err := f.Stat(); err == nil {
		info = fi // grown while we waited for the lock
	}
	entries, _, err := readLast(f, info.Size(), keep)
	if err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".history-*")
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriter(tmp)
	var size int64
	for _, e := range entries {
		b, _ := json.Marshal(e)
		_, _ = w.Write(b) // a bufio.Writer keeps its first error: Flush reports it
		_ = w.WriteByte('\n')
		size += int64(len(b)) + 1
	}
	if err := w.Flush(); err != nil {
		_ = tmp.Close() // the flush error is the one to report
		_ = os.Remove(tmp.Name())
		return 0, err
	}
	if err := tmp.Chmod(0o600); err != nil {
		_ = tmp.Close()
		_ = os.Remove(tmp.Name())
		return 0, err
	}
	if err := tmp.Close(); err != nil {
		_ = os.Remove(tmp.Name())
		return 0, err
	}
	return size, os.Rename(tmp.Name(), path)
}

// lock takes an exclusive flock on f, waiting for it.
func lock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// samePath reports whether f is still the file at path.
func samePath(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	if err != nil {
		return false
	}
	return os.SameFile(a, b)
}
