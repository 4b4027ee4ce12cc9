package repl

import (
	"sync"

	"github.com/todo-shell/todo-shell/tools/bash"
)

// tailBuffer is the io.Writer a running command's output streams into. It
// keeps only the last few lines, however much passes through, and signals
// (coalesced) that there is news on notify.
type tailBuffer struct {
	mu     sync.Mutex
	buf    []byte
	max    int
	notify chan struct{}

	// all is the whole output, escape sequences included, while it stays
	// within maxAll bytes (a result short enough to be shown, not
	// offloaded): the shell prints it with its colours.
	all    []byte
	allOut bool // it did not
}

// maxAll bounds tailBuffer.all.
const maxAll = 64 << 10

func newTailBuffer(limit int) *tailBuffer {
	return &tailBuffer{max: limit, notify: make(chan struct{}, 1)}
}

// Write keeps the tail of p and signals.
func (t *tailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	t.mu.Lock()
	if !t.allOut {
		if len(t.all)+n > maxAll {
			t.all, t.allOut = nil, true
		} else {
			t.all = append(t.all, p...)
		}
	}
	if len(p) > t.max {
		p = p[len(p)-t.max:]
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	t.mu.Unlock()
	select {
	case t.notify <- struct{}{}:
	default:
	}
	return n, nil
}

// whole returns the whole output, escape sequences included, and whether
// it was kept.
func (t *tailBuffer) whole() (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.all), !t.allOut
}

// close tells the watcher no more output will come.
func (t *tailBuffer) close() { close(t.notify) }

// lines returns the last n complete or partial lines.
func (t *tailBuffer) lines(n int) []string {
	t.mu.Lock()
	s := string(t.buf)
	t.mu.Unlock()
	return lastLines(bash.ApplyCarriageReturns(s), n)
}
