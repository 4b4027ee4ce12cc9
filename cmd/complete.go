package cmd

import (
	"slices"

	"github.com/todo-shell/todo-shell/repl/complete"
	"github.com/todo-shell/todo-shell/router"
)

// replBuiltins are the builtins Tab offers.
var replBuiltins = []string{"/help", "/tools", "/trace", "/session", "/offloads", "/open", "/tty", "/clear", "/exit"}

// newCompleter returns the REPL's Tab completer over the engine; in agent
// mode it offers the agent's builtins too.
func newCompleter(o *Options, a *app, agentMode bool) *complete.Completer {
	builtins := replBuiltins
	if agentMode {
		builtins = append(slices.Clone(replBuiltins), router.AgentBuiltins()...)
	}
	var names []string
	flags := map[string][]string{}
	for _, d := range a.registry.Definitions() {
		names = append(names, d.Name)
		flags[d.Name] = []string{"--help"} // the router's, for every tool
		if c := a.registry.CompleterOf(d.Name); c != nil {
			flags[d.Name] = append(c.ShellFlags(), flags[d.Name]...)
		}
	}
	return &complete.Completer{
		Builtins: builtins,
		Commands: names,
		Flags:    flags,
		Path:     o.Getenv("PATH"),
		Dir:      a.runner.Dir,
		Home:     o.Getenv("HOME"),
		Arg: func(command string) (string, string, bool) {
			if c := a.registry.CompleterOf(command); c != nil {
				return c.ShellArg()
			}
			return "", "", false
		},
	}
}
