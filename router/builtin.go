package router

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// HelpText is what /help prints.
const HelpText = `Type a command and press Enter. Every line runs as a tool call.

Agent commands
  TodoWrite '<json>'   replace the todo list: '{"todos":[{"content":"...","activeForm":"...","status":"pending"}]}'
  TodoRead [--json]    print the todo list (--json: the tool result)
  TaskCreate '<json>'  add a task to the plan: '{"subject":"...","description":"..."}'
  TaskUpdate '<json>'  change a task: '{"taskId":"1","status":"in_progress"}'
  TaskList, TaskGet    the plan; one task: '{"taskId":"1"}'
  <Tool> -h            a tool's description
  anything else        runs with bash (start with ! to force bash)

Builtins
  /help                this help
  /tools               the tool definitions sent to a model (JSON)
  /trace on|off        show each call's tool_use and tool_result JSON
  /session             session id, offload directory, offloaded files
  /offloads            this session's offloaded results: size, lines, the command that made each
  /open [N]            show the last (or Nth) offloaded result in $PAGER (default less -R)
  /tty COMMAND         run COMMAND attached to the terminal (editors, pagers, REPLs, top, ssh get it without /tty; add more with TODO_SHELL_INTERACTIVE)
  /clear               clear the screen
  /exit, exit, quit    leave (also Ctrl+D on an empty line)

Keys
  Enter                run the line (an open quote or trailing \ asks for more)
  Up/Down              history (kept in $XDG_STATE_HOME/todo-shell/history; a line starting with a space is not saved; --no-history keeps it in memory only)
  Ctrl+R               search the history backwards (Ctrl+R again: older; Enter runs; Right or End edits; Esc or Ctrl+G cancels)
  Tab                  complete commands, builtins, files, flags; again to cycle; after "TodoWrite " it inserts the current list as JSON to edit
  Ctrl+C               interrupt a running command; clear the line; twice on an empty line to leave
  Ctrl+D               leave, on an empty line with nothing running (a running command goes on: it reads no input; the agent's turn asks for a second press)
  Ctrl+L               clear the screen

Results of 1000 characters or more go to .offload/<session>/<tool_use_id>.md
and are replaced by a one-line pointer.`

// The lines of HelpText that agent mode tells otherwise.
const (
	helpIntro     = "Type a command and press Enter. Every line runs as a tool call."
	helpBash      = "  anything else        runs with bash (start with ! to force bash)"
	agentIntro    = "Type a prompt for Claude and press Enter; TodoWrite, TodoRead and !COMMAND run here as tool calls."
	agentPrompted = "  anything else        a prompt to Claude\n  !COMMAND             runs COMMAND with bash"
	helpHelp      = "  /help                this help\n"
	agentOnly     = "  /cost                the session's tokens and cost so far\n" +
		"  /compact             replace the conversation by a summary, the plan and the last turn (frees context)\n"
)

// AgentHelpText is what /help prints in agent mode, where a plain line is
// a prompt to Claude and bash needs a leading !, and /cost and /compact
// are builtins too.
func AgentHelpText() string {
	h := strings.Replace(strings.Replace(HelpText, helpIntro, agentIntro, 1), helpBash, agentPrompted, 1)
	return strings.Replace(h, helpHelp, helpHelp+agentOnly, 1)
}

// AgentBuiltins are the builtins only agent mode has.
func AgentBuiltins() []string { return []string{"/cost", "/compact"} }

// Action is what a builtin asks of the front end beyond printing.
type Action int

// The actions.
const (
	ActionNone  Action = iota
	ActionExit         // leave the shell
	ActionClear        // clear the screen
	ActionTrace        // set tracing to BuiltinOutput.Trace
)

// BuiltinOutput is the result of a builtin.
type BuiltinOutput struct {
	Stdout   string
	Stderr   string
	ExitCode int
	Action   Action
	Trace    bool // with ActionTrace: the new setting
}

// Builtin runs a builtin line (Kind Builtin).
func (s *Shell) Builtin(line Line) BuiltinOutput {
	args := strings.Fields(line.Args)
	switch line.Name {
	case "help":
		return BuiltinOutput{Stdout: HelpText}
	case "exit", "quit":
		return BuiltinOutput{Action: ActionExit}
	case "clear":
		return BuiltinOutput{Action: ActionClear}
	case "tools":
		b, err := json.MarshalIndent(s.Executor.Definitions(), "", "  ")
		if err != nil {
			return BuiltinOutput{Stderr: "Error: " + err.Error(), ExitCode: 1}
		}
		return BuiltinOutput{Stdout: string(b)}
	case "trace":
		if len(args) == 1 && (args[0] == "on" || args[0] == "off") {
			return BuiltinOutput{Action: ActionTrace, Trace: args[0] == "on", Stdout: "Tracing " + args[0]}
		}
		return BuiltinOutput{Stderr: "Usage: /trace on|off", ExitCode: 1}
	case "session":
		off := s.Offload
		dir, _ := filepath.Abs(filepath.Join(off.Dir, off.Session))
		n, files := countOffloaded(dir), "files"
		if n == 1 {
			files = "file"
		}
		return BuiltinOutput{Stdout: fmt.Sprintf("Session:    %s\nOffload to: %s\nOffloaded:  %d %s",
			off.Session, dir, n, files)}
	}
	return BuiltinOutput{Stderr: fmt.Sprintf("Unknown command: /%s (try /help)", line.Name), ExitCode: 1}
}

// countOffloaded counts the .md files in a session's offload directory.
func countOffloaded(dir string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
			n++
		}
	}
	return n
}

// TraceLines returns the tool_use and tool_result JSON of an output, one
// line each, for /trace.
func TraceLines(out Output) []string {
	if out.Call == nil || out.Result == nil {
		return nil
	}
	use, _ := json.Marshal(out.Call)
	res, _ := json.Marshal(out.Result)
	return []string{"→ " + string(use), "← " + string(res)}
}
