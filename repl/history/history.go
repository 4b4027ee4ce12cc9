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
	"strings"
	"syscall"
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

// History is one history file's entries; the zero of Path means memory only.
// It is not safe for concurrent use; several processes may share the file.
type History struct {
	Path    string
	entries []string // oldest first: the file's lines, then this session's
	max     int
	base    int64 // the file's size when read or last compacted
}

// Open reads the history at path. A missing file is an empty history; an
// unreadable or corrupt one gives an empty (or partial) history and a
// warning, never an error: a shell must start whatever its history file
// holds. An empty path gives a history kept in memory only (--no-history).
func Open(path string) (h *History, warning string) {
	h = &History{Path: path, max: MaxEntries}
	if path == "" {
		return h, ""
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return h, ""
	}
	if err != nil {
		return h, fmt.Sprintf("history: cannot read %s: %v (starting with an empty history)", path, err)
	}
	defer func() { _ = f.Close() }() // only read
	if info, err := f.Stat(); err == nil {
		h.base = info.Size()
	}
	entries, bad, err := read(f)
	if err != nil {
		return h, fmt.Sprintf("history: cannot read %s: %v (starting with an empty history)", path, err)
	}
	if bad > 0 && len(entries) == 0 {
		return h, fmt.Sprintf("history: %s is corrupt (starting with an empty history)", path)
	}
	if bad > 0 {
		warning = fmt.Sprintf("history: skipped %d corrupt lines in %s", bad, path)
	}
	if len(entries) > h.max {
		entries = entries[len(entries)-h.max:]
	}
	h.entries = entries
	return h, warning
}

// read parses one JSON string per line, counting lines that are not one.
func read(r io.Reader) (entries []string, bad int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: collect it, up to maxLine.
			long := append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) && len(long) <= maxLine {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			for errors.Is(err, bufio.ErrBufferFull) { // skip the rest
				_, err = br.ReadSlice('\n')
			}
			line = long
			if len(long) > maxLine {
				line = []byte("!") // corrupt
			}
		}
		if len(line) > 0 {
			if s, ok := decode(bytes.TrimRight(line, "\r\n")); ok {
				entries = append(entries, s)
			} else if len(bytes.TrimSpace(line)) > 0 {
				bad++
			}
		}
		if err == io.EOF {
			return entries, bad, nil
		}
		if err != nil {
			return entries, bad, err
		}
	}
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
	return appendLine(h.Path, text, h.max, &h.base)
}

// appendLine writes text as one JSON line at the end of the file at path.
// O_APPEND puts every write at the end; the flock makes a line's one write
// exclusive of other writers and of compaction. The file is reopened if a
// compaction replaced it while we waited for the lock.
func appendLine(path, text string, keep int, base *int64) error {
	b, err := json.Marshal(text)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	for range 3 {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
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

// compactAt is the file size beyond which the file is rewritten with its
// last entries.
var compactAt int64 = 8 << 20

// compact rewrites the file at path keeping its last keep entries, and
// returns the new size. It holds the lock on the old file while it writes
// the new one and renames it into place; writers waiting on the old file
// see it replaced and reopen.
func compact(path string, keep int) (int64, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
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
	entries, _, err := read(f)
	if err != nil {
		return 0, err
	}
	if len(entries) > keep {
		entries = entries[len(entries)-keep:]
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
