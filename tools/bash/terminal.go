package bash

import (
	"context"
	"io"
	"os"
	"time"
)

type terminalKey struct{}

// WithTerminal asks that commands run under ctx write to a pseudo-terminal
// cols columns wide instead of a pipe, so that programs which colour only
// for a terminal (ls --color=auto, grep --color=auto, git diff) do, and lay
// out for its width. Their stdin stays empty, and the terminal is not their
// controlling terminal. The interactive shell asks for it; a model's calls
// never do. Where no pseudo-terminal can be had, a pipe is used.
func WithTerminal(ctx context.Context, cols int) context.Context {
	return context.WithValue(ctx, terminalKey{}, max(cols, 20))
}

// terminalFrom returns the width WithTerminal asked for, or 0.
func terminalFrom(ctx context.Context) int {
	cols, _ := ctx.Value(terminalKey{}).(int)
	return cols
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
