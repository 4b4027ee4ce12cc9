package tools

import "sync"

// Broker is the engine's one event mechanism: a store publishes each change
// to it, and its subscribers (the session journal, the panel, the terminal
// title, a test) hear of it. Publish never waits for a subscriber to read.
// The zero Broker has no subscribers; it is safe for concurrent use.
//
// A subscriber chooses how it hears, by what it must not miss:
//
//   - Every (a function) is called with every value, in the order
//     published, inside Publish: it never misses a state. It is for those
//     that keep a record or derive a state from each change — a journal of
//     every version, a log, the engine's plan feed. It must be quick, must
//     not call the publisher or subscribe to the broker, and must not keep
//     the value past the call unless the publisher says it may.
//   - Latest (a channel of one value) holds the newest value not yet
//     received: a reader that falls behind skips intermediate states but
//     always receives the last one. It is for views that draw the current
//     state — the panel, the terminal title.
//
// A published value is shared by every subscriber: no one may modify it,
// the publisher included.
type Broker[T any] struct {
	mu     sync.Mutex
	every  []*every[T]
	latest map[*Latest[T]]struct{}
	last   T
	has    bool // last holds a value
}

// every boxes one Every function so that it can be found again to be
// removed (functions cannot be compared).
type every[T any] struct{ fn func(T) }

// Publish sends v to every subscriber and keeps it as the last value. A
// publisher calls it in the order its changes happen (under its own lock),
// so Every subscribers hear them in that order.
func (b *Broker[T]) Publish(v T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.last, b.has = v, true
	for _, e := range b.every {
		e.fn(v)
	}
	for l := range b.latest {
		l.offer(v)
	}
}

// Last returns the last value published, and false when there was none.
func (b *Broker[T]) Last() (T, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.last, b.has
}

// Active reports whether anyone subscribes: a publisher may skip the work
// of making a value no one hears.
func (b *Broker[T]) Active() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.every)+len(b.latest) > 0
}

// Every calls fn with every value published from now on (see Broker). The
// returned function unsubscribes it; calling it twice is harmless.
func (b *Broker[T]) Every(fn func(T)) (cancel func()) {
	e := &every[T]{fn: fn}
	b.mu.Lock()
	b.every = append(b.every, e)
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		for i, x := range b.every {
			if x == e {
				b.every = append(b.every[:i:i], b.every[i+1:]...)
				return
			}
		}
	}
}

// Latest subscribes a reader of the newest value (see Broker). Its channel
// starts with the last value published, if any, so a view that subscribes
// late still draws the current state. Call Close when done.
func (b *Broker[T]) Latest() *Latest[T] {
	l := &Latest[T]{b: b, ch: make(chan T, 1)}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.latest == nil {
		b.latest = make(map[*Latest[T]]struct{})
	}
	b.latest[l] = struct{}{}
	if b.has {
		l.ch <- b.last
	}
	return l
}

// Latest is a subscription that holds the newest value not yet received.
type Latest[T any] struct {
	b    *Broker[T]
	ch   chan T
	once sync.Once
}

// C returns the channel values arrive on; Close closes it.
func (l *Latest[T]) C() <-chan T { return l.ch }

// Close ends the subscription and closes its channel. It is safe to call
// more than once.
func (l *Latest[T]) Close() {
	l.once.Do(func() {
		l.b.mu.Lock()
		defer l.b.mu.Unlock()
		delete(l.b.latest, l)
		close(l.ch)
	})
}

// offer puts v in the channel, replacing an unread older value. It runs
// with the broker locked, so publishes are serialised and the channel is
// never full when the second send runs.
func (l *Latest[T]) offer(v T) {
	select {
	case l.ch <- v:
		return
	default:
	}
	select {
	case <-l.ch:
	default:
	}
	l.ch <- v
}
