package task

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/todo-shell/todo-shell/tools"
)

// Record is one accepted change as the journal keeps it: its version, when
// and by which call it was made, the call's input, and its effect.
type Record struct {
	Version   uint64          `json:"version"`
	Time      time.Time       `json:"time"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Tool      string          `json:"tool"`
	By        string          `json:"by,omitempty"`
	Input     json.RawMessage `json:"input"`
	Change
}

// Event is one version of a plan as its store publishes it: the plan at
// that version (the subscriber's own copy, which it must not modify: it is
// shared with the other subscribers) and the record of the change.
type Event struct {
	State  State
	Record Record
}

// Store holds a task plan: in memory, or in a plan directory shared with
// other processes (OpenStore). Changes are atomic and numbered; readers get
// copies; every version is published to Events in order, those made by
// other processes included (after Refresh or while Follow runs). It is safe
// for concurrent use.
type Store struct {
	mu     sync.Mutex
	st     State
	events tools.Broker[Event]
	dir    *Dir   // nil: in memory
	lazy   string // a directory to attach at the first change (AttachLazy)
	now    func() time.Time
}

// NewStore returns an empty in-memory plan. now is the clock (nil means
// time.Now).
func NewStore(now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{st: NewState(), now: now}
}

// OpenStore returns a store over the plan directory path, created if
// missing, at its latest version. Close it when done.
func OpenStore(path string, now func() time.Time) (*Store, error) {
	s := NewStore(now)
	d, st, err := openDir(path)
	if err != nil {
		return nil, err
	}
	s.dir, s.st = d, st
	return s, nil
}

// Attach puts a store in memory that has no version yet onto the plan
// directory path (created if missing), at that plan's latest version,
// published with a Record of no tool. A store with versions, or one
// already on a directory, is an error.
func (s *Store) Attach(path string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir != nil || s.st.Version != 0 {
		return fmt.Errorf("task plan: attach %s: the plan is already in use", path)
	}
	d, st, err := openDir(path)
	if err != nil {
		return err
	}
	s.dir, s.st = d, st
	s.emitLocked(s.st, Record{Version: st.Version})
	return nil
}

// AttachLazy is Attach, put off until the first change if path holds no
// plan yet: a session that never uses the Task tools gets no files.
func (s *Store) AttachLazy(path string) error {
	if _, err := os.Stat(filepath.Join(path, JournalFile)); err == nil {
		return s.Attach(path)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir != nil || s.st.Version != 0 {
		return fmt.Errorf("task plan: attach %s: the plan is already in use", path)
	}
	s.lazy = path
	return nil
}

// Path returns the plan directory, or "" for a plan in memory.
func (s *Store) Path() string {
	if s.dir == nil {
		return ""
	}
	return s.dir.path
}

// Close writes the plan's snapshot if it is behind and closes the
// directory's files. A store in memory has nothing to close.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir == nil {
		return nil
	}
	err := s.dir.close(&s.st, s.emitLocked)
	s.dir = nil
	return err
}

// Snapshot returns a copy of the plan at its latest version (for a shared
// plan, after reading what other processes added).
func (s *Store) Snapshot() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refreshLocked()
	return s.st.Clone()
}

// Version returns the version of the plan as this store last saw it.
func (s *Store) Version() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.Version
}

// Refresh reads the versions other processes added to a shared plan and
// publishes them; for a plan in memory it does nothing.
func (s *Store) Refresh() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refreshLocked()
}

func (s *Store) refreshLocked() {
	if s.dir != nil {
		s.dir.catchUp(&s.st, false, s.emitLocked)
	}
}

// emitLocked publishes one version; the plan is copied only when someone
// subscribes.
func (s *Store) emitLocked(st State, rec Record) {
	if s.events.Active() {
		s.events.Publish(Event{State: st.Clone(), Record: rec})
	}
}

// Events is where the store publishes every version, in order, under its
// lock (see tools.Broker).
func (s *Store) Events() *tools.Broker[Event] { return &s.events }

// Do runs compute on the latest plan — for a shared plan under its lock,
// after reading what other processes added — and records the change it
// returns as the next version. rec describes the call; its version, time and
// change are filled in. An error from compute changes nothing; so does an
// empty change (Do then returns ErrNoChange).
func (s *Store) Do(rec Record, compute func(State) (Change, error)) (State, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lazy != "" && s.dir == nil {
		d, st, err := openDir(s.lazy)
		if err != nil {
			return s.st, err
		}
		s.dir, s.st, s.lazy = d, st, ""
	}
	if s.dir != nil {
		if err := s.dir.lock(); err != nil {
			return State{}, err
		}
		defer s.dir.unlock()
		s.dir.catchUp(&s.st, true, s.emitLocked)
	}
	c, err := compute(s.st)
	if err == nil && c.Empty() {
		err = ErrNoChange
	}
	if err != nil {
		return s.st, err
	}
	rec.Version, rec.Time, rec.Change = s.st.Version+1, s.now().UTC(), c
	if s.dir != nil {
		if err := s.dir.append(rec); err != nil {
			return s.st, err
		}
	}
	s.st.Apply(c)
	if s.dir != nil {
		s.dir.snapshot(&s.st, false)
	}
	s.emitLocked(s.st, rec)
	return s.st, nil
}

// Follow refreshes a shared plan whenever its journal grows, until ctx ends,
// so subscribers hear of other processes' changes as they happen. For a plan in
// memory it returns at once.
func (s *Store) Follow(ctx context.Context) error {
	if s.Path() == "" {
		return nil
	}
	return follow(ctx, s.Path(), s.Refresh)
}
