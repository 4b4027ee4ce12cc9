package cmd

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/headless"
)

func newCmdServe(o *Options) *cobra.Command {
	maxLine := headless.DefaultMaxLine
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Tool calls over stdio: tool_use lines in, tool_result lines out",
		Long: `serve reads one Anthropic tool_use block per line on standard input and writes, for
each, one tool_result block per line on standard output, in order. A line that is not
JSON or not a tool_use, or is longer than --max-line bytes, gets an is_error
tool_result saying what was wrong, and the server goes on. End of input ends it with
status 0. Offload applies as in the shell.

SIGTERM, SIGINT or SIGHUP stop it: it reads no more, interrupts the running call
(its whole process group), writes that call's result, and exits 143, 130 or 129.`,
		Example: `  $ echo '{"type":"tool_use","id":"toolu_01","name":"TodoRead","input":{}}' |
      todo-shell serve
  $ todo-shell serve < calls.jsonl > results.jsonl`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
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
			srv := &headless.Server{Executor: a.executor, MaxLine: maxLine}
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
				// for its result to be written. Waiting for input, Serve
				// has written everything it answered: leave at once.
				for !srv.Idle() {
					select {
					case err := <-done:
						_ = err // the signal decides the exit status
						return &ExitError{128 + caught()}
					case <-srv.IdleNote():
					}
				}
				return &ExitError{128 + caught()}
			}
		},
	}
	cmd.Flags().IntVar(&maxLine, "max-line", headless.DefaultMaxLine, "longest tool_use line in bytes; a longer one gets an is_error result")
	return cmd
}
