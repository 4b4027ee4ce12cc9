// Package headless is todo-shell without a terminal UI: script mode
// (`todo-shell -c LINE`, a script on standard input: each command read
// with bash's grammar, run through the router and the one executor, its
// output printed as written) and serve (tool_use lines in, tool_result
// lines out). Both read their input with one line reader that never holds
// more than a bounded line.
package headless

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"unsafe"

	"github.com/todo-shell/todo-shell/internal/bashline"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// ExitFailed is the status of a script in which a line failed, and of a
// -c line that could not be read whole.
const ExitFailed = 1

// ScriptConfig is what script mode runs with: the engine, and the facts
// of the streams it writes to.
type ScriptConfig struct {
	Shell    *router.Shell
	Registry *tools.Registry
	// Plan is what the panel shows (--panel draws it after a line that
	// changed it).
	Plan        *tools.Broker[todo.Snapshot]
	Out, ErrOut io.Writer
	// SafeOut and SafeErr: that stream is a terminal, so escape codes in
	// what goes to it are neutralised. Each stream decides for itself.
	SafeOut, SafeErr bool
	// Width is the terminal's width, for help text; 0 when Out is no
	// terminal.
	Width        int
	Trace, Panel bool
}

// Script runs lines without a terminal UI: stdout to stdout, stderr to
// stderr, no escape codes, no spinner (`todo-shell -c LINE`, and a script
// on standard input).
type Script struct {
	cfg    ScriptConfig
	out    *bufio.Writer // flushed when the input is drained, and before stderr
	errOut *bufio.Writer
	trace  bool
	styles render.Styles
	seen   uint64 // plan version last drawn by --panel
}

// NewScript returns script mode over cfg.
func NewScript(cfg ScriptConfig) *Script {
	return &Script{
		cfg: cfg, out: bufio.NewWriterSize(cfg.Out, 64<<10), errOut: bufio.NewWriterSize(cfg.ErrOut, 4<<10),
		trace: cfg.Trace, styles: render.PlainStyles(),
	}
}

// Command runs one command line (-c) and returns its exit status.
func (r *Script) Command(ctx context.Context, text string) int {
	if st := bashline.Check(text); st.Wait != bashline.Complete {
		r.print(r.errOut, "Error: unexpected end of the command: "+st.Problem(1))
		return ExitFailed
	}
	code, _ := r.runLine(ctx, text)
	if code == exitWithLast {
		code = 0
	}
	return code
}

// Run runs every command of in, going on after failures, and returns the
// exit status: `exit N`'s, else ExitFailed when any line failed or ctx
// ended, else 0. err is a failure to read in.
func (r *Script) Run(ctx context.Context, in io.Reader) (code int, err error) {
	failed, last := false, 0
	cmds := newCommandReader(in)
	defer cmds.sc.Close()
	for ctx.Err() == nil {
		text, final, err := cmds.next(ctx, r.Flush)
		if err != nil {
			var unfinished *unfinishedError
			if errors.As(err, &unfinished) {
				r.print(r.errOut, "Error: "+err.Error())
				failed = true
			} else if !errors.Is(err, io.EOF) && ctx.Err() == nil {
				return 0, fmt.Errorf("read input: %w", err)
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
			return code, nil
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
		return ExitFailed, nil
	}
	return 0, nil
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
func (r *Script) runLine(ctx context.Context, text string) (code int, exit bool) {
	line := router.Classify(text, r.cfg.Registry)
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
	out := r.cfg.Shell.Run(ctx, line, raw.writer())
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
	if out.Help && r.cfg.Width > 0 { // a tool's description: verbatim unless shown on a terminal
		stdout = render.WrapHelp(stdout, r.cfg.Width-1)
	}
	r.print(r.out, stdout)
	if out.Offloaded != nil {
		r.printOffloaded(out.Offloaded, out.Stderr)
	}
	r.print(r.errOut, out.Warning)
	if !out.Exit {
		r.print(r.errOut, out.Stderr)
	}
	if r.cfg.Panel {
		r.printPanel()
	}
	return out.ExitCode, out.Exit
}

// runBuiltin runs a /builtin line and prints its output. exit reports a
// request to leave.
func (r *Script) runBuiltin(line router.Line) (code int, exit bool) {
	b := r.cfg.Shell.Builtin(line)
	switch b.Action {
	case router.ActionExit:
		return exitWithLast, true
	case router.ActionTrace:
		r.trace = b.Trace
	}
	stdout := b.Stdout
	if line.Name == "help" {
		// Wrapped to the terminal, or to 80 columns in a file or pipe.
		stdout = render.WrapHelp(stdout, cmp.Or(r.cfg.Width, 81)-1)
	}
	r.print(r.out, stdout)
	r.print(r.errOut, b.Stderr)
	return b.ExitCode, false
}

// printOffloaded prints an offloaded result's first lines and its last (a
// failure is at the end); stderr, the trailer, is printed on its own.
func (r *Script) printOffloaded(off *tools.Offloaded, stderr string) {
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
func (r *Script) printPanel() {
	if snap, _ := r.cfg.Plan.Last(); snap.Version != r.seen {
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
func (r *Script) print(w *bufio.Writer, text string) {
	if text == "" {
		return
	}
	if (w == r.out && r.cfg.SafeOut) || (w == r.errOut && r.cfg.SafeErr) {
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

// Flush writes out what is buffered for both streams.
func (r *Script) Flush() {
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
