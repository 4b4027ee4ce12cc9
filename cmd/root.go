// Package cmd holds todo-shell's command line: it parses flags, wires the
// engine (registry, store, bash runner, offload) and starts the front end the
// user asked for.
package cmd

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/agent"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Options are the flags every todo-shell command shares.
type Options struct {
	Streams Streams
	Getenv  func(string) string

	Session          string
	Resume           string // --resume ID
	Continue         bool   // --continue
	OffloadDir       string
	OffloadThreshold int
	// OffloadMaxMiB caps an offload file, in MiB (0: no cap).
	OffloadMaxMiB    int
	MaxItems         int // used when its flag was given (maxItemsGiven)
	MaxContentLength int // used when its flag was given
	MaxInProgress    int // used when its flag was given
	BashTimeout      time.Duration
	NoColor          bool
	NoProgress       bool // --no-progress: the plan's progress stays out of the terminal title
	Trace            bool
	NoHistory        bool
	Plan             string // --plan NAME (or TODO_SHELL_PLAN): a shared task plan

	// caller is who calls the Task tools by default (agent mode: "agent").
	caller string
	// redact masks the credentials in what the tools return, stream and
	// spool (agent mode); nil masks nothing.
	redact *tools.Redactor

	// Root only.
	Command string
	Panel   bool

	// Whether each limit flag was given: its value then wins over the
	// environment. The flags set these themselves (limitValue).
	maxItemsGiven, maxContentLengthGiven, maxInProgressGiven bool

	// offloadFS is the file system offload files go through; nil is the
	// operating system's (tests inject faults).
	offloadFS offload.FS
	// noFileTools leaves Read, Write and Edit out (the MCP server).
	noFileTools bool
	// credentials returns the Anthropic credentials for the agent (see
	// host.credentials).
	credentials func() (agent.Credentials, error)
}

const rootLong = `todo-shell is a small agent shell: type TodoWrite and TodoRead the way a model calls
them, or any shell command, and watch the task panel redraw as the plan changes.
Every line runs as an Anthropic-format tool call (tool_use in, tool_result out), and any
result of 1000 characters or more goes to a file instead of flooding the screen.

With no arguments it starts the interactive shell when standard input is a terminal,
and runs the lines it reads as a script otherwise (or from FILE).

Environment:
  TODO_MAX_ITEMS           most todos in a list (default 50)
  TODO_MAX_CONTENT_LENGTH  most characters in content or activeForm (default 200)
  TODO_MAX_IN_PROGRESS     most todos in_progress at once (default 1; 0: any)
  NO_COLOR                 when set, draw without color
  ANTHROPIC_API_KEY        for 'todo-shell agent'
  Flags override the environment.

Offloaded results go to <offload-dir>/<session>/<tool_use_id>.md (default
.offload/<session>/...), and the screen shows the line
  [Tool result offloaded to file: <absolute path>]
with a short preview.

Each run is a session kept in <offload-dir>/<session>/: todos.json (the list),
todos.jsonl (every version), session.json; one left with no plan and no
conversation is removed. --resume ID or --continue (the most recent with a plan
or a conversation) picks one up again; 'todo-shell sessions' lists them, 'todo-shell clean'
removes old ones.

Exit status: 0 success, 1 a command failed, 2 bad usage.`

const rootExample = `  $ todo-shell
  $ todo-shell -c 'TodoRead'
  $ todo-shell -c 'ls -la'
  $ todo-shell --panel <<'EOF'
  TodoWrite '{"todos":[{"content":"Run tests","activeForm":"Running tests",
    "status":"in_progress"}]}'
  echo hi
  EOF
  $ echo '{"type":"tool_use","id":"toolu_01","name":"TodoRead","input":{}}' |
      todo-shell serve
  $ todo-shell --continue
  $ todo-shell sessions
  $ todo-shell tools`

