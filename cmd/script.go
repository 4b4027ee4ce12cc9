package cmd

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/charmbracelet/x/term"

	"github.com/todo-shell/todo-shell/internal/headless"
	"github.com/todo-shell/todo-shell/internal/session"
)

// termWidth is the width of w when it is a terminal, else 0.
func termWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(w) {
		return 0
	}
	width, _, err := term.GetSize(f.Fd())
	if err != nil {
		return 0
	}
	return width
}

// startScript wires the engine for -c and script mode; Ctrl+C or SIGTERM
// cancels the returned context. Call the returned function when done.
func startScript(o *Options) (context.Context, *headless.Script, func(), error) {
	a, sess, err := newSessionApp(o, session.ModeScript)
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	r := headless.NewScript(headless.ScriptConfig{
		Shell: a.shell, Registry: a.registry, Plan: a.plan,
		Out: o.Streams.Out, ErrOut: o.Streams.ErrOut,
		SafeOut: isTerminal(o.Streams.Out), SafeErr: isTerminal(o.Streams.ErrOut), Width: termWidth(o.Streams.Out),
		Trace: o.Trace, Panel: o.Panel,
	})
	return ctx, r, func() { r.Flush(); stop(); closeSession(a, sess, o.Streams.ErrOut) }, nil
}

// runCommandLine is `todo-shell -c LINE`: its exit status is the line's.
func runCommandLine(o *Options) error {
	ctx, r, done, err := startScript(o)
	if err != nil {
		return err
	}
	defer done()
	return exitStatus(r.Command(ctx, o.Command))
}

// runScript runs every line of in, going on after failures; it fails when
// any line failed.
func runScript(o *Options, in io.Reader) error {
	ctx, r, done, err := startScript(o)
	if err != nil {
		return err
	}
	defer done()
	batchGC(o.Getenv)
	code, err := r.Run(ctx, in)
	if err != nil {
		return err
	}
	return exitStatus(code)
}

// exitStatus is the error main turns into status code: nil for 0.
func exitStatus(code int) error {
	if code != 0 {
		return &ExitError{code}
	}
	return nil
}
