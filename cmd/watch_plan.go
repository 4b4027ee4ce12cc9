package cmd

import (
	"context"

	"github.com/todo-shell/todo-shell/internal/follow"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/watchui"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// planVersion is a task plan's version as watch and replay show plan
// versions: the tasks as panel rows, keyed by their ids (so a task whose
// text changes is the same task, and one deleted unfinished is a drop).
func planVersion(st task.State, rec task.Record) *plan.Version {
	v := &plan.Version{N: int(st.Version), Time: rec.Time, ToolUseID: rec.ToolUseID, Todos: render.TaskItems(st), Keys: make([]string, len(st.Tasks))}
	for i := range st.Tasks {
		v.Keys[i] = st.Tasks[i].ID
	}
	return v
}

// watchPlan is watch --plan: the shared plan in dir, every version of it.
func watchPlan(wo *WatchOptions, name, dir string, limits todo.Limits) error {
	source := "plan " + name // "plan build", "plan of session ID"
	src := watchui.Source{
		Once: func() (follow.Update, error) {
			var last task.Record
			st, err := task.ReadDir(dir, func(_ task.State, r task.Record) { last = r })
			if err != nil || st.Version == 0 {
				return follow.Update{}, err
			}
			v := planVersion(st, last)
			return follow.Update{Source: source, Version: v, New: []*plan.Version{v}}, nil
		},
		Follow: func(ctx context.Context, send func(follow.Update)) error {
			send(follow.Update{Source: source})
			return task.Watch(ctx, dir, func(st task.State, rec task.Record) {
				v := planVersion(st, rec)
				send(follow.Update{Source: source, Version: v, New: []*plan.Version{v}})
			})
		},
	}
	return watchShow(wo, src, source+" ("+dir+")", limits)
}
