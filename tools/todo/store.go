package todo

import (
	"sync"
	"time"

	"github.com/todo-shell/todo-shell/tools"
)

// Snapshot is a reader's copy of the list at one version.
type Snapshot struct {
	Items     []Item
	UpdatedAt time.Time
	Version   uint64 // 0 before the first write, then one more per write
	// ToolUseID is the tool_use_id of the call that wrote this version, when
	// the write came from a tool call.
	ToolUseID string
}

// Counts returns how many items are completed, in progress and pending.
func (s Snapshot) Counts() (completed, inProgress, pending int) {
	for _, it := range s.Items {
		switch it.Status {
		case StatusCompleted:
			completed++
		case StatusInProgress:
			inProgress++
		default:
			pending++
		}
	}
	return
}

// Store holds the todo list in memory. Writes replace the list whole and
// atomically; readers get copies; each version is published to the store's
// Events. It is safe for concurrent use.
type Store struct {
	mu      sync.Mutex
	items   []Item
	updated time.Time
	version uint64
	events  tools.Broker[Snapshot]
	guard   func() error // SetGuard's: may a write be kept?
	now     func() time.Time
}

// NewStore returns an empty store. now is the clock (nil means time.Now).
func NewStore(now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{now: now, updated: now()}
}

// Snapshot returns a copy of the current list.
func (s *Store) Snapshot() Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snapshotLocked()
}

func (s *Store) snapshotLocked() Snapshot {
	return Snapshot{Items: append([]Item(nil), s.items...), UpdatedAt: s.updated, Version: s.version}
}

// Version returns the number of writes so far.
func (s *Store) Version() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Events is where the store publishes each version, in order, under its
// lock (see tools.Broker): a write's, and a Restore's. A snapshot's Items
// are shared with the store and every subscriber and must not be modified
// (take Snapshot for a private copy); an Every subscriber may keep them.
func (s *Store) Events() *tools.Broker[Snapshot] { return &s.events }

// Replace makes items the whole list and publishes it. The store
// keeps items itself: the caller must not modify the slice afterwards.
// It returns the new version.
func (s *Store) Replace(items []Item) uint64 { return s.ReplaceFor("", items) }

// ReplaceFor is Replace for the tool call toolUseID, which the new version
// records.
func (s *Store) ReplaceFor(toolUseID string, items []Item) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = items
	s.updated = s.now()
	s.version++
	// Events share the stored slice: the store never modifies a slice it
	// holds, and subscribers must not either.
	s.events.Publish(Snapshot{Items: s.items, UpdatedAt: s.updated, Version: s.version, ToolUseID: toolUseID})
	return s.version
}

// Restore makes snap the current list, its version and time included, as
// when a saved session is resumed, and publishes it: a view draws it like
// a write. (A journal subscribes after restoring, so that it does not keep
// a version it read back.) The store keeps snap.Items.
func (s *Store) Restore(snap Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items, s.updated, s.version = snap.Items, snap.UpdatedAt, snap.Version
	s.events.Publish(Snapshot{Items: s.items, UpdatedAt: s.updated, Version: s.version, ToolUseID: snap.ToolUseID})
}

// SetGuard makes fn the check TodoWrite runs before it writes: when fn
// returns an error (the session directory the list is saved in is gone,
// say) the write is refused with that error. nil removes the check.
func (s *Store) SetGuard(fn func() error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guard = fn
}

// check runs the guard, if any.
func (s *Store) check() error {
	s.mu.Lock()
	g := s.guard
	s.mu.Unlock()
	if g == nil {
		return nil
	}
	return g()
}
