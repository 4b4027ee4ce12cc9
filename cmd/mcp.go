package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/mcpserver"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// mcpOptions are the flags of 'todo-shell mcp'.
type mcpOptions struct {
	allowBash bool
	logLevel  string
	owner     string // who calls the Task tools; "" is the client's name
}

func newCmdMCP(o *Options) *cobra.Command {
	mo := &mcpOptions{}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "The tools as an MCP server over stdio (Bash with --allow-bash)",
		Long: `mcp runs todo-shell's tools as a Model Context Protocol server on standard input and
output, for any MCP client: Claude Code, Claude Desktop, Cursor, gemini-cli, codex.
The tools' names, descriptions and input schemas are exactly those 'todo-shell tools'
prints; each result is one text block holding exactly the Anthropic tool_result content,
with isError set when the tool rejected its input. Results of --offload-threshold
characters or more are offloaded as in the shell, and the plan is kept in the session
directory (todos.json, todos.jsonl), so 'todo-shell watch' shows it live; --resume and
--continue take a session up again. Nothing but protocol is written to standard output;
logs go to standard error.

The Task tools (TaskCreate, TaskGet, TaskUpdate, TaskList) keep a plan of numbered
tasks with dependencies and owners in the session directory, or, with --plan NAME, in a
plan several processes share ($XDG_STATE_HOME/todo-shell/plans/NAME): several agents,
each with its own 'todo-shell mcp --plan NAME', work from one plan. A task an agent starts
is owned by it: by the name the client gave in initialize, or by --owner. Another
client that claims, deletes or changes the status of a task it does not own gets an
isError result naming the owner.

Bash is published only with --allow-bash: it runs any command the client sends.`,
		Example: `  $ claude mcp add todo-shell -- todo-shell mcp
  $ claude mcp add build-plan -- todo-shell mcp --plan build
  $ todo-shell mcp --allow-bash --log-level info`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			return serveMCP(o, mo)
		},
	}
	cmd.Flags().BoolVar(&mo.allowBash, "allow-bash", false, "also publish the Bash tool (runs any command the client sends)")
	cmd.Flags().StringVar(&mo.owner, "owner", "", "the owner the Task tools' calls act as (default: the client's name from initialize)")
	cmd.Flags().StringVar(&mo.logLevel, "log-level", "warn", "what to log to standard error: debug, info, warn, error or off")
	return cmd
}

// serveMCP is the mcp command: it serves the tools of a new session until
// the client disconnects or a signal ends it (status 128+signal).
func serveMCP(o *Options, mo *mcpOptions) error {
	level, err := parseLogLevel(mo.logLevel)
	if err != nil {
		return &UsageError{err}
	}
	o.noFileTools = true // agents over MCP have their own file tools
	a, sess, err := newSessionApp(o, "mcp")
	if err != nil {
		return err
	}
	// The plan goes to the session directory as in the shell, so
	// `todo-shell watch` shows an MCP client's plan live.
	defer closeSession(a, sess, o.Streams.ErrOut)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	caught := make(chan os.Signal, 1)
	go func() {
		select {
		case sig := <-sigs:
			caught <- sig
			cancel()
		case <-ctx.Done():
		}
	}()
	err = runMCP(ctx, a, mo, level, o.Streams)
	cancel()
	select {
	case sig := <-caught:
		if n, ok := sig.(syscall.Signal); ok {
			return &ExitError{Code: 128 + int(n)}
		}
		return &ExitError{Code: 130}
	default:
		return err
	}
}

// runMCP serves until the client disconnects or ctx ends, then stops any
// command still running.
func runMCP(ctx context.Context, a *app, mo *mcpOptions, level slog.Level, s Streams) error {
	logger := slog.New(slog.NewTextHandler(s.ErrOut, &slog.HandlerOptions{Level: level}))
	names := append([]string{todo.WriteName, todo.ReadName}, task.Names()...)
	if mo.allowBash {
		names = append(names, "Bash")
	}
	r, w, inputEnded := mcpserver.Guard(s.In, s.Out, mcpserver.DefaultMaxLine)
	srv, err := mcpserver.New(mcpserver.Options{
		Stop:     inputEnded,
		Executor: a.executor,
		Tools:    names,
		Version:  version(),
		Caller:   mo.owner,
		Logger:   logger,
		OnResult: func(name string, res tools.ToolResult) {
			if res.OffloadErr != nil {
				logger.Warn("result not offloaded", "tool", name, "tool_use_id", res.ToolUseID, "error", res.OffloadErr)
			}
		},
	})
	if err != nil {
		return err
	}
	defer a.runner.Kill() // a client gone mid-call leaves nothing running
	stopped := make(chan struct{})
	defer close(stopped)
	go func() {
		// The SDK waits for running calls before Run returns: when the
		// client is gone or a signal came, end them.
		select {
		case <-ctx.Done():
			a.runner.Kill()
		case <-inputEnded:
			a.runner.Kill()
		case <-stopped:
		}
	}()
	t := &mcp.IOTransport{Reader: r, Writer: w}
	err = srv.Run(ctx, t)
	switch {
	case ctx.Err() != nil:
		return nil // stopped by a signal: the caller gives the status
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, mcp.ErrConnectionClosed):
		return nil
	}
	return fmt.Errorf("mcp: %w", err)
}

// parseLogLevel reads --log-level.
func parseLogLevel(s string) (slog.Level, error) {
	switch strings.ToLower(s) {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	case "off", "none":
		return slog.LevelError + 100, nil
	}
	return 0, fmt.Errorf("--log-level must be debug, info, warn, error or off, got %q", s)
}
