// Package toolset assembles todo-shell's standard tools in one registry, in
// the order a model sees them: TodoWrite, TodoRead, TaskCreate, TaskGet,
// TaskUpdate, TaskList, Bash, and the executor every front end runs them
// through.
package toolset

import (
	"time"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/bash"
	"github.com/todo-shell/todo-shell/tools/files"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Options configure the standard tools.
type Options struct {
	Limits      todo.Limits
	Offload     offload.Config     // the offload policy every call runs under
	Writer      offload.FileWriter // writes results already in memory; nil means Offload.FS
	BashTimeout time.Duration      // a command's default timeout
	Dir         string             // where Bash starts; "" is the current directory
	Now         func() time.Time
	// Caller is who calls the Task tools when a call's context names no
	// one (see task.WithCaller); "" is a person at the shell.
	Caller string
	// Files adds Read, Write and Edit (not for the MCP server: agents
	// there have their own).
	Files bool
	// Plain draws TodoRead's list, then the task plan, for a person at a
	// shell (render.PlainPlan); nil shows the tool's content.
	Plain func(todo.Snapshot, task.State) string
	// Redact masks secrets in what Bash streams or spools and in every
	// result the executor returns; nil masks nothing.
	Redact *tools.Redactor
}

// Set is the standard tools with what backs them.
type Set struct {
	Registry *tools.Registry
	// Executor runs the registry's tools under the offload policy: every
	// front end calls through it.
	Executor *tools.Executor
	Store    *todo.Store
	Tasks    *task.Store // the task plan, in memory until attached to a directory
	// Plan publishes what the panel shows: the todo list, then the task
	// plan's tasks as rows, one version per change of either. Its last
	// value is the current plan (none before the first change).
	Plan   *tools.Broker[todo.Snapshot]
	Runner *bash.Runner
}

// New registers TodoWrite, TodoRead, the Task tools and Bash, with their
// shell forms, in a fresh registry and returns them with an executor
// applying o.Offload.
func New(o Options) (*Set, error) {
	s := &Set{Registry: tools.NewRegistry(), Store: todo.NewStore(o.Now), Tasks: task.NewStore(o.Now), Plan: new(tools.Broker[todo.Snapshot])}
	feedPlan(s.Store, s.Tasks, s.Plan)
	var plain func(todo.Snapshot) string
	if o.Plain != nil {
		plain = func(snap todo.Snapshot) string { return o.Plain(snap, s.Tasks.Snapshot()) }
	}
	if err := todo.Register(s.Registry, s.Store, o.Limits, plain); err != nil {
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
	if err := s.Registry.Add(bash.Tool{Runner: runner, Timeout: o.BashTimeout, Offload: o.Offload, Redact: o.Redact}); err != nil {
		return nil, err
	}
	if o.Files {
		st := files.NewState()
		st.Dir = runner.Dir
		if err := files.Register(s.Registry, st); err != nil {
			return nil, err
		}
	}
	s.Executor = tools.NewExecutor(s.Registry, offload.Policy{Config: o.Offload, Writer: o.Writer}).Redacting(o.Redact)
	return s, nil
}
