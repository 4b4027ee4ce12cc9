// Package hooks keeps the functions a store calls after each change, in the
// order they were registered, each removable by the function Add returns.
package hooks

import (
	"iter"
	"sync"
)

// List is a store's registered hooks of function type F. The store guards
// it with its own lock: Add takes that lock, and All is called with it
// held. The zero List is empty.
type List[F any] struct {
	entries []*entry[F]
}

// entry boxes one registered function so that it can be found again to be
// removed (functions cannot be compared).
type entry[F any] struct{ fn F }

// Add registers fn under mu and returns the function that unregisters it
// (under mu as well; calling it twice is harmless).
func (l *List[F]) Add(mu sync.Locker, fn F) (remove func()) {
	e := &entry[F]{fn: fn}
	mu.Lock()
	l.entries = append(l.entries, e)
	mu.Unlock()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		for i, x := range l.entries {
			if x == e {
				l.entries = append(l.entries[:i:i], l.entries[i+1:]...)
				return
			}
		}
	}
}

// All yields the registered functions in the order they were added. Call it
// with the store's lock held.
func (l *List[F]) All() iter.Seq[F] {
	return func(yield func(F) bool) {
		for _, e := range l.entries {
			if !yield(e.fn) {
				return
			}
		}
	}
}
