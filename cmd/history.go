package cmd

import (
	"fmt"
	"path/filepath"

	"github.com/todo-shell/todo-shell/repl/history"
)

// openHistory opens the REPL's lasting history: the shell's lines, or in
// agent mode the prompts, each in its own file under
// $XDG_STATE_HOME/todo-shell. --no-history (or no home directory) keeps it
// in memory only. A file that cannot be read gives one warning on stderr
// and an empty history: the shell starts anyway.
func openHistory(o *Options, agentMode bool) *history.History {
	path := ""
	if !o.NoHistory {
		if dir := history.DefaultDir(o.Getenv); dir != "" {
			name := history.ShellFile
			if agentMode {
				name = history.AgentFile
			}
			path = filepath.Join(dir, name)
		}
	}
	h, warning := history.Open(path)
	if warning != "" {
		fmt.Fprintln(o.Streams.ErrOut, "todo-shell: "+warning)
	}
	return h
}
