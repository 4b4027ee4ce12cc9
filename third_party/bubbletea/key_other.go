//go:build !windows
// +build !windows

package tea

import (
	"context"
	"io"
)

// readInputs reads input after pending (bytes read before, not yet
// delivered); closing stop ends it, returning the bytes it read and could
// not deliver (todo-shell's patch: see PATCHES.md).
func readInputs(ctx context.Context, msgs chan<- Msg, input io.Reader, pending []byte, stop <-chan struct{}) ([]byte, error) {
	return readAnsiInputsStop(ctx, msgs, input, pending, stop)
}
