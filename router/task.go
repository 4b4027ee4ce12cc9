package router

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// taskUsage is the usage line of a Task tool that takes a JSON argument.
func taskUsage(name string) string {
	switch name {
	case task.CreateName:
		return `Usage: TaskCreate '{"subject":"...","description":"..."}'`
	case task.UpdateName:
		return `Usage: TaskUpdate '{"taskId":"1","status":"in_progress"}'`
	}
	return `Usage: TaskGet '{"taskId":"1"}'`
}

// taskCall runs TaskCreate, TaskUpdate or TaskGet with the shell-level
// errors of TodoWrite: a missing or unquoted argument, JSON that does not
// parse (with where), and every validation message.
func (s *Shell) taskCall(ctx context.Context, name string, args []string) Output {
	usage := taskUsage(name)
	if len(args) == 0 {
		return Output{Stderr: "Error: Missing JSON parameter\n" + usage, ExitCode: 1}
	}
	if len(args) > 1 {
		return Output{Stderr: fmt.Sprintf("Error: Invalid JSON format\nExpected one argument, got %d: quote the JSON in single quotes\n%s", len(args), usage), ExitCode: 1}
	}
	compact, err := todo.CompactInput(args[0])
	if err != nil {
		var syn *todo.SyntaxError
		detail := err.Error()
		if errors.As(err, &syn) {
			detail = where(args[0], syn)
		}
		return Output{Stderr: "Error: Invalid JSON format\n" + detail + "\n" + usage, ExitCode: 1}
	}
	use, res := s.call(ctx, name, compact)
	out := Output{Call: use, Result: &res}
	rep, _ := res.Meta.(task.Report)
	var list *task.ValidationError
	switch {
	case errors.As(rep.Err, &list) && len(list.Messages) > 0:
		out.Stderr, out.ExitCode = "Error: Validation failed\n"+listErrors(list.Messages), 1
	case res.IsError:
		out.Stderr, out.ExitCode = "Error: "+strings.TrimSuffix(res.Content, "\n"), 1
	default:
		out.Stdout = res.Content
	}
	return out
}

// taskPlain is the task plan in TodoRead's plain form ("[>] #2 Writing
// @bob"), or "" when the registry has no task plan or it is empty.
func (s *Shell) taskPlain(ctx context.Context) string {
	if !s.Registry.Has(task.ListName) {
		return ""
	}
	res := s.Registry.Execute(ctx, s.newID(), task.ListName, json.RawMessage(`{}`))
	rep, ok := res.Meta.(task.Report)
	if res.IsError || !ok || len(rep.State.Tasks) == 0 {
		return ""
	}
	return render.Plain(todo.Snapshot{Items: render.TaskItems(rep.State)})
}
