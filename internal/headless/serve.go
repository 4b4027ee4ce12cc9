package headless

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/todo-shell/todo-shell/tools"
)

// DefaultMaxLine is the longest tool_use line serve reads.
const DefaultMaxLine = 64 << 20

// Serve answers tool_use lines from in with tool_result lines on out until
// in ends; see Server.
func Serve(ctx context.Context, ex *tools.Executor, in io.Reader, out io.Writer) error {
	return (&Server{Executor: ex}).Serve(ctx, in, out)
}

// Server answers tool_use lines with tool_result lines.
type Server struct {
	// Executor runs the calls under the offload policy.
	Executor *tools.Executor
	// MaxLine is the longest line read; a longer one is answered with an
	// is_error result and skipped without being held. 0 is DefaultMaxLine.
	MaxLine int

	// idle is set while Serve waits for input with every answer written;
	// idleNote gets a token each time it is set (see Idle).
	idle     atomic.Bool
	idleNote chan struct{}
	once     sync.Once
}

func (s *Server) init() { s.once.Do(func() { s.idleNote = make(chan struct{}, 1) }) }

// Idle reports whether Serve is waiting for input with everything it
// answered written out: the process may then end without losing an answer.
// A call being answered, or answers not yet written, make it busy.
func (s *Server) Idle() bool { return s.idle.Load() }

// IdleNote returns a channel that receives a token whenever Serve becomes
// idle, so a caller can wait for Idle without polling.
func (s *Server) IdleNote() <-chan struct{} {
	s.init()
	return s.idleNote
}

// readerWaiting wraps the input so that Serve writes out its answers and
// says it is idle right before it blocks on a read, and busy once the read
// returns: idle means blocked in a read with nothing left unwritten, even
// when part of a line is already buffered.
type readerWaiting struct {
	s   *Server
	r   io.Reader
	bw  *bufio.Writer
	err error // the first failure to write out answers
}

func (w *readerWaiting) Read(p []byte) (int, error) {
	if err := w.bw.Flush(); err != nil {
		w.err = err
		return 0, err
	}
	w.s.idle.Store(true)
	select {
	case w.s.idleNote <- struct{}{}:
	default:
	}
	n, err := w.r.Read(p)
	w.s.idle.Store(false)
	return n, err
}

// Serve answers lines until in ends or ctx is cancelled; a call running when
// ctx is cancelled is interrupted and its result written before Serve
// returns. Output is flushed whenever Serve is about to wait for input, so
// an interactive client gets each answer at once and a piped batch is
// written in large blocks.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	maxLine := s.MaxLine
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	s.init()
	bw := bufio.NewWriterSize(out, 256<<10)
	// Answers are written out whenever Serve is about to wait for input,
	// so an interactive client gets each at once and a piped batch goes
	// in large blocks.
	rw := &readerWaiting{s: s, r: in, bw: bw}
	lines := newLineReader(rw)
	lines.max = maxLine
	buf := make([]byte, 0, 4096)
	for {
		line, err := lines.next()
		if rw.err != nil {
			return fmt.Errorf("serve: write: %w", rw.err)
		}
		if ctx.Err() != nil {
			return bw.Flush() // stopped: read no more
		}
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, errLineTooLong) {
			_ = bw.Flush() // the read error is the one to report
			return fmt.Errorf("serve: read: %w", err)
		}
		var res tools.ToolResult
		answer := true
		switch text := trimLine(line); {
		case errors.Is(err, errLineTooLong):
			res = tools.ToolResult{Type: "tool_result", Content: fmt.Sprintf("Invalid tool_use: the line is longer than --max-line (%d bytes); it was skipped", maxLine), IsError: true}
			err = nil
		case len(text) > 0:
			res = serveOne(ctx, s.Executor, text)
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
func serveOne(ctx context.Context, ex *tools.Executor, line []byte) tools.ToolResult {
	use, err := tools.ParseToolUse(line)
	if err != nil {
		return tools.ToolResult{Type: "tool_result", ToolUseID: use.ID, Content: "Invalid tool_use: " + err.Error(), IsError: true}
	}
	return ex.Execute(ctx, use.ID, use.Name, use.Input)
}
