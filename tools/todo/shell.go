package todo

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/todo-shell/todo-shell/tools"
)

// Usage lines of the todo commands in a shell.
const (
	WriteUsageShort = `Usage: TodoWrite '{"todos":[...]}'`
	WriteUsageLong  = `Usage: TodoWrite '{"todos":[{"content":"...","activeForm":"...","status":"pending"}]}'`
	ReadUsage       = `Usage: TodoRead [--json]`
)

// maxListedErrors is how many validation messages the shell lists.
const maxListedErrors = 20

// WriteTool is TodoWrite as one value, with its shell form: one JSON
// argument in, "Todo list updated: …" or every validation message out.
type WriteTool struct {
	Store  *Store
	Limits Limits
}

// ReadTool is TodoRead as one value, with its shell form: the list as plain
// lines, or the tool result itself with --json.
type ReadTool struct {
	Store *Store
	// Plain draws the list for a person (render.Plain); nil shows the
	// JSON content as --json does.
	Plain func(Snapshot) string
}

var (
	_ tools.Tool           = WriteTool{}
	_ tools.Shell          = WriteTool{}
	_ tools.Summarizer     = WriteTool{}
	_ tools.Tool           = ReadTool{}
	_ tools.Shell          = ReadTool{}
	_ tools.ShellCompleter = WriteTool{}
	_ tools.ShellCompleter = ReadTool{}
)

// ShellFlags: TodoWrite takes none.
func (WriteTool) ShellFlags() []string { return nil }

// ShellArg offers the current list as TodoWrite's argument, to edit.
func (t WriteTool) ShellArg() (insert, display string, ok bool) {
	if t.Store == nil {
		return "", "", false
	}
	return EditableArg(t.Store.Snapshot().Items), "the current list", true
}

// EditableArg is a list as TodoWrite's argument: pretty-printed JSON in
// single quotes, ready to edit; an empty list gives a one-item template. A
// single quote in the text becomes \u0027, so the quoting holds.
func EditableArg(items []Item) string {
	if len(items) == 0 {
		items = []Item{{Content: "", Status: StatusPending, ActiveForm: ""}}
	}
	b, _ := json.MarshalIndent(struct {
		Todos []Item `json:"todos"`
	}{items}, "", "  ")
	return "'" + strings.ReplaceAll(string(b), "'", `\u0027`) + "'"
}

// ShellFlags: --json.
func (ReadTool) ShellFlags() []string { return []string{"--json"} }

// ShellArg: TodoRead offers no argument.
func (ReadTool) ShellArg() (insert, display string, ok bool) { return "", "", false }

// CallSummary is TodoWrite(N todos).
func (WriteTool) CallSummary(input json.RawMessage) string {
	var in struct {
		Todos []json.RawMessage `json:"todos"`
	}
	_ = json.Unmarshal(input, &in) // a bad input shows as 0 todos
	return "TodoWrite(" + strconv.Itoa(len(in.Todos)) + " todos)"
}

// Definition returns TodoWrite's definition.
func (t WriteTool) Definition() tools.Definition { return WriteDefinition(t.Limits) }

// ShellInput takes exactly one argument, the JSON input. An argument typed
// over several lines is compacted (after a syntax check), so it is the same
// input as its one-line form; a one-line argument goes as typed and the
// handler checks it.
func (WriteTool) ShellInput(args []string) (json.RawMessage, *tools.ShellForm) {
	if len(args) == 0 {
		return nil, &tools.ShellForm{Stderr: "Error: Missing JSON parameter\n" + WriteUsageShort, ExitCode: 1}
	}
	if len(args) > 1 {
		form := tools.ArgsError(args, WriteUsageLong)
		form.NoCall = false
		return nil, form
	}
	arg := args[0]
	if strings.TrimSpace(arg) == "" {
		form := tools.EmptyArgError(WriteUsageLong)
		form.NoCall = false
		return nil, form
	}
	if strings.ContainsAny(arg, "\n\r\t") {
		compact, err := CompactInput(arg)
		if err != nil {
			form := invalidJSON(arg, err)
			return nil, &form
		}
		return compact, nil
	}
	return rawView(arg), nil
}

