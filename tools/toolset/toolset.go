// Package toolset assembles todo-shell's standard tools in one registry, in
// the order a model sees them: TodoWrite, TodoRead, TaskCreate, TaskGet,
// TaskUpdate, TaskList, Bash.
package toolset

import (
	"time"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/bash"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Options configure the standard tools.
type Options struct {
	Limits      todo.Limits
	Offload     offload.Config // where Bash streams long output
	BashTimeout time.Duration  // a command's default timeout
	Dir         string         // where Bash starts; "" is the current directory
	Now         func() time.Time
	// Caller is who calls the Task tools when a call's context names no
	// one (see task.WithCaller); "" is a person at the shell.
	Caller string
}

// Set is the standard tools with what backs them.
type Set struct {
	Registry *tools.Registry
	Store    *todo.Store
	Tasks    *task.Store // the task plan, in memory until attached to a directory
	Runner   *bash.Runner
}

// New registers TodoWrite, TodoRead, the Task tools and Bash in a fresh
// registry.
func New(o Options) (*Set, error) {
	s := &Set{Registry: tools.NewRegistry(), Store: todo.NewStore(o.Now), Tasks: task.NewStore(o.Now)}
	if err := todo.Register(s.Registry, s.Store, o.Limits); err != nil {
		return nil, err
	}
	if err := task.Register(s.Registry, s.Tasks, task.Options{Limits: o.Limits, Caller: o.Caller}); err != nil {
		return nil, err
	}
	runner, err := bash.NewRunner(o.Dir)
	if err != nil {
		return nil, err
	}
	s.Runner = runner
	if err := s.Registry.Register(bash.Definition(), bash.Handler(runner, o.BashTimeout, o.Offload)); err != nil {
		return nil, err
	}
	return s, nil
}
