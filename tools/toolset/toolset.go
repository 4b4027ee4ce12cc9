// Package toolset assembles todo-shell's standard tools in one registry, in
// the order a model sees them: TodoWrite, TodoRead, Bash.
package toolset

import (
	"time"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/bash"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Options configure the standard tools.
type Options struct {
	Limits      todo.Limits
	Offload     offload.Config // where Bash streams long output
	BashTimeout time.Duration  // a command's default timeout
	Dir         string         // where Bash starts; "" is the current directory
	Now         func() time.Time
}

// Set is the standard tools with what backs them.
type Set struct {
	Registry *tools.Registry
	Store    *todo.Store
	Runner   *bash.Runner
}

// New registers TodoWrite, TodoRead and Bash in a fresh registry.
func New(o Options) (*Set, error) {
	s := &Set{Registry: tools.NewRegistry(), Store: todo.NewStore(o.Now)}
	if err := todo.Register(s.Registry, s.Store, o.Limits); err != nil {
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
