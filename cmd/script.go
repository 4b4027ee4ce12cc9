package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"unsafe"

	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/session"
)

// scriptRunner runs lines without a terminal UI: stdout to stdout, stderr to
// stderr, no escape codes, no spinner.
type scriptRunner struct {
	app    *app
	out    *bufio.Writer // flushed when the input is drained, and before stderr
	errOut *bufio.Writer
	trace  bool
	panel  bool
	safe   bool // the output is a terminal: neutralise escape codes
	styles render.Styles
	seen   uint64 // store version last drawn by --panel
}

func newScriptRunner(o *Options, a *app) *scriptRunner {
	return &scriptRunner{
		app: a, out: bufio.NewWriterSize(o.Streams.Out, 64<<10), errOut: bufio.NewWriterSize(o.Streams.ErrOut, 4<<10),
		trace: o.Trace, panel: o.Panel, safe: isTerminal(o.Streams.Out),
		styles: render.PlainStyles(),
	}
}

// startScript wires the engine for -c and script mode; Ctrl+C or SIGTERM
// cancels the returned context. Call the returned function when done.
func startScript(o *Options) (context.Context, *scriptRunner, func(), error) {
	a, sess, err := newSessionApp(o, session.ModeScript)
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	r := newScriptRunner(o, a)
	return ctx, r, func() { r.flush(); stop(); closeSession(sess, o.Streams.ErrOut) }, nil
}

// runCommandLine is `todo-shell -c LINE`: its exit status is the line's.
func runCommandLine(o *Options) error {
	ctx, r, done, err := startScript(o)
	if err != nil {
		return err
	}
	defer done()
	if router.Incomplete(o.Command) {
		r.print(r.errOut, "Error: unexpected end of line: an open quote or a trailing backslash")
		return &ExitError{ExitFailed}
	}
	code, _ := r.runLine(ctx, o.Command)
	if code != 0 {
		return &ExitError{code}
	}
	return nil
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
	failed := false
	lines := newLineReader(in)
	var pending strings.Builder
	for ctx.Err() == nil {
		if lines.drained() {
			r.flush() // about to wait for input: show what is done
		}
		raw, rerr := lines.next()
		line := unsafe.String(unsafe.SliceData(raw), len(raw)) // a view: see lineReader
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return fmt.Errorf("read input: %w", rerr)
		}
		if line == "" && rerr != nil {
			if pending.Len() > 0 {
				r.print(r.errOut, "Error: unexpected end of input: an open quote or a trailing backslash")
				failed = true
			}
			break
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		text := line
		if pending.Len() > 0 {
			pending.WriteString(line)
			text = pending.String()
		}
		if router.Incomplete(text) && rerr == nil {
			if pending.Len() == 0 {
				pending.WriteString(line)
			}
			pending.WriteByte('\n')
			continue
		}
		pending.Reset()
		if router.Incomplete(text) {
			r.print(r.errOut, "Error: unexpected end of input: an open quote or a trailing backslash")
			failed = true
			break
		}
		code, exit := r.runLine(ctx, text)
		if code != 0 {
			failed = true
		}
		if exit || rerr != nil {
			break
		}
	}
	if ctx.Err() != nil || failed {
		return &ExitError{ExitFailed}
	}
	return nil
}

// runLine runs one (complete) line and prints its output. exit reports a
// request to leave.
func (r *scriptRunner) runLine(ctx context.Context, text string) (code int, exit bool) {
	line := router.Classify(text, r.app.registry)
	switch line.Kind {
	case router.Empty:
		return 0, false
	case router.Builtin:
		b := r.app.shell.Builtin(line)
		switch b.Action {
		case router.ActionExit:
			return 0, true
		case router.ActionTrace:
			r.trace = b.Trace
		}
		r.print(r.out, b.Stdout)
		r.print(r.errOut, b.Stderr)
		return b.ExitCode, false
	}
	out := r.app.shell.Run(ctx, line, nil)
	if r.trace {
		for _, t := range router.TraceLines(out) {
			r.print(r.errOut, t)
		}
	}
	r.print(r.out, out.Stdout)
	if out.Offloaded != nil {
		lines, more := render.Preview(out.Offloaded)
		if more > 0 {
			lines = append(lines, fmt.Sprintf("… %d more lines", more))
		}
		r.print(r.out, strings.Join(lines, "\n"))
	}
	r.print(r.errOut, out.Warning)
	r.print(r.errOut, out.Stderr)
	if r.panel && r.app.store.Version() != r.seen {
		if snap := r.app.store.Snapshot(); snap.Version != r.seen {
			r.seen = snap.Version
			box := render.TaskBox(snap, 80, &r.styles)
			if box == "" {
				box = "(no todos)"
			}
			r.print(r.out, box)
		}
	}
	return out.ExitCode, false
}

// print writes text and a newline, unless text is empty. On a terminal,
// escape codes in it are neutralised. Writing to stderr first flushes
// stdout, so the two keep their order when they share a file.
func (r *scriptRunner) print(w *bufio.Writer, text string) {
	if text == "" {
		return
	}
	if r.safe {
		text = render.SanitizeOutput(text)
	}
	if w == r.errOut {
		r.out.Flush()
	}
	w.WriteString(text)
	w.WriteByte('\n')
	if w == r.errOut {
		w.Flush()
	}
}

func (r *scriptRunner) flush() {
	r.out.Flush()
	r.errOut.Flush()
}
