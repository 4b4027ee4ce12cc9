package cmd

import (
	"os"

	"github.com/charmbracelet/x/term"
)

// ttyTerminal is the REPL's terminal, handed to interactive programs: it
// leaves raw mode for them (restoring the state the shell started in) and
// takes it back after.
type ttyTerminal struct {
	in     *os.File
	cooked *term.State // the state before the shell's raw mode
}

// Release restores the terminal's normal mode.
func (t *ttyTerminal) Release() error { return term.Restore(t.in.Fd(), t.cooked) }

// Acquire puts the terminal back into raw mode.
func (t *ttyTerminal) Acquire() error {
	_, err := term.MakeRaw(t.in.Fd())
	return err
}