// NewCmdRoot returns the root command.
func NewCmdRoot(s Streams) *cobra.Command {
	return newCmdRoot(s, host{getenv: os.Getenv, credentials: agent.Hide})
}

// host is what a run takes from its surroundings besides its streams.
type host struct {
	getenv    func(string) string
	offloadFS offload.FS // nil: the operating system's
	// credentials returns the Anthropic credentials. The program's own
	// (agent.Hide) first takes them out of the process's environment
	// block, re-executing it; nil reads them with getenv (tests).
	credentials func() (agent.Credentials, error)
}

func newCmdRoot(s Streams, h host) *cobra.Command {
	opts := &Options{Streams: s, Getenv: h.getenv, offloadFS: h.offloadFS, credentials: h.credentials}
	if opts.credentials == nil {
		opts.credentials = func() (agent.Credentials, error) { return agent.FromEnv(h.getenv), nil }
	}
	cmd := &cobra.Command{
		Use:           "todo-shell [FILE]",
		Short:         "An agent shell with TodoWrite, TodoRead, bash and a live task panel",
		Long:          rootLong,
		Example:       rootExample,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return &UsageError{fmt.Errorf("too many arguments: %q", args)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("command") {
				if len(args) > 0 {
					return &UsageError{fmt.Errorf("-c and FILE cannot be used together")}
				}
				return runCommandLine(opts)
			}
			return rootRun(opts, args)
		},
	}
	cmd.SetIn(s.In)
	cmd.SetOut(s.Out)
	cmd.SetErr(s.ErrOut)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &UsageError{err} })

	addRootFlags(cmd, opts)
	addSubcommands(cmd, opts)
	strictCompletion(cmd)
	setHelp(cmd)
	cmd.Version = version()
	cmd.SetVersionTemplate("todo-shell {{.Version}}\n")
	return cmd
}

// rootRun runs FILE as a script, else the shell on a terminal, else
// standard input as a script.
func rootRun(opts *Options, args []string) error {
	if len(args) == 1 {
		f, err := os.Open(args[0])
		if err != nil {
			return &UsageError{fmt.Errorf("%s: cannot read it (%w); it is not a command either", args[0], err)}
		}
		defer func() { _ = f.Close() }() // only read
		return runScript(opts, f)
	}
	if isTerminal(opts.Streams.In) && isTerminal(opts.Streams.Out) {
		return runREPL(opts)
	}
	return runScript(opts, opts.Streams.In)
}

