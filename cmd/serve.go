package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
)

func newCmdServe(o *Options) *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Serve tool calls over stdio: one tool_use JSON line in, one tool_result JSON line out",
		Long: `serve reads one Anthropic tool_use block per line on standard input and writes, for
each, one tool_result block per line on standard output, in order. A line that is not
JSON or not a tool_use gets an is_error tool_result saying what was wrong, and the
server goes on. End of input ends it with status 0. Offload applies as in the shell.`,
		Example: `  $ echo '{"type":"tool_use","id":"toolu_01","name":"TodoRead","input":{}}' | todo-shell serve
  $ todo-shell serve < calls.jsonl > results.jsonl`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.changed = cmd.Flags().Changed
			a, err := newApp(o)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			batchGC(o.Getenv)
			return Serve(ctx, a.registry, a.offload, o.Streams.In, o.Streams.Out)
		},
	}
}

// Serve answers tool_use lines from in with tool_result lines on out until
// in ends. Output is flushed whenever the input buffered so far is drained,
// so an interactive client gets each answer at once and a piped batch is
// written in large blocks.
func Serve(ctx context.Context, reg *tools.Registry, off offload.Config, in io.Reader, out io.Writer) error {
	lines := newLineReader(in)
	bw := bufio.NewWriterSize(out, 256<<10)
	buf := make([]byte, 0, 4096)
	for {
		if lines.drained() {
			if err := bw.Flush(); err != nil {
				return fmt.Errorf("serve: write: %w", err)
			}
		}
		line, err := lines.next()
		if err != nil && !errors.Is(err, io.EOF) {
			bw.Flush()
			return fmt.Errorf("serve: read: %w", err)
		}
		if text := trimLine(line); len(text) > 0 {
			res := serveOne(ctx, reg, off, text)
			buf = res.AppendJSON(buf[:0])
			buf = append(buf, '\n')
			if _, werr := bw.Write(buf); werr != nil {
				return fmt.Errorf("serve: write: %w", werr)
			}
		}
		if err != nil { // EOF
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
