package router

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/bash"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Usage lines of the todo commands.
const (
	WriteUsageShort = `Usage: TodoWrite '{"todos":[...]}'`
	WriteUsageLong  = `Usage: TodoWrite '{"todos":[{"content":"...","activeForm":"...","status":"pending"}]}'`
	ReadUsage       = `Usage: TodoRead [--json]`
)

// maxListedErrors is how many validation messages the shell lists.
const maxListedErrors = 20

// Shell runs classified lines as tool calls and gives each its shell form:
// what goes to stdout and stderr, and an exit status.
type Shell struct {
	Registry *tools.Registry
	Offload  offload.Config
	Writer   offload.FileWriter // nil means offload.OSWriter
	NewID    tools.IDGenerator  // nil means tools.NewToolUseID
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
	switch line.Kind {
	case Bash:
		return s.runBash(ctx, line.Text)
	case Agent:
		return s.runAgent(ctx, line)
	}
	return Output{}
}

func (s *Shell) newID() string {
	if s.NewID != nil {
		return s.NewID()
	}
	return tools.NewToolUseID()
}

// call executes one tool call through the registry.
func (s *Shell) call(ctx context.Context, name string, input json.RawMessage) (*tools.ToolUse, tools.ToolResult) {
	use := &tools.ToolUse{Type: "tool_use", ID: s.newID(), Name: name, Input: input}
	return use, s.Registry.Execute(ctx, use.ID, name, input)
}

func (s *Shell) runBash(ctx context.Context, command string) Output {
	input, _ := json.Marshal(struct {
		Command string `json:"command"`
	}{command})
	use, res := s.call(ctx, bash.Name, input)
	out := Output{Call: use, Result: &res}
	st, ok := res.Meta.(bash.Outcome)
	if !ok { // bad input or no runner: the content is the message
		out.Stderr, out.ExitCode = "Error: "+res.Content, 1
		return out
	}
	out.ExitCode, out.Exit = st.ExitCode, st.Exited
	if st.Failed() && out.ExitCode == 0 {
		out.ExitCode = 1
	}
	trailer := st.Trailer()
	out.Stderr = trailer
	if res.OffloadErr != nil {
		out.Warning = offloadWarning(res.OffloadErr)
	}
	if res.Offloaded != nil {
		out.Stdout, out.Offloaded = res.Content, res.Offloaded
		if trailer != "" {
			// The file ends with the trailer, which is shown on its own:
			// keep it out of the preview and the line count.
			off := *res.Offloaded
			off.Preview = strings.TrimSuffix(off.Preview, trailer+"\n")
			off.Lines = max(off.Lines-1, 0)
			out.Offloaded = &off
		}
		return out
	}
	text := res.Content
	if trailer != "" {
		text = strings.TrimSuffix(text, trailer+"\n")
	}
	out.Stdout = strings.TrimSuffix(text, "\n")
	return out
}

// offloadWarning tells why a result is not where it should be: in the
// fallback directory, or shown (in full, or with its middle dropped).
func offloadWarning(err error) string { return offload.Warning(err) }

func (s *Shell) runAgent(ctx context.Context, line Line) Output {
	args, err := Split(line.Args)
	if err != nil {
		return Output{Stderr: "Error: " + err.Error(), ExitCode: 1}
	}
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		return Output{Stdout: strings.TrimRight(s.description(line.Name), "\n"), Help: true}
	}
	var out Output
	switch line.Name {
	case todo.WriteName:
		out = s.todoWrite(ctx, args)
	case todo.ReadName:
		out = s.todoRead(ctx, args)
	case task.CreateName, task.UpdateName, task.GetName:
		out = s.taskCall(ctx, line.Name, args)
	default:
		out = s.generic(ctx, line.Name, args)
	}
	s.offloadStdout(&out)
	return out
}

func (s *Shell) description(name string) string {
	def, _ := s.Registry.Lookup(name)
	return def.Description
}

func (s *Shell) todoWrite(ctx context.Context, args []string) Output {
	if len(args) == 0 {
		return Output{Stderr: "Error: Missing JSON parameter\n" + WriteUsageShort, ExitCode: 1}
	}
	if len(args) > 1 {
		return Output{Stderr: fmt.Sprintf("Error: Invalid JSON format\nExpected one argument, got %d: quote the JSON in single quotes\n%s", len(args), WriteUsageLong), ExitCode: 1}
	}
	// A JSON argument typed over several lines is compacted (after a
	// syntax check), so it is the same input as its one-line form; a
	// one-line argument goes as typed and the handler checks it.
	arg, input := args[0], rawView(args[0])
	if strings.IndexByte(arg, '\n') >= 0 || strings.IndexByte(arg, '\r') >= 0 || strings.IndexByte(arg, '\t') >= 0 {
		compact, err := todo.CompactInput(arg)
		if err != nil {
			return invalidJSON(arg, err)
		}
		input = compact
	}
	use, res := s.call(ctx, todo.WriteName, input)
	out := Output{Call: use, Result: &res}
	rep, _ := res.Meta.(todo.WriteReport)
	var list *todo.ValidationError
	var syn *todo.SyntaxError
	switch {
	case errors.As(rep.Err, &syn):
		// Not JSON: no tool_use can carry it, so the line shows none.
		return invalidJSON(arg, syn)
	case errors.As(rep.Err, &list):
		out.Stderr, out.ExitCode = "Error: Validation failed\n"+listErrors(list.Messages), 1
	case res.IsError:
		out.Stderr, out.ExitCode = "Error: "+res.Content, 1
	default:
		out.Stdout = updatedText(rep.Completed, rep.InProgress, rep.Pending)
	}
	return out
}