// addRootFlags adds the shared (persistent) flags, with their defaults in
// opts, and the root's own -c and --panel.
func addRootFlags(root *cobra.Command, opts *Options) {
	pf := root.PersistentFlags()
	pf.StringVar(&opts.Session, "session", "", "session id, [A-Za-z0-9_-] (default: a fresh unique id)")
	pf.StringVar(&opts.Resume, "resume", "", "resume the session ID: its list, its files and (agent) its conversation")
	pf.BoolVar(&opts.Continue, "continue", false, "resume the most recent session with a plan or a conversation")
	pf.StringVar(&opts.OffloadDir, "offload-dir", ".offload", "where offloaded results go")
	pf.IntVar(&opts.OffloadThreshold, "offload-threshold", offload.DefaultThreshold, "offload results of this many characters or more (0: never)")
	pf.IntVar(&opts.OffloadMaxMiB, "offload-max-mib", offload.DefaultMaxFile>>20, "most MiB an offload file holds: a longer output keeps its start and its end (0: no cap)")
	opts.MaxItems, opts.MaxContentLength, opts.MaxInProgress = todo.DefaultLimits().MaxItems, todo.DefaultLimits().MaxContentLength, todo.DefaultLimits().MaxInProgress
	pf.Var(&limitValue{&opts.MaxItems, 1, &opts.maxItemsGiven}, "max-items", "most todos in a list, and tasks in the task plan (overrides "+todo.EnvMaxItems+")")
	pf.Var(&limitValue{&opts.MaxContentLength, 1, &opts.maxContentLengthGiven}, "max-content-length", "most characters in content and activeForm, and in a task's subject, activeForm and owner (overrides "+todo.EnvMaxContentLength+")")
	pf.Var(&limitValue{&opts.MaxInProgress, 0, &opts.maxInProgressGiven}, "max-in-progress", "most todos in_progress at once, and tasks in_progress for one owner; 0 for no limit (overrides "+todo.EnvMaxInProgress+")")
	pf.DurationVar(&opts.BashTimeout, "bash-timeout", 2*time.Minute, "how long a bash command may run")
	pf.BoolVar(&opts.NoColor, "no-color", false, "draw without color (NO_COLOR is honoured too)")
	pf.BoolVar(&opts.NoProgress, "no-progress", false, "keep the plan's progress out of the terminal title (also TODO_SHELL_NO_PROGRESS=1)")
	pf.BoolVar(&opts.Trace, "trace", false, "show each call's tool_use and tool_result JSON")
	pf.BoolVar(&opts.NoHistory, "no-history", false, "keep the shell's history in memory only (default: $XDG_STATE_HOME/todo-shell/history)")
	pf.StringVar(&opts.Plan, "plan", "", "share the named task plan in $XDG_STATE_HOME/todo-shell/plans/NAME with other processes (default: "+EnvPlan+", else the session's own)")
	root.Flags().StringVarP(&opts.Command, "command", "c", "", "run one line, print its output and exit with its status")
	root.Flags().BoolVar(&opts.Panel, "panel", false, "script mode: print the task box after each change")
}

// addSubcommands adds the subcommands, each with the shared flags its
// help lists.
func addSubcommands(root *cobra.Command, opts *Options) {
	for _, sub := range []struct {
		cmd    *cobra.Command
		shared []string // the shared flags it uses, for its help
	}{
		{newCmdTools(opts), limitFlags()},
		{newCmdServe(opts), engineFlags()},
		{newCmdVersion(opts), nil},
		{newCmdAgent(opts), append([]string{"no-color", "trace", "no-history"}, sessionFlags()...)},
		{newCmdReplay(opts), []string{"no-color"}},
		{newCmdWatch(opts), []string{"no-color", "no-progress", "offload-dir", "plan"}},
		{newCmdMCP(opts), sessionFlags()},
		{newCmdSessions(opts), []string{"offload-dir"}},
		{newCmdClean(opts), []string{"offload-dir"}},
		{newCmdHook(opts), []string{"plan"}},
		{newCmdStatusLine(opts), []string{"plan", "no-color"}},
		{newCmdStatus(opts), []string{"plan", "session", "offload-dir", "no-color"}},
	} {
		sub.cmd.SilenceUsage, sub.cmd.SilenceErrors = true, true
		usesFlags(sub.cmd, sub.shared...)
		root.AddCommand(sub.cmd)
	}
}

// strictCompletion makes `completion <unknown shell>` bad usage; cobra's
// own command prints its help and succeeds.
func strictCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.SilenceUsage, c.SilenceErrors = true, true
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return c.Help()
			}
			return &UsageError{fmt.Errorf("completion: unknown shell %q: choose bash, zsh, fish or powershell", args[0])}
		}
	}
}

// limitValue is a limit flag: a whole number from min to todo.MaxLimit, with
// the same messages as the environment variables get. Setting it sets
// *given, so the flag, not the environment, decides the limit.
type limitValue struct {
	dst   *int
	min   int
	given *bool
}

func (v *limitValue) String() string {
	if v.dst == nil {
		return "0"
	}
	return strconv.Itoa(*v.dst)
}

func (v *limitValue) Set(s string) error {
	n, err := todo.ParseLimit(s, v.min)
	if err != nil {
		return err
	}
	*v.dst = n
	if v.given != nil {
		*v.given = true
	}
	return nil
}

func (v *limitValue) Type() string { return "int" }
