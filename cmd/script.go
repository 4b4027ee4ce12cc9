package cmd

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"unsafe"

	"github.com/charmbracelet/x/term"

	"github.com/todo-shell/todo-shell/internal/bashline"
	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// scriptRunner runs lines without a terminal UI: stdout to stdout, stderr to
// stderr, no escape codes, no spinner.
type scriptRunner struct {
	app    *app
	out    *bufio.Writer // flushed when the input is drained, and before stderr
	errOut *bufio.Writer
	trace  bool
	panel  bool
	// safeOut and safeErr: that stream is a terminal, so escape codes in
	// what goes to it are neutralised. Each stream decides for itself.
	safeOut, safeErr bool
	width            int // the terminal's width, for help text; 0 when not a terminal
	styles           render.Styles
	seen             uint64 // store version last drawn by --panel
}

func newScriptRunner(o *Options, a *app) *scriptRunner {
	return &scriptRunner{
		app: a, out: bufio.NewWriterSize(o.Streams.Out, 64<<10), errOut: bufio.NewWriterSize(o.Streams.ErrOut, 4<<10),
		trace: o.Trace, panel: o.Panel, safeOut: isTerminal(o.Streams.Out), safeErr: isTerminal(o.Streams.ErrOut),
		styles: render.PlainStyles(), width: termWidth(o.Streams.Out),
	}
}

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
func startScript(o *Options) (context.Context, *scriptRunner, func(), error) {
	a, sess, err := newSessionApp(o, session.ModeScript)
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	r := newScriptRunner(o, a)
	return ctx, r, func() { r.flush(); stop(); closeSession(a, sess, o.Streams.ErrOut) }, nil
}

// runCommandLine is `todo-shell -c LINE`: its exit status is the line's.
func runCommandLine(o *Options) error {
	ctx, r, done, err := startScript(o)
	if err != nil {
		return err
	}
	defer done()
	if st := bashline.Check(o.Command); st.Wait != bashline.Complete {
		r.print(r.errOut, "Error: unexpected end of the command: "+st.Problem(1))
		return &ExitError{ExitFailed}
	}
	code, _ := r.runLine(ctx, o.Command)
	if code == exitWithLast {
		code = 0
	}
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
	failed, last := false, 0
	cmds := newCommandReader(in)
	defer cmds.sc.Close()
	for ctx.Err() == nil {
		text, final, err := cmds.next(ctx, r.flush)
		if err != nil {
			var unfinished *unfinishedError
			if errors.As(err, &unfinished) {
				r.print(r.errOut, "Error: "+err.Error())
				failed = true
			} else if !errors.Is(err, io.EOF) && ctx.Err() == nil {
				return fmt.Errorf("read input: %w", err)
			}
			break
		}
		code, exit := r.runLine(ctx, text)
		if exit {
			// `exit N` ends the script with N, and a plain `exit` with the
			// last line's status, as in bash.
			if code == exitWithLast {
				code = last
			}
			if code != 0 {
				return &ExitError{code}
			}
			return nil
		}
		if code != 0 {
			failed = true
		}
		last = code
		if final {
			break
		}
	}
	if ctx.Err() != nil || failed {
		return &ExitError{ExitFailed}
	}
	return nil
}

// commandReader reads a script's commands from its lines. A command can go
// on over several lines (an open quote, a trailing backslash, a
// here-document, an if without its fi): they collect in pending, and the
// scanner (bash's grammar) follows them in linear time, so an unclosed
// quote costs a pass over the input, not a pass per line.
type commandReader struct {
	lines   *lineReader
	pending strings.Builder
	sc      bashline.Scanner
	lineNo  int // lines read
	first   int // the line the pending command began on
}

func newCommandReader(in io.Reader) *commandReader {
	return &commandReader{lines: newLineReader(in)}
}

// unfinishedError is input that ended inside a command.
type unfinishedError struct{ problem string }

func (e *unfinishedError) Error() string { return "unexpected end of input: " + e.problem }

// next returns the next whole command, a view valid until the next call,
// and whether the input ended with it (final). wait is called before a
// read that may block: the input read so far is all handled. At the end of
// the input next returns io.EOF, or an *unfinishedError when it ended
// inside a command; when ctx ends, its error.
func (c *commandReader) next(ctx context.Context, wait func()) (text string, final bool, err error) {
	for {
		if err := ctx.Err(); err != nil {
			return "", false, err
		}
		if c.lines.drained() {
			wait()
		}
		raw, rerr := c.lines.next()
		line := unsafe.String(unsafe.SliceData(raw), len(raw)) // a view: see lineReader
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return "", false, rerr
		}
		if line == "" && rerr != nil {
			if c.pending.Len() > 0 {
				return "", false, &unfinishedError{c.sc.Status().Problem(c.first)}
			}
			return "", false, io.EOF
		}
		c.lineNo++
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		continuing := c.pending.Len() > 0 // an incomplete line is never empty
		if !continuing {
			c.first = c.lineNo
		}
		incomplete := c.sc.Line(line)
		text := line
		if continuing {
			c.pending.WriteByte('\n')
			c.pending.WriteString(line)
			text = c.pending.String()
		}
		if incomplete {
			if rerr != nil {
				return "", false, &unfinishedError{c.sc.Status().Problem(c.first)}
			}
			if !continuing {
				c.pending.WriteString(line)
			}
			continue
		}
		c.pending.Reset()
		return text, rerr != nil, nil
	}
}

