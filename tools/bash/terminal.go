package bash

import "context"

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
