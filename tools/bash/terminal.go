package bash

import (
	"context"
	"io"
	"os"
	"sync"
	"time"
)

type terminalKey struct{}

// WithTerminal asks that commands run under ctx write to a pseudo-terminal
// cols columns wide instead of a pipe, so that programs which colour only
// for a terminal (ls --color=auto, grep --color=auto, git diff) do, and lay
// out for its width. Their stdin stays empty, and it is not their
// controlling terminal (they have none). The interactive shell asks for it;
// a model's calls never do. Where no pseudo-terminal can be had, a pipe is
// used.
func WithTerminal(ctx context.Context, cols int) context.Context {
	return WithTerminalSize(ctx, NewTerminalSize(cols))
}

// WithTerminalSize is WithTerminal with a width that can change while the
// command runs (TerminalSize.Set).
func WithTerminalSize(ctx context.Context, size *TerminalSize) context.Context {
	return context.WithValue(ctx, terminalKey{}, size)
}

// terminalFrom returns the size WithTerminal asked for, or nil.
func terminalFrom(ctx context.Context) *TerminalSize {
	size, _ := ctx.Value(terminalKey{}).(*TerminalSize)
	return size
}

// TerminalSize is the width of the pseudo-terminal commands write to (see
// WithTerminalSize). It is safe for concurrent use.
type TerminalSize struct {
	mu     sync.Mutex
	cols   int
	resize func(cols int) // sets the running command's terminal; nil when none runs
}

// NewTerminalSize returns a width of cols columns (at least 20).
func NewTerminalSize(cols int) *TerminalSize { return &TerminalSize{cols: max(cols, 20)} }

// Cols returns the width.
func (s *TerminalSize) Cols() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cols
}

// Set changes the width to cols (at least 20). A command running on a
// terminal of this size is told, as a terminal tells its programs: its
// terminal gets the new width, and its processes SIGWINCH.
func (s *TerminalSize) Set(cols int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cols = max(cols, 20)
	if cols == s.cols {
		return
	}
	s.cols = cols
	if s.resize != nil {
		s.resize(cols)
	}
}

// attach has Set call resize while a command runs on a terminal opened cols
// wide; a change since it was opened is applied at once. detach ends it.
func (s *TerminalSize) attach(opened int, resize func(cols int)) (detach func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resize = resize
	if s.cols != opened {
		resize(s.cols)
	}
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.resize = nil
	}
}

// coalesceWait is how long a terminal read waits for more output to join
// what it has: a terminal hands output over a few KB at a time, a pipe up
// to its whole buffer.
const coalesceWait = 2 * time.Millisecond

// coalesceMin is what a coalesced read gathers before it returns at once.
const coalesceMin = 256 << 10

// coalesced reads f (a terminal's master) in larger pieces: after a read
// returns, it goes on reading for up to coalesceWait while output keeps
// coming, so that a command writing megabytes costs its readers a write
// per 256 KB (as a pipe) rather than per 4 KB. A file without read deadlines is read
// as it is.
func coalesced(f *os.File) io.Reader {
	if f.SetReadDeadline(time.Time{}) != nil {
		return f
	}
	return coalescingReader{f}
}

type coalescingReader struct{ f *os.File }

func (c coalescingReader) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	if err != nil || n == 0 || n >= min(len(p), coalesceMin) {
		return n, err
	}
	_ = c.f.SetReadDeadline(time.Now().Add(coalesceWait))
	for n < min(len(p), coalesceMin) {
		m, err := c.f.Read(p[n:])
		n += m
		if err != nil { // the wait is over, or the end: the next Read says which
			break
		}
	}
	_ = c.f.SetReadDeadline(time.Time{})
	return n, nil
}