// exitWithLast is runLine's status for a plain `exit`: leave with the last
// line's status.
const exitWithLast = -1

// runLine runs one (complete) line and prints its output. exit reports a
// request to leave.
func (r *scriptRunner) runLine(ctx context.Context, text string) (code int, exit bool) {
	line := router.Classify(text, r.app.registry)
	switch line.Kind {
	case router.Empty:
		return 0, false
	case router.Builtin:
		return r.runBuiltin(line)
	}
	var raw *rawOutput
	if line.Kind == router.Bash {
		raw = &rawOutput{}
	}
	out := r.app.shell.Run(ctx, line, raw.writer())
	if s, ok := raw.text(); ok && out.Offloaded == nil && strings.IndexByte(s, 0x1b) >= 0 {
		// The result is plain (a model reads it); a command's own output
		// is printed as it wrote it, escape sequences and all (print
		// neutralises them for a terminal).
		out.Stdout = strings.TrimSuffix(s, "\n")
	}
	if r.trace {
		for _, t := range router.TraceLines(out) {
			r.print(r.errOut, t)
		}
	}
	stdout := out.Stdout
	if out.Help && r.width > 0 { // a tool's description: verbatim unless shown on a terminal
		stdout = render.WrapHelp(stdout, r.width-1)
	}
	r.print(r.out, stdout)
	if out.Offloaded != nil {
		r.printOffloaded(out.Offloaded, out.Stderr)
	}
	r.print(r.errOut, out.Warning)
	if !out.Exit {
		r.print(r.errOut, out.Stderr)
	}
	if r.panel {
		r.printPanel()
	}
	return out.ExitCode, out.Exit
}

// runBuiltin runs a /builtin line and prints its output. exit reports a
// request to leave.
func (r *scriptRunner) runBuiltin(line router.Line) (code int, exit bool) {
	b := r.app.shell.Builtin(line)
	switch b.Action {
	case router.ActionExit:
		return exitWithLast, true
	case router.ActionTrace:
		r.trace = b.Trace
	}
	stdout := b.Stdout
	if line.Name == "help" {
		// Wrapped to the terminal, or to 80 columns in a file or pipe.
		stdout = render.WrapHelp(stdout, cmp.Or(r.width, 81)-1)
	}
	r.print(r.out, stdout)
	r.print(r.errOut, b.Stderr)
	return b.ExitCode, false
}

// printOffloaded prints an offloaded result's first lines and its last (a
// failure is at the end); stderr, the trailer, is printed on its own.
func (r *scriptRunner) printOffloaded(off *tools.Offloaded, stderr string) {
	var last []string
	if _, more := render.Preview(off); more > 0 {
		last, _ = offload.TailLines(off.Path, render.PreviewTail+1)
		if n := len(last); n > 0 && stderr != "" && last[n-1] == stderr {
			last = last[:n-1] // the trailer, printed on its own
		}
	}
	r.print(r.out, strings.Join(render.PreviewText(render.PreviewAround(off, last)), "\n"))
}

// printPanel prints the plan as a task box when it changed since the last
// one printed.
func (r *scriptRunner) printPanel() {
	if snap, _ := r.app.plan.Last(); snap.Version != r.seen {
		r.seen = snap.Version
		box := render.TaskBox(snap, 80, &r.styles)
		if box == "" {
			box = "(no todos)"
		}
		r.print(r.out, box)
	}
}

// print writes text and a newline, unless text is empty. When w's stream is
// a terminal, escape codes in it are neutralised. Writing to stderr first flushes
// stdout, so the two keep their order when they share a file.
func (r *scriptRunner) print(w *bufio.Writer, text string) {
	if text == "" {
		return
	}
	if (w == r.out && r.safeOut) || (w == r.errOut && r.safeErr) {
		text = render.SanitizeOutput(text)
	}
	// Standard output and error: nothing to do when they fail (a closed
	// pipe ends the script through SIGPIPE).
	if w == r.errOut {
		_ = r.out.Flush()
	}
	_, _ = w.WriteString(text)
	_ = w.WriteByte('\n')
	if w == r.errOut {
		_ = w.Flush()
	}
}

func (r *scriptRunner) flush() {
	_ = r.out.Flush() // as in print
	_ = r.errOut.Flush()
}

// rawOutput keeps a command's output as it wrote it, escape sequences
// included, up to maxRawOutput bytes: a result short enough to be printed
// is printed so, while the result itself is plain.
type rawOutput struct {
	b    []byte
	over bool
}

// maxRawOutput bounds rawOutput.
const maxRawOutput = 1 << 20

// writer is r as an io.Writer, nil for a nil r.
func (r *rawOutput) writer() io.Writer {
	if r == nil {
		return nil
	}
	return r
}

func (r *rawOutput) Write(p []byte) (int, error) {
	if !r.over {
		if len(r.b)+len(p) > maxRawOutput {
			r.b, r.over = nil, true
		} else {
			r.b = append(r.b, p...)
		}
	}
	return len(p), nil
}

// text is the output, and whether all of it was kept; false for nil.
func (r *rawOutput) text() (string, bool) {
	if r == nil || r.over {
		return "", false
	}
	return string(r.b), true
}
