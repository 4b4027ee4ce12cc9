package toolset

import (
	"sync"
	"time"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// planFeed publishes what the panel shows — the todo list, then the task
// plan's tasks as rows — as one list, one version per change of either
// store. It is an Every subscriber of both stores, so it misses no change;
// the panel reads its broker as a Latest subscriber, so it may skip to the
// newest list.
type planFeed struct {
	mu          sync.Mutex
	items, rows []todo.Item // the todo list's and the tasks' (shared, never modified)
	version     uint64
	out         *tools.Broker[todo.Snapshot]
}

// feedPlan starts publishing the plan of todos and tasks to out.
func feedPlan(todos *todo.Store, tasks *task.Store, out *tools.Broker[todo.Snapshot]) {
	f := &planFeed{out: out}
	todos.Events().Every(func(s todo.Snapshot) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.items = s.Items
		f.publishLocked(s.UpdatedAt, s.ToolUseID)
	})
	tasks.Events().Every(func(e task.Event) {
		rows := task.Rows(e.State)
		f.mu.Lock()
		defer f.mu.Unlock()
		if len(rows) == 0 && len(f.rows) == 0 {
			return // a plan without tasks attached, or emptied again: the panel has nothing new
		}
		f.rows = rows
		f.publishLocked(e.Record.Time, e.Record.ToolUseID)
	})
}

// publishLocked publishes the todo items and the rows as one list. It runs
// inside the stores' Publish, so changes reach it one at a time, each
// store's in order. A list of todos alone is the store's own slice.
func (f *planFeed) publishLocked(at time.Time, toolUseID string) {
	f.version++
	list := f.items
	if len(f.rows) > 0 {
		list = append(append(make([]todo.Item, 0, len(f.items)+len(f.rows)), f.items...), f.rows...)
	}
	f.out.Publish(todo.Snapshot{Items: list, UpdatedAt: at, Version: f.version, ToolUseID: toolUseID})
}