// updated caches the success lines: a session writes the same few counts
// over and over.
var updated sync.Map // [3]int → string

// updatedText is TodoWrite's success line in the shell.
func updatedText(c, i, p int) string {
	key := [3]int{c, i, p}
	if text, ok := updated.Load(key); ok {
		return text.(string)
	}
	text := "Todo list updated: " + strconv.Itoa(c) + " completed, " +
		strconv.Itoa(i) + " in_progress, " + strconv.Itoa(p) + " pending"
	if c+i+p <= 64 { // the cache stays small: at most 64 items' worth of triples
		updated.Store(key, text)
	}
	return text
}

// rawView returns the bytes of s without copying them. Handlers neither
// modify nor keep their input (see tools.Handler), and s is never changed.
func rawView(s string) json.RawMessage {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// invalidJSON is the shell form of a TodoWrite argument that is not JSON.
func invalidJSON(arg string, err error) Output {
	var syn *todo.SyntaxError
	detail := err.Error()
	if errors.As(err, &syn) {
		detail = where(arg, syn)
	}
	return Output{Stderr: "Error: Invalid JSON format\n" + detail + "\n" + WriteUsageLong, ExitCode: 1}
}

// listErrors formats validation messages as "- " lines, at most
// maxListedErrors of them.
func listErrors(msgs []string) string {
	var b strings.Builder
	for i, m := range msgs {
		if i > 0 {
			b.WriteByte('\n')
		}
		if i == maxListedErrors {
			fmt.Fprintf(&b, "- … and %d more", len(msgs)-maxListedErrors)
			break
		}
		b.WriteString("- " + m)
	}
	return b.String()
}

// where says at which line and column of text parsing failed.
func where(text string, syn *todo.SyntaxError) string {
	off := min(max(syn.Offset, 0), len(text))
	line := 1 + strings.Count(text[:off], "\n")
	col := off - strings.LastIndexByte(text[:off], '\n')
	return fmt.Sprintf("Parse error at line %d, column %d: %s", line, col, syn.Msg)
}

func (s *Shell) todoRead(ctx context.Context, args []string) Output {
	asJSON := false
	for _, a := range args {
		if a != "--json" {
			return Output{Stderr: fmt.Sprintf("Error: Unknown argument '%s'\n%s", a, ReadUsage), ExitCode: 1}
		}
		asJSON = true
	}
	use, res := s.call(ctx, todo.ReadName, json.RawMessage(`{}`))
	out := Output{Call: use, Result: &res}
	switch {
	case res.IsError:
		out.Stderr, out.ExitCode = "Error: "+res.Content, 1
	case asJSON:
		out.Stdout = res.Content
	default:
		var list struct {
			Todos []todo.Item `json:"todos"`
		}
		if err := json.Unmarshal([]byte(res.Content), &list); err != nil {
			out.Stderr, out.ExitCode = "Error: "+err.Error(), 1
			break
		}
		out.Stdout = render.Plain(todo.Snapshot{Items: list.Todos})
		// The task plan, when there is one, follows in the same form.
		if tasks := s.taskPlain(ctx); tasks != "" {
			if len(list.Todos) == 0 {
				out.Stdout = tasks
			} else {
				out.Stdout += "\n\nTasks:\n" + tasks
			}
		}
	}
	return out
}

// generic runs any other tool: `Name '<json input>'`, or `Name` for {}.
func (s *Shell) generic(ctx context.Context, name string, args []string) Output {
	usage := fmt.Sprintf("Usage: %s '<JSON input>'", name)
	input := json.RawMessage(`{}`)
	switch {
	case len(args) > 1:
		return Output{Stderr: fmt.Sprintf("Error: Invalid JSON format\nExpected one argument, got %d: quote the JSON in single quotes\n%s", len(args), usage), ExitCode: 1}
	case len(args) == 1:
		if !json.Valid([]byte(args[0])) {
			var v any
			err := json.Unmarshal([]byte(args[0]), &v)
			return Output{Stderr: fmt.Sprintf("Error: Invalid JSON format\n%v\n%s", err, usage), ExitCode: 1}
		}
		if compact, err := todo.CompactInput(args[0]); err == nil {
			input = compact
		}
	}
	use, res := s.call(ctx, name, input)
	out := Output{Call: use, Result: &res}
	if res.IsError {
		out.Stderr, out.ExitCode = "Error: "+strings.TrimSuffix(res.Content, "\n"), 1
		return out
	}
	if res.Offloaded != nil {
		out.Stdout, out.Offloaded = res.Content, res.Offloaded
		return out
	}
	out.Stdout = strings.TrimSuffix(res.Content, "\n")
	return out
}

// offloadStdout offloads an agent command's stdout when it reaches the
// threshold: the text goes to <dir>/<session>/<tool_use_id>.md and Stdout
// becomes the pointer. When the file cannot be written the full text stays
// and a warning says why.
func (s *Shell) offloadStdout(out *Output) {
	if out.Help || out.Call == nil || out.Offloaded != nil || !offload.ShouldOffload(out.Stdout, s.Offload.Threshold) {
		return
	}
	info, warn, err := offload.TextWarn(out.Stdout, out.Call.ID, s.Offload, s.Writer)
	if err != nil {
		out.Warning = offloadWarning(err)
		return
	}
	out.Stdout, out.Offloaded = offload.Pointer(info.Path), info
	if warn != nil {
		out.Warning = offloadWarning(warn)
	}
}