// ShellForm is the summary line of a list written, or why it was not.
func (WriteTool) ShellForm(args []string, res tools.ToolResult) tools.ShellForm {
	rep, _ := res.Meta.(WriteReport)
	var list *ValidationError
	var syn *SyntaxError
	switch {
	case errors.As(rep.Err, &syn):
		// Not JSON: no tool_use can carry it, so the line shows none.
		arg := ""
		if len(args) == 1 {
			arg = args[0]
		}
		return invalidJSON(arg, syn)
	case errors.As(rep.Err, &list):
		msg := withHint("Error: Validation failed\n"+ListErrors(list.Messages), oldShapeHint(list.Messages))
		if len(args) == 1 && !strings.HasPrefix(strings.TrimSpace(args[0]), "{") {
			msg += "\n" + WriteUsageShort // not an object at all (`TodoWrite 2`)
		}
		return tools.ShellForm{Stderr: msg, ExitCode: 1}
	case res.IsError:
		return tools.ShellForm{Stderr: "Error: " + res.Content, ExitCode: 1}
	}
	return tools.ShellForm{Stdout: UpdatedText(rep.Completed, rep.InProgress, rep.Pending)}
}

// UpdatedText is TodoWrite's success line in a shell.
func UpdatedText(completed, inProgress, pending int) string {
	return "Todo list updated: " + strconv.Itoa(completed) + " completed, " +
		strconv.Itoa(inProgress) + " in_progress, " + strconv.Itoa(pending) + " pending"
}

// rawView returns the bytes of s without copying them. Handlers neither
// modify nor keep their input (see tools.Handler), and s is never changed.
func rawView(s string) json.RawMessage {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// invalidJSON is the shell form of a TodoWrite argument that is not JSON.
func invalidJSON(arg string, err error) tools.ShellForm {
	var syn *SyntaxError
	detail := err.Error()
	if errors.As(err, &syn) {
		detail = where(arg, syn)
	}
	return tools.ShellForm{Stderr: "Error: Invalid JSON format\n" + detail + "\n" + WriteUsageLong, ExitCode: 1, NoCall: true}
}

// ListErrors formats validation messages as "- " lines, at most
// maxListedErrors (20) of them: the shell form of a list of errors, for
// every tool of the plan.
func ListErrors(msgs []string) string {
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
func where(text string, syn *SyntaxError) string {
	off := min(max(syn.Offset, 0), len(text))
	line := 1 + strings.Count(text[:off], "\n")
	col := off - strings.LastIndexByte(text[:off], '\n')
	return fmt.Sprintf("Parse error at line %d, column %d: %s", line, col, syn.Msg)
}

// Definition returns TodoRead's definition.
func (ReadTool) Definition() tools.Definition { return ReadDefinition() }

// ShellInput takes no argument but --json.
func (ReadTool) ShellInput(args []string) (json.RawMessage, *tools.ShellForm) {
	for _, a := range args {
		if a != "--json" {
			return nil, &tools.ShellForm{Stderr: fmt.Sprintf("Error: Unknown argument '%s'\n%s", a, ReadUsage), ExitCode: 1}
		}
	}
	return json.RawMessage(`{}`), nil
}

// ShellForm is the list as plain lines, or with --json the content.
func (t ReadTool) ShellForm(args []string, res tools.ToolResult) tools.ShellForm {
	if res.IsError {
		return tools.ShellForm{Stderr: "Error: " + res.Content, ExitCode: 1}
	}
	snap, ok := res.Meta.(Snapshot)
	if len(args) > 0 || !ok || t.Plain == nil {
		return tools.ShellForm{Stdout: res.Content}
	}
	return tools.ShellForm{Stdout: t.Plain(snap), Whole: true} // a person's own list
}

// oldShapeHint is said when a TodoWrite list has the fields of Claude
// Code 1.x's todos (id, priority): todo-shell takes today's shape.
func oldShapeHint(msgs []string) string {
	for _, m := range msgs {
		if strings.HasSuffix(m, "unknown field 'id'") || strings.HasSuffix(m, "unknown field 'priority'") {
			// One line: the view wraps it to the terminal's width.
			return "Hint: id and priority are the fields of Claude Code 1.x's TodoWrite. " +
				"todo-shell takes each todo as {\"content\", \"activeForm\", \"status\"}: drop id " +
				"and priority, and add activeForm (shown while it runs: \"Running tests\")."
		}
	}
	return ""
}

// withHint adds a hint line to an error text.
func withHint(stderr, hint string) string {
	if hint == "" {
		return stderr
	}
	return strings.TrimSuffix(stderr, "\n") + "\n" + hint
}
