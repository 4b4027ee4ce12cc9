package todo

import (
	"sync"
	"time"

	"github.com/todo-shell/todo-shell/tools/internal/hooks"
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
// atomically; readers get copies; subscribers hear of every write without
// ever slowing a writer down. It is safe for concurrent use.
type Store struct {
	mu      sync.Mutex
	items   []Item
	updated time.Time
	version uint64
	subs    map[*Subscription]struct{}
	hooks   hooks.List[func(Snapshot)] // OnWrite's
	guard   func() error               // SetGuard's: may a write be kept?
	now     func() time.Time
}

// NewStore returns an empty store. now is the clock (nil means time.Now).
func NewStore(now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{now: now, subs: make(map[*Subscription]struct{}), updated: now()}
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

// Replace makes items the whole list and tells every subscriber. The store
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
	event := Snapshot{Items: s.items, UpdatedAt: s.updated, Version: s.version, ToolUseID: toolUseID}
	for fn := range s.hooks.All() {
		fn(event)
	}
	for sub := range s.subs {
		sub.offer(event)
	}
	return s.version
}

// Restore makes snap the current list, its version and time included, as
// when a saved session is resumed. Subscribers hear of it; OnWrite hooks do
// not (it is not a new version). The store keeps snap.Items.
func (s *Store) Restore(snap Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items, s.updated, s.version = snap.Items, snap.UpdatedAt, snap.Version
	event := Snapshot{Items: s.items, UpdatedAt: s.updated, Version: s.version, ToolUseID: snap.ToolUseID}
	for sub := range s.subs {
		sub.offer(event)
	}
}

// OnWrite registers fn to be called after every write, with the store
// locked: in version order, with no version skipped (unlike a
// Subscription). fn must be quick, must not modify the snapshot's Items and
// must not call the store. The returned function unregisters it.
func (s *Store) OnWrite(fn func(Snapshot)) (remove func()) {
	return s.hooks.Add(&s.mu, fn)
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

// Subscription receives the store's snapshot after each write; its Items
// are shared with the store and other subscribers and must not be modified
// (take Store.Snapshot for a private copy). Its channel
// holds at most one snapshot: a subscriber that falls behind skips
// intermediate versions but always receives the latest.
type Subscription struct {
	store *Store
	ch    chan Snapshot
	once  sync.Once
}

// Subscribe starts a subscription. Call Close when done.
func (s *Store) Subscribe() *Subscription {
	sub := &Subscription{store: s, ch: make(chan Snapshot, 1)}
	s.mu.Lock()
	s.subs[sub] = struct{}{}
	s.mu.Unlock()
	return sub
}

// C returns the channel snapshots arrive on. It is closed by Close.
func (sub *Subscription) C() <-chan Snapshot { return sub.ch }

// Close ends the subscription and closes its channel. It is safe to call more
// than once.
func (sub *Subscription) Close() {
	sub.once.Do(func() {
		sub.store.mu.Lock()
		delete(sub.store.subs, sub)
		close(sub.ch)
		sub.store.mu.Unlock()
	})
}

// offer puts snap in the channel, replacing an unread older snapshot. It is
// called with the store locked, so writers are serialised and the channel is
// never full when the second send runs.
func (sub *Subscription) offer(snap Snapshot) {
	select {
	case sub.ch <- snap:
		return
	default:
	}
	select {
	case <-sub.ch:
	default:
	}
	sub.ch <- snap
}
