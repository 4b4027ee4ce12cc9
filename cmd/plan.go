package cmd

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"github.com/todo-shell/todo-shell/internal/plans"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/repl/history"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// EnvPlan names the shared plan when --plan is not given.
const EnvPlan = "TODO_SHELL_PLAN"

// planName returns the shared plan asked for (--plan, else TODO_SHELL_PLAN),
// or "" for none.
func planName(o *Options) (string, error) {
	name := o.Plan
	if name == "" {
		name = o.Getenv(EnvPlan)
	}
	if name == "" {
		return "", nil
	}
	if err := offload.CheckID("plan name", name); err != nil {
		return "", &UsageError{fmt.Errorf("--plan: %w", err)}
	}
	return name, nil
}

// planOf is the shared plan's name for notes: "" when there is none or the
// name is not valid (the run has refused it already).
func planOf(o *Options) string {
	name, err := planName(o)
	if err != nil {
		return ""
	}
	return name
}

// planDir is where the shared plan name lives:
// $XDG_STATE_HOME/todo-shell/plans/NAME.
func planDir(o *Options, name string) (string, error) {
	base := history.DefaultDir(o.Getenv)
	if base == "" {
		return "", fmt.Errorf("--plan: no state directory (set XDG_STATE_HOME or HOME)")
	}
	return filepath.Join(base, "plans", name), nil
}

// attachPlan puts the app's task plan on disk: the shared plan named by
// --plan, else sessionDir ("" keeps it in memory). A shared plan is
// followed, so the panel shows what other processes do to it.
func attachPlan(o *Options, a *app, sessionDir string) error {
	name, err := planName(o)
	if err != nil {
		return err
	}
	dir := sessionDir
	if name != "" {
		if dir, err = planDir(o, name); err != nil {
			return err
		}
	}
	if dir == "" {
		return nil
	}
	attach := a.tasks.Attach
	if name == "" {
		attach = a.tasks.AttachLazy // a session's files appear with its first task
	} else {
		// In use while this process runs: clean leaves it alone.
		if a.planHold, err = plans.Use(dir); err != nil {
			return fmt.Errorf("task plan: %w", err)
		}
	}
	if err := attach(dir); err != nil {
		_ = a.planHold.Release()
		a.planHold = nil
		return fmt.Errorf("task plan: %w", err)
	}
	a.shared = name != ""
	return nil
}

// showPanel turns the panel on; for a shared plan it also follows the plan,
// so the panel shows what other processes do to it as they do it.
func showPanel(a *app) {
	a.panel.enable()
	if !a.shared {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = a.tasks.Follow(ctx)
	}()
	a.stop = func() { cancel(); <-done }
}

// panelMirror keeps a store holding what the panel shows — the todo list,
// then the task plan's tasks as rows — up to date with both.
//
// It stays off (and costs nothing) until enable: front ends without a panel
// (mcp, serve, -c without --panel) never pay for drawing rows.
type panelMirror struct {
	mu          sync.Mutex
	on          bool
	items, rows []todo.Item
	store       *todo.Store
	todos       *todo.Store
	tasks       *task.Store
}

// newPanel returns the panel's store, fed by todos and tasks.
func newPanel(todos *todo.Store, tasks *task.Store) *panelMirror {
	m := &panelMirror{store: todo.NewStore(nil), todos: todos, tasks: tasks}
	todos.OnWrite(func(s todo.Snapshot) { m.set(s.Items, nil, true, false) })
	tasks.OnChange(func(st task.State, _ task.Record) {
		if m.enabled() {
			m.set(nil, render.TaskItems(st), false, true)
		}
	})
	return m
}

func (m *panelMirror) set(items, rows []todo.Item, todos, tasks bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.on {
		return
	}
	if todos {
		m.items = items
	}
	if tasks {
		m.rows = rows
	}
	merged := make([]todo.Item, 0, len(m.items)+len(m.rows))
	m.store.Replace(append(append(merged, m.items...), m.rows...))
}

func (m *panelMirror) enabled() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.on
}

// enable turns the mirror on and takes the stores' current lists (a
// restored todo list arrives by Restore, which OnWrite hooks do not hear).
func (m *panelMirror) enable() {
	m.mu.Lock()
	m.on = true
	m.mu.Unlock()
	items, st := m.todos.Snapshot().Items, m.tasks.Snapshot()
	if len(items)+len(st.Tasks) > 0 {
		m.set(items, render.TaskItems(st), true, true)
	}
}

// closeTasks stops following the plan and closes it.
func closeTasks(a *app, errOut io.Writer) {
	if a == nil {
		return
	}
	a.stop()
	if err := a.tasks.Close(); err != nil {
		fmt.Fprintln(errOut, "todo-shell: warning: task plan not saved: "+err.Error())
	}
	// A shared plan that never got a task, and no other process uses, goes.
	if err := a.planHold.Release(); err != nil {
		fmt.Fprintln(errOut, "todo-shell: warning: empty task plan not removed: "+err.Error())
	}
	a.planHold = nil
}
