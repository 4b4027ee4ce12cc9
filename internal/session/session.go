// Package session keeps a todo-shell session on disk: the directory
// <offload-dir>/<session>/ with todos.json (the list as TodoRead returns it),
// todos.jsonl (every accepted version), session.json (who made it, when,
// how) and a lock that keeps a second process out. It plugs into the todo
// store from the side, as an Every subscriber of its Events, and never touches the tools.
package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// The files of a session directory.
const (
	TodosFile      = "todos.json"
	JournalFile    = "todos.jsonl"
	MetaFile       = "session.json"
	LockFile       = "lock"
	TranscriptFile = "transcript.jsonl"
	// OffloadsFile records the command that made each offloaded result
	// (NoteOffload), for /offloads of a later run.
	OffloadsFile = "offloads.jsonl"
)

// MaxNotedCommand is the most bytes of a command NoteOffload records: a
// listing shows its start.
const MaxNotedCommand = 1024

// Modes: the front end a session was run with.
const (
	ModeShell  = "shell"
	ModeScript = "script"
	ModeAgent  = "agent"
	ModeMCP    = "mcp"
)

// Meta is session.json.
type Meta struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	// Dir is the working directory the session started in.
	Dir  string `json:"dir"`
	Mode string `json:"mode"`
	// Version is the todo-shell version that created the session.
	Version string `json:"todo_shell_version"`
	// AgentTurns counts the model's responses in transcript.jsonl.
	AgentTurns int `json:"agent_turns"`
}

// ErrNotFound is returned by Open with MustExist for a session that is not
// there.
var ErrNotFound = errors.New("no such session")

// BusyError says another process holds the session.
type BusyError struct {
	ID  string
	PID int // 0 when it could not be read
}

func (e *BusyError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("session %s is in use by process %d", e.ID, e.PID)
	}
	return fmt.Sprintf("session %s is in use by another process", e.ID)
}

// Options say how to open a session.
type Options struct {
	Mode    string // one of the Mode constants
	Version string // todo-shell's version, for session.json
	// WorkDir is the working directory recorded in a new session.json; ""
	// means the current one.
	WorkDir string
	// MustExist makes a missing session an error (resume) instead of a new
	// one.
	MustExist bool
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Warn receives warnings (a damaged todos.jsonl line); nil drops them.
	Warn func(string)
}

// Session is one session directory, held by this process until Close.
type Session struct {
	id, path string
	lock     *os.File
	meta     Meta
	resumed  bool
	now      func() time.Time
	warn     func(string)

	saved   todo.Snapshot // the last version on disk when opened
	journal *journal
	// root is the session directory, held open: files are written
	// relative to it, so a directory swapped in at its path later cannot
	// take them.
	root *os.Root

	mu     sync.Mutex
	closed bool
}

// Open opens (creating when needed) the session id under dir and locks it.
// An existing session is continued: nothing in it is thrown away.
func Open(dir, id string, o Options) (*Session, error) {
	if err := offload.CheckID("session id", id); err != nil {
		return nil, err
	}
	now, warn := o.Now, o.Warn
	if now == nil {
		now = time.Now
	}
	if warn == nil {
		warn = func(string) {}
	}
	path := filepath.Join(dir, id)
	s := &Session{id: id, path: path, now: now, warn: warn}

	meta, resumed, err := readMeta(dir, id, o.MustExist)
	if err != nil {
		return nil, err
	}
	s.meta, s.resumed = meta, resumed
	// The offload package's checks: a real directory of this user's, 0700,
	// never a symbolic link standing in for one; held open from here.
	root, err := offload.OpenSessionDir(dir, id)
	if err != nil {
		return nil, err
	}
	s.root = root
	lock, err := acquire(path, id)
	if err != nil {
		_ = root.Close() // only a directory handle
		return nil, err
	}
	s.lock = lock
	if err := s.ready(o); err != nil {
		release(lock)
		_ = root.Close() // only a directory handle
		return nil, err
	}
	return s, nil
}

