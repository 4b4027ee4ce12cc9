package task

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Tool is one Task tool as a value (tools.Tool), with its shell form: the
// JSON argument in with TodoWrite's shell-level errors (missing, unquoted,
// not JSON — with where), every validation message out.
type Tool struct {
	def     tools.Definition
	handler tools.Handler
}

var (
	_ tools.Tool           = Tool{}
	_ tools.Shell          = Tool{}
	_ tools.ShellCompleter = Tool{}
)

// ShellFlags: none but -h.
func (t Tool) ShellFlags() []string { return nil }

// ShellArg offers the tool's template (TaskCreate's empty subject and
// description, to fill in); TaskList takes no argument.
func (t Tool) ShellArg() (insert, display string, ok bool) {
	insert, ok = Templates()[t.def.Name]
	return insert, "a template", ok
}

// Definition returns the tool's definition.
func (t Tool) Definition() tools.Definition { return t.def }

// Call runs the tool.
func (t Tool) Call(ctx context.Context, input json.RawMessage) (tools.Result, error) {
	return t.handler(ctx, input)
}

// usage is the usage line of the tool in a shell.
func (t Tool) usage() string {
	switch t.def.Name {
	case CreateName:
		return `Usage: TaskCreate '{"subject":"...","description":"..."}'`
	case UpdateName:
		return `Usage: TaskUpdate '{"taskId":"1","status":"in_progress"}'`
	case GetName:
		return `Usage: TaskGet '{"taskId":"1"}'`
	}
	return "Usage: " + t.def.Name
}

// ShellInput takes the one JSON argument (TaskList: none).
func (t Tool) ShellInput(args []string) (json.RawMessage, *tools.ShellForm) {
	if t.def.Name == ListName {
		return tools.ShellInput(t.def.Name, args)
	}
	usage := t.usage()
	switch {
	case len(args) == 0:
		return nil, &tools.ShellForm{Stderr: "Error: Missing JSON parameter\n" + usage, ExitCode: 1, NoCall: true}
	case len(args) > 1:
		return nil, tools.ArgsError(args, usage)
	case strings.TrimSpace(args[0]) == "":
		return nil, tools.EmptyArgError(usage)
	}
	compact, err := todo.CompactInput(args[0])
	if err != nil {
		detail := err.Error()
		var syn *todo.SyntaxError
		if errors.As(err, &syn) {
			detail = where(args[0], syn)
		}
		return nil, &tools.ShellForm{Stderr: "Error: Invalid JSON format\n" + detail + "\n" + usage, ExitCode: 1, NoCall: true}
	}
	return compact, nil
}

// ShellForm lists every validation message of a rejected input, with the
// usage line when the argument is not a JSON object (`TaskGet 2`); anything
// else is the generic form.
func (t Tool) ShellForm(args []string, res tools.ToolResult) tools.ShellForm {
	rep, _ := res.Meta.(Report)
	var list *ValidationError
	if errors.As(rep.Err, &list) && len(list.Messages) > 0 {
		msg := "Error: Validation failed\n" + todo.ListErrors(list.Messages)
		if len(args) == 1 && !strings.HasPrefix(strings.TrimSpace(args[0]), "{") {
			msg += "\n" + t.usageFor(args[0])
		}
		return tools.ShellForm{Stderr: msg, ExitCode: 1}
	}
	form := tools.GenericForm(res)
	form.Whole = t.def.Name == ListName || t.def.Name == GetName // read by a person
	return form
}

// usageFor is the usage line for a line whose argument, arg, is JSON but
// not an object: for a task id alone (`TaskGet 2`, `TaskUpdate "3"`), the
// call with that id.
func (t Tool) usageFor(arg string) string {
	id := strings.Trim(strings.TrimSpace(arg), `"`)
	if (t.def.Name == GetName || t.def.Name == UpdateName) && id != "" && strings.Trim(id, "0123456789") == "" {
		if t.def.Name == GetName {
			return fmt.Sprintf(`Usage: TaskGet '{"taskId":%q}'`, id)
		}
		return fmt.Sprintf(`Usage: TaskUpdate '{"taskId":%q,"status":"in_progress"}'`, id)
	}
	return t.usage()
}

// where says at which line and column of text parsing failed.
func where(text string, syn *todo.SyntaxError) string {
	off := min(max(syn.Offset, 0), len(text))
	line := 1 + strings.Count(text[:off], "\n")
	col := off - strings.LastIndexByte(text[:off], '\n')
	return fmt.Sprintf("Parse error at line %d, column %d: %s", line, col, syn.Msg)
}
