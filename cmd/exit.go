package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"

	"github.com/todo-shell/todo-shell/internal/agent"
	"github.com/todo-shell/todo-shell/render"
)

// Exit statuses.
const (
	ExitOK     = 0 // success
	ExitFailed = 1 // a command failed
	ExitUsage  = 2 // bad usage
)

// ExitError ends the program with Code; it has already said what there was
// to say.
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// UsageError is bad usage: the message and a pointer to --help are printed,
// exit 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Streams are the program's standard streams.
type Streams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// StdStreams returns the process's standard streams.
func StdStreams() Streams { return Streams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr} }

// forTerminal returns text as it may be written to w: neutralised (escape
// sequences removed, control characters made visible) when w is a terminal,
// exactly as it is otherwise. Every stream decides for itself: a terminal
// stderr is protected even when stdout goes to a file.
func forTerminal(w io.Writer, text string) string {
	if isTerminal(w) {
		return render.SanitizeOutput(text)
	}
	return text
}

// isTerminal reports whether v is a terminal file.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// Main runs todo-shell with args and returns the exit status.
//
// Nothing asks the terminal a question before the command needs it: only
// the interactive shell asks (for the background colour), and it waits for
// no answer.
func Main(args []string, s Streams) int {
	return mainWith(args, s, host{getenv: os.Getenv, credentials: agent.Hide})
}

func mainWithEnv(args []string, s Streams, getenv func(string) string) int {
	return mainWith(args, s, host{getenv: getenv})
}

func mainWith(args []string, s Streams, h host) int {
	root := newCmdRoot(s, h)
	root.SetArgs(args)
	err := root.Execute()
	var exit *ExitError
	var usage *UsageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &exit):
		return exit.Code
	case errors.As(err, &usage):
		// The error, then one line: usage would bury it.
		path := root.CommandPath()
		if c, _, ferr := root.Find(args); ferr == nil && c != nil {
			path = c.CommandPath()
		}
		fmt.Fprintf(s.ErrOut, "todo-shell: %s\nRun '%s --help' for usage.\n", forTerminal(s.ErrOut, usage.Err.Error()), path)
		if errors.As(err, new(hookFailure)) {
			return ExitFailed
		}
		return ExitUsage
	}
	fmt.Fprintf(s.ErrOut, "todo-shell: %s\n", forTerminal(s.ErrOut, err.Error()))
	return ExitFailed
}