// readMeta reads session.json of the session id under dir; resumed is
// false when there is none (then, with mustExist, that is the error).
func readMeta(dir, id string, mustExist bool) (meta Meta, resumed bool, err error) {
	path := filepath.Join(dir, id)
	metaBytes, err := readgate.ReadFile(filepath.Join(path, MetaFile), readgate.SmallFile)
	switch {
	case err == nil:
		if err := json.Unmarshal(metaBytes, &meta); err != nil {
			return Meta{}, false, fmt.Errorf("session %s: %s is damaged: %w", id, MetaFile, err)
		}
		return meta, true, nil
	case errors.Is(err, fs.ErrNotExist):
		if mustExist {
			if _, derr := os.Stat(path); derr != nil {
				return Meta{}, false, fmt.Errorf("%w %q in %s", ErrNotFound, id, dir)
			}
			return Meta{}, false, fmt.Errorf("session %s: not a todo-shell session (no %s in %s)", id, MetaFile, path)
		}
		return Meta{}, false, nil
	default:
		return Meta{}, false, fmt.Errorf("session %s: %s cannot be read: %s", id, filepath.Join(path, MetaFile), readgate.Reason(err))
	}
}

// ready makes the opened, locked session usable: it writes session.json
// for a new one, opens the journal, loads the saved list and writes
// todos.json when it is missing. On error the caller releases the lock.
func (s *Session) ready(o Options) error {
	if !s.resumed {
		wd := o.WorkDir
		if wd == "" {
			wd, _ = os.Getwd()
		}
		s.meta = Meta{ID: s.id, Created: s.now().UTC(), Dir: wd, Mode: o.Mode, Version: o.Version}
		if err := s.writeMeta(); err != nil {
			return err
		}
	}
	j, err := openJournal(s.root, 0)
	if err != nil {
		return fmt.Errorf("session %s: %w", s.id, err)
	}
	saved, err := load(s.path, j.file, s.warn)
	if err != nil {
		_ = j.close()
		return fmt.Errorf("session %s: %w", s.id, err)
	}
	s.saved = saved
	s.journal = j
	if _, err := os.Stat(filepath.Join(s.path, TodosFile)); errors.Is(err, fs.ErrNotExist) {
		if err := writeAtomic(s.root, TodosFile, todo.AppendList(nil, saved.Items)); err != nil {
			_ = j.close() // nothing written yet; err is the failure to report
			return err
		}
	}
	return nil
}

// ID returns the session id.
func (s *Session) ID() string { return s.id }

// Path returns the session directory.
func (s *Session) Path() string { return s.path }

// Meta returns session.json as it is now.
func (s *Session) Meta() Meta {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.meta
}

// Resumed reports whether the session existed before Open.
func (s *Session) Resumed() bool { return s != nil && s.resumed }

// Saved returns the last version of the list found on disk when the session
// was opened (version 0 and no items for a new one).
func (s *Session) Saved() todo.Snapshot { return s.saved }

// Attach restores the saved list into store (when the store has not been
// written yet) and records every later write: todos.jsonl gets a line per
// version and todos.json is rewritten atomically. The files are written off
// the caller's path; Close waits for them.
func (s *Session) Attach(store *todo.Store) {
	if store.Version() == 0 && s.saved.Version > 0 {
		store.Restore(s.saved)
	}
	remove := store.Events().Every(s.journal.add)
	store.SetGuard(func() error {
		if err := s.Present(); err != nil {
			return fmt.Errorf("the plan cannot be saved: %w", err)
		}
		return nil
	})
	s.journal.onClose(func() { store.SetGuard(nil); remove() })
}

// Present returns nil while the session directory is still where it was
// opened, and otherwise an error naming it: removed (a person deleted the
// offload directory) or replaced, a new version could not be saved.
func (s *Session) Present() error {
	held, err := s.root.Stat(".")
	if err == nil {
		var now os.FileInfo
		if now, err = os.Stat(s.path); err == nil && !os.SameFile(held, now) {
			err = errors.New("replaced by another directory")
		}
	}
	if err != nil {
		return fmt.Errorf("session directory %s is gone (%s)", s.path, reason(err))
	}
	return nil
}

// reason is err without the path an *fs.PathError repeats.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Flush waits until every version recorded so far is on disk and returns
// the first write error, if any.
func (s *Session) Flush() error { return s.journal.flush() }

