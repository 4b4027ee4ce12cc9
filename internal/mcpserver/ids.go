package mcpserver

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
)

// Bounds of what Guard lets the SDK hold at once for one client.
const (
	// MaxDepth is the deepest nesting of arrays and objects a message may
	// have; a deeper one is answered with an error (the SDK would end the
	// session over it).
	MaxDepth = 128
	// maxInFlight is how many requests may wait for their response; when
	// they are reached Guard reads no more until one is answered, so a
	// client that sends and never reads cannot make the server queue
	// answers without end.
	maxInFlight = 64
	// maxInFlightBytes bounds the requests waiting by their size too.
	maxInFlightBytes = 64 << 20
)

// ids gives every request a fresh id of Guard's own before the SDK sees it
// and puts the client's id back, byte for byte, on the response: the SDK
// reads ids as 64-bit integers, so 1.5 came back as 1 (and collided with
// 1) and 1e30 as -9223372036854775808. It also bounds the requests in
// flight.
type ids struct {
	mu      sync.Mutex
	freed   *sync.Cond
	next    int64
	orig    map[int64]pending // our id → the client's
	byOrig  map[string]int64  // the client's id → ours (the latest)
	count   int
	bytes   int
	waiters int // admits waiting for room
	stopped bool
}

type pending struct {
	id   json.RawMessage
	size int
}

func newIDs() *ids {
	m := &ids{orig: make(map[int64]pending), byOrig: make(map[string]int64)}
	m.freed = sync.NewCond(&m.mu)
	return m
}

// admit waits for room for a request of size bytes, then gives it an id of
// ours for the client's id orig.
func (m *ids) admit(orig json.RawMessage, size int) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	for !m.stopped && m.count > 0 && (m.count >= maxInFlight || m.bytes+size > maxInFlightBytes) {
		m.waiters++
		m.freed.Wait()
		m.waiters--
	}
	m.next++
	m.orig[m.next] = pending{id: bytes.Clone(orig), size: size}
	m.byOrig[string(orig)] = m.next
	m.count++
	m.bytes += size
	return m.next
}

// lookup returns the client's id for our id n; ok is false when n is not a
// request waiting (it was cancelled).
func (m *ids) lookup(n int64) (json.RawMessage, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.orig[n]
	return p.id, ok
}

// answered forgets our id n once its response is written, making room for
// the next request.
func (m *ids) answered(n int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.orig[n]; ok {
		m.forget(n, p)
	}
}

// cancelled forgets the request the client knows as orig (it will get no
// response) and returns our id for it.
func (m *ids) cancelled(orig json.RawMessage) (int64, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, ok := m.byOrig[string(orig)]
	if !ok {
		return 0, false
	}
	m.forget(n, m.orig[n])
	return n, true
}

func (m *ids) forget(n int64, p pending) {
	delete(m.orig, n)
	if m.byOrig[string(p.id)] == n {
		delete(m.byOrig, string(p.id))
	}
	m.count--
	m.bytes -= p.size
	m.freed.Broadcast()
}

// inFlight is how many requests wait for their response.
func (m *ids) inFlight() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.count
}

// waiting is how many requests wait for room.
func (m *ids) waiting() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.waiters
}

// stop lets every admit through: the input has ended.
func (m *ids) stop() {
	m.mu.Lock()
	m.stopped = true
	m.mu.Unlock()
	m.freed.Broadcast()
}

// member returns where the value of the top-level member key of the JSON
// object text lies, [start, end); ok is false when there is none.
func member(text []byte, key string) (start, end int, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(text))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, 0, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return 0, 0, false
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, 0, false
		}
		if k, _ := t.(string); k == key {
			end := int(dec.InputOffset())
			return end - len(raw), end, true
		}
	}
	return 0, 0, false
}

// splice returns text with [start, end) replaced by val.
func splice(text []byte, start, end int, val []byte) []byte {
	out := make([]byte, 0, len(text)-(end-start)+len(val))
	out = append(out, text[:start]...)
	out = append(out, val...)
	return append(out, text[end:]...)
}

// depth returns the deepest nesting of arrays and objects in the JSON text,
// stopping as soon as it passes limit.
func depth(text []byte, limit int) int {
	d, deepest, inString := 0, 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case inString:
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			d++
			if d > deepest {
				if deepest = d; deepest > limit {
					return deepest
				}
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return deepest
}

// subscriptionKey is the _meta member by which the SDK names the
// subscriptions/listen request a message belongs to (its acknowledgement,
// the notifications it carries, its final result): the request's id, so
// ours, which the client never sent.
const subscriptionKey = "io.modelcontextprotocol/subscriptionId"

// subscription puts the client's id back in the subscription id of a
// message of the SDK's (params._meta or result._meta): a client waits for
// the acknowledgement of its subscriptions/listen by the id it sent
// (Claude Code 2.1 waited 27 s for it, then went on without).
func (m *ids) subscription(p []byte) []byte {
	if !bytes.Contains(p, []byte(`"`+subscriptionKey+`"`)) {
		return p
	}
	for _, where := range []string{"params", "result"} {
		ws, we, ok := member(p, where)
		if !ok {
			continue
		}
		ms, me, ok := member(p[ws:we], "_meta")
		if !ok {
			continue
		}
		meta := p[ws+ms : ws+me]
		is, ie, ok := member(meta, subscriptionKey)
		if !ok {
			continue
		}
		n, ours := ourID(meta[is:ie])
		if !ours {
			continue
		}
		orig, waiting := m.lookup(n)
		if !waiting {
			continue
		}
		return splice(p, ws+ms+is, ws+ms+ie, orig)
	}
	return p
}

// ourID reads an id Guard gave.
func ourID(raw []byte) (int64, bool) {
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return n, err == nil && n > 0
}
