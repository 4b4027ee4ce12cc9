package cmd

import (
	"github.com/todo-shell/todo-shell/repl/complete"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// replBuiltins are the builtins Tab offers.
var replBuiltins = []string{"/help", "/tools", "/trace", "/session", "/offloads", "/open", "/tty", "/clear", "/exit"}

// newCompleter returns the REPL's Tab completer over the engine.
func newCompleter(o *Options, a *app) *complete.Completer {
	var names []string
	for _, d := range a.registry.Definitions() {
		names = append(names, d.Name)
	}
	return &complete.Completer{
		Builtins: replBuiltins,
		Commands: names,
		Flags: map[string][]string{todo.ReadName: {"--json", "--help"}, todo.WriteName: {"--help"},
			task.CreateName: {"--help"}, task.UpdateName: {"--help"}, task.GetName: {"--help"}, task.ListName: {"--help"}},
		Templates: task.Templates(),
		Path:      o.Getenv("PATH"),
		Dir:       a.runner.Dir,
		Home:      o.Getenv("HOME"),
		Todos:     func() []todo.Item { return a.store.Snapshot().Items },
	}
}