// CountTurn adds one to session.json's agent_turns.
func (s *Session) CountTurn() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.meta.AgentTurns++
	return s.writeMetaLocked()
}

// OffloadNote is one line of offloads.jsonl: the command (the line typed,
// at most MaxNotedCommand bytes) whose result went to the file named after
// ToolUseID.
type OffloadNote struct {
	ToolUseID string    `json:"tool_use_id"`
	Command   string    `json:"command"`
	Time      time.Time `json:"time"`
}

// NoteOffload records, in offloads.jsonl, that the result of command went
// to the offload file named after toolUseID: /offloads shows the command
// when the session is resumed. A closed session records nothing.
func (s *Session) NoteOffload(toolUseID, command string) error {
	if len(command) > MaxNotedCommand {
		command = strings.ToValidUTF8(command[:MaxNotedCommand], "")
	}
	line, err := json.Marshal(OffloadNote{ToolUseID: toolUseID, Command: command, Time: s.now().UTC()})
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	f, err := s.root.OpenFile(OffloadsFile, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", OffloadsFile, err)
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", OffloadsFile, err)
	}
	return nil
}

// Close writes what is pending, stops recording and releases the lock. It
// is safe to call more than once.
func (s *Session) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	err := s.journal.close()
	if err == nil && !s.resumed && s.empty() {
		// Nothing to come back to: no plan, no conversation, no offloaded
		// result. Removed while still locked, so no one starts using it.
		err = os.RemoveAll(s.path)
	}
	release(s.lock)
	_ = s.root.Close() // only a directory handle
	return err
}

// empty reports whether the session directory holds nothing a person
// could come back to: no plan version, no answer of the model in its
// transcript (so no tool call either), no offloaded result (only its own
// files, empty or at their starting state, and prompts never answered).
func (s *Session) empty() bool {
	names, err := readDirNames(s.path)
	if err != nil {
		return false
	}
	for _, name := range names {
		switch name {
		case LockFile, MetaFile, TodosFile, OffloadsFile:
			continue
		case JournalFile:
			if fi, err := os.Lstat(filepath.Join(s.path, name)); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
				continue
			}
		case TranscriptFile:
			// A prompt the model never answered (no key, a network
			// error, a 401 or 529) is no conversation: --continue passes
			// it over too. One answer, and every tool call after it,
			// makes it one worth resuming.
			if fi, err := os.Lstat(filepath.Join(s.path, name)); err == nil && fi.Mode().IsRegular() && !s.answered() {
				continue
			}
		}
		return false
	}
	return true
}

// answered reports whether the session's transcript holds a response of
// the model (see hasResponse).
func (s *Session) answered() bool {
	d, err := os.Open(s.path)
	if err != nil {
		return true // cannot tell: keep the session
	}
	defer func() { _ = d.Close() }() // only read
	return hasResponse(int(d.Fd()), s.path)
}

func readDirNames(path string) ([]string, error) {
	d, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = d.Close() }()
	return d.Readdirnames(-1)
}

func (s *Session) writeMeta() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writeMetaLocked()
}

func (s *Session) writeMetaLocked() error {
	b, err := json.MarshalIndent(s.meta, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(s.root, MetaFile, append(b, '\n'))
}

// writeAtomic replaces the file name in the directory dir with data: a
// reader, or a crash at any moment, sees the old file or the new one, never
// part of one. The temporary file is created (never opening an existing
// one) and renamed relative to dir.
func writeAtomic(dir *os.Root, name string, data []byte) error {
	var (
		f   *os.File
		tmp string
		err error
	)
	for range 16 {
		tmp = "." + name + ".tmp" + tools.RandomBase62(10)
		f, err = dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = dir.Rename(tmp, name)
	}
	if werr != nil {
		_ = dir.Remove(tmp) // best effort: a left temp file is skipped by isTemp
		return fmt.Errorf("write %s: %w", name, werr)
	}
	return nil
}

// isTemp reports whether name is a temporary file of writeAtomic or of the
// offload writer (both start with a dot).
func isTemp(name string) bool { return strings.HasPrefix(name, ".") }
