package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// DefaultMaxLine is the longest tool_use line serve reads.
const DefaultMaxLine = 64 << 20

func newCmdServe(o *Options) *cobra.Command {
	maxLine := DefaultMaxLine
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve tool calls over stdio: one tool_use JSON line in, one tool_result JSON line out",
		Long: `serve reads one Anthropic tool_use block per line on standard input and writes, for
each, one tool_result block per line on standard output, in order. A line that is not
JSON or not a tool_use, or is longer than --max-line bytes, gets an is_error
tool_result saying what was wrong, and the server goes on. End of input ends it with
status 0. Offload applies as in the shell.

SIGTERM, SIGINT or SIGHUP stop it: it reads no more, interrupts the running call
(its whole process group), writes that call's result, and exits 143, 130 or 129.`,
		Example: `  $ echo '{"type":"tool_use","id":"toolu_01","name":"TodoRead","input":{}}' | todo-shell serve
  $ todo-shell serve < calls.jsonl > results.jsonl`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.changed = cmd.Flags().Changed
			if maxLine < 1 {
				return &UsageError{fmt.Errorf("--max-line must be 1 or more, got %d", maxLine)}
			}
			a, err := newApp(o)
			if err != nil {
				return err
			}
			// serve keeps no session; with --plan its Task tools use the
			// shared plan.
			if err := attachPlan(o, a, ""); err != nil {
				return err
			}
			defer closeTasks(a, o.Streams.ErrOut)
			batchGC(o.Getenv)
			if o.Getenv("GOMEMLIMIT") == "" {
				// A line near --max-line is held whole while it is read;
				// keep the collector from letting garbage pile up beside it.
				debug.SetMemoryLimit(int64(maxLine) + 32<<20)
			}
			srv := &Server{Registry: a.registry, Offload: a.offload, MaxLine: maxLine}
			ctx, caught, stop := notifyTerminate(a)
			defer stop()
			done := make(chan error, 1)
			go func() { done <- srv.Serve(ctx, o.Streams.In, o.Streams.Out) }()
			select {
			case err := <-done:
				if sig := caught(); sig != 0 {
					return &ExitError{128 + sig}
				}
				return err
			case <-ctx.Done():
				// A signal. A call in progress is being interrupted: wait
				// for its result to be written. Idle, Serve is blocked
				// reading, and everything it answered is already flushed.
				for srv.Busy() {
					select {
					case <-done:
						return &ExitError{128 + caught()}
					case <-time.After(5 * time.Millisecond):
					}
				}
				return &ExitError{128 + caught()}
			}
		},
	}
	cmd.Flags().IntVar(&maxLine, "max-line", DefaultMaxLine, "longest tool_use line in bytes; a longer one gets an is_error result")
	return cmd
}

// Serve answers tool_use lines from in with tool_result lines on out until
// in ends; see Server.
func Serve(ctx context.Context, reg *tools.Registry, off offload.Config, in io.Reader, out io.Writer) error {
	return (&Server{Registry: reg, Offload: off}).Serve(ctx, in, out)
}

// Server answers tool_use lines with tool_result lines.
type Server struct {
	Registry *tools.Registry
	Offload  offload.Config
	// MaxLine is the longest line read; a longer one is answered with an
	// is_error result and skipped without being held. 0 is DefaultMaxLine.
	MaxLine int

	busy atomic.Bool
}

// Busy reports whether a call is being answered.
func (s *Server) Busy() bool { return s.busy.Load() }

// Serve answers lines until in ends or ctx is cancelled; a call running when
// ctx is cancelled is interrupted and its result written before Serve
// returns. Output is flushed whenever the input buffered so far is drained,
// so an interactive client gets each answer at once and a piped batch is
// written in large blocks.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	maxLine := s.MaxLine
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	lines := newLineReader(in)
	lines.max = maxLine
	bw := bufio.NewWriterSize(out, 256<<10)
	buf := make([]byte, 0, 4096)
	s.busy.Store(true)
	defer s.busy.Store(false)
	for {
		if lines.drained() {
			if err := bw.Flush(); err != nil {
				return fmt.Errorf("serve: write: %w", err)
			}
			// Idle from here until a line comes: all answered is out, so a
			// signal may end the process without waiting for Serve.
			s.busy.Store(false)
		}
		line, err := lines.next()
		s.busy.Store(true)
		if ctx.Err() != nil {
			return bw.Flush() // stopped: read no more
		}
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, errLineTooLong) {
			bw.Flush()
			return fmt.Errorf("serve: read: %w", err)
		}
		var res tools.ToolResult
		answer := true
		switch text := trimLine(line); {
		case errors.Is(err, errLineTooLong):
			res = tools.ToolResult{Type: "tool_result", Content: fmt.Sprintf("Invalid tool_use: the line is longer than --max-line (%d bytes); it was skipped", maxLine), IsError: true}
			err = nil
		case len(text) > 0:
			res = serveOne(ctx, s.Registry, s.Offload, text)
		default:
			answer = false
		}
		if answer {
			buf = res.AppendJSON(buf[:0])
			buf = append(buf, '\n')
			if _, werr := bw.Write(buf); werr != nil {
				return fmt.Errorf("serve: write: %w", werr)
			}
		}
		if err != nil || ctx.Err() != nil { // EOF, or stopped during the call
			if ferr := bw.Flush(); ferr != nil {
				return fmt.Errorf("serve: write: %w", ferr)
			}
			return nil
		}
	}
}

func trimLine(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r' || b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// serveOne answers one line.
func serveOne(ctx context.Context, reg *tools.Registry, off offload.Config, line []byte) tools.ToolResult {
	use, err := tools.ParseToolUse(line)
	if err != nil {
		return tools.ToolResult{Type: "tool_result", ToolUseID: use.ID, Content: "Invalid tool_use: " + err.Error(), IsError: true}
	}
	return offload.Apply(reg.Execute(ctx, use.ID, use.Name, use.Input), off, nil)
}
