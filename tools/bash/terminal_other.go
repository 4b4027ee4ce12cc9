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

// setTerminalCols is never called where openTerminal fails.
func setTerminalCols(*os.File, int) error { return errors.New("no pseudo-terminal here") }
