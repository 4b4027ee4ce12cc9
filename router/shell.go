package router

import (
	"context"
	"io"
	"strings"

	"github.com/todo-shell/todo-shell/internal/bashline"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/bash"
	"github.com/todo-shell/todo-shell/tools/offload"
)

// Shell runs classified lines as tool calls through one executor and gives
// each its shell form: what goes to stdout and stderr, and an exit status.
// The form is the tool's own (tools.Shell) or the generic one; the router
// knows no tool but Bash, the tool plain command lines go to.
type Shell struct {
	Executor *tools.Executor
	// Offload is where the executor's policy puts long results (for
	// /session, /offloads and /open); the zero Config when it has none.
	Offload offload.Config
	NewID   tools.IDGenerator // nil means tools.NewToolUseID
	// OnOffload, when set, hears of each result offloaded to a file: its
	// tool_use id and the command that made it (a session records them for
	// /offloads of a later run).
	OnOffload func(toolUseID, command string)
}

// Output is the shell form of one line.
type Output struct {
	Stdout   string // text for stdout; ends without a newline
	Stderr   string // text for stderr; ends without a newline
	ExitCode int    // 0 success; 1 an agent command failed; a bash line's own status
	Help     bool   // Stdout is help text

	Call   *tools.ToolUse    // the tool call made, nil when the line made none
	Result *tools.ToolResult // its result

	// Offloaded is set when Stdout is an offload pointer; its Preview holds
	// the first lines of the full text.
	Offloaded *tools.Offloaded
	// Full, with Offloaded, is the text a person asked to read (TodoRead's
	// list, TaskList, TaskGet), for an interactive shell to show whole.
	Full string
	// Warning tells why a long result could not be offloaded (the full text
	// is shown instead).
	Warning string
	// Exit is set when a bash line ran exit at its top level (`exit 5`):
	// a shell front end leaves with ExitCode, as bash does.
	Exit bool
}

// Run runs line, streaming live output of commands to live (may be nil).
// Builtins and empty lines are the front end's: Run returns an empty Output.
func (s *Shell) Run(ctx context.Context, line Line, live io.Writer) Output {
	if live != nil {
		ctx = tools.WithOutput(ctx, live)
	}
	var out Output
	switch line.Kind {
	case Bash:
		out = s.runBash(ctx, line.Text)
		out = withHint(out, s.didYouMean(line.Text, out))
	case Agent:
		out = s.runAgent(ctx, line)
	default:
		return Output{}
	}
	if out.Offloaded != nil && out.Call != nil && s.OnOffload != nil {
		s.OnOffload(out.Call.ID, line.Command())
	}
	return out
}

// Command is the line as a person typed it: a bash line's command (with
// its '!'), an agent command's name and arguments.
func (l Line) Command() string {
	switch l.Kind {
	case Bash:
		if l.Forced {
			return "!" + l.Text
		}
		return l.Text
	case Agent:
		return strings.TrimSpace(l.Name + " " + l.Args)
	}
	return ""
}

func (s *Shell) newID() string {
	if s.NewID != nil {
		return s.NewID()
	}
	return tools.NewToolUseID()
}

// output turns a call and its form into the line's Output.
func output(call tools.ShellCall) Output {
	f := call.Form
	out := Output{Stdout: f.Stdout, Stderr: f.Stderr, ExitCode: f.ExitCode, Exit: f.Exit,
		Call: call.Use, Result: call.Result, Offloaded: f.Offloaded, Full: f.Full}
	if f.OffloadErr != nil {
		out.Warning = offload.Warning(f.OffloadErr)
	}
	return out
}

func (s *Shell) runBash(ctx context.Context, command string) Output {
	return output(s.Executor.ExecuteShell(ctx, s.newID(), bash.Name, bash.CommandInput(command), nil))
}

func (s *Shell) runAgent(ctx context.Context, line Line) Output {
	args, err := bashline.Words(line.Args)
	if err != nil {
		return Output{Stderr: "Error: " + err.Error(), ExitCode: 1}
	}
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		return Output{Stdout: strings.TrimRight(s.description(line.Name), "\n"), Help: true}
	}
	input, bad := s.Executor.ShellInput(line.Name, args)
	var out Output
	if bad != nil {
		out = output(tools.ShellCall{Form: *bad})
	} else {
		out = output(s.Executor.ExecuteShell(ctx, s.newID(), line.Name, input, args))
	}
	if out.ExitCode != 0 && strings.HasPrefix(out.Stderr, "Error: Invalid JSON format") && !strings.Contains(out.Stderr, "single quotes") {
		out = withHint(out, unquotedJSONHint(line.Args, line.Name))
	}
	return out
}

func (s *Shell) description(name string) string {
	def, _ := s.Executor.Lookup(name)
	return def.Description
}
