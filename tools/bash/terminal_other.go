//go:build !linux

package bash

import (
	"errors"
	"os"
)

// openTerminal is Linux's only: elsewhere commands write to a pipe.
func openTerminal(int) (master, slave *os.File, err error) {
	return nil, nil, errors.New("no pseudo-terminal here")
}
