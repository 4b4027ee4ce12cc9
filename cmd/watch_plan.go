package cmd

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/todo-shell/todo-shell/internal/follow"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/plans"
	"github.com/todo-shell/todo-shell/internal/watchui"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// planVersion is a task plan's version as watch and replay show plan
// versions: the tasks as panel rows, keyed by their ids (so a task whose
// text changes is the same task, and one deleted unfinished is a drop).
func planVersion(st task.State, rec task.Record) *plan.Version {
	v := &plan.Version{N: int(st.Version), Time: rec.Time, ToolUseID: rec.ToolUseID, Todos: task.Rows(st), Keys: make([]string, len(st.Tasks))}
	for i := range st.Tasks {
		v.Keys[i] = st.Tasks[i].ID
	}
	return v
}

// watchSharedPlan is watch --plan NAME: the shared plan NAME in dir. A
// plan that does not exist is an error for --once (a typo would look like
// an empty plan); live, watch waits for its first task, saying so, and a
// plan still empty when watch ends is removed (unless another process
// uses it): watching leaves nothing behind.
func watchSharedPlan(wo *WatchOptions, name, dir string, limits todo.Limits) error {
	info, ok := plans.Stat(dir)
	if wo.Once && ok && info.Problem != "" {
		return fmt.Errorf("watch: %s", render.Sanitize(info.Problem)) // its journal refused by the read gate
	}
	if wo.Once && (!ok || info.Version == 0) {
		return fmt.Errorf("watch: no plan %s in %s (see todo-shell sessions)", render.Sanitize(name), filepath.Dir(dir))
	}
	h, err := plans.Use(dir)
	if err != nil {
		return err
	}
	defer func() { _ = h.Release() }() // an empty plan it made goes; nothing else to do
	note := ""
	if !ok || info.Version == 0 {
		note = "no plan " + name + " yet: waiting for its first task"
	}
	return watchPlanNote(wo, name, dir, note, limits)
}

// watchPlan is watch --plan: the shared plan in dir, every version of it.
func watchPlan(wo *WatchOptions, name, dir string, limits todo.Limits) error {
	return watchPlanNote(wo, name, dir, "", limits)
}

// watchPlanNote is watchPlan with a note for the header until the first
// version.
func watchPlanNote(wo *WatchOptions, name, dir, note string, limits todo.Limits) error {
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
			send(follow.Update{Source: source, Note: note})
			return task.Watch(ctx, dir, func(st task.State, rec task.Record) {
				v := planVersion(st, rec)
				send(follow.Update{Source: source, Version: v, New: []*plan.Version{v}})
			})
		},
	}
	return watchShow(wo, src, source+" ("+dir+")", limits)
}
