package cmd

import (
	"io"

	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// replProgress keeps the terminal's title (and, where detected, the OSC
// 9;4 bar) on the shell's plan while the plan has items — plan is what the
// panel shows, so the title counts what the panel counts (todos and tasks)
// — until the returned stop is called, which gives the title back. Each
// update is one small write, whole, beside the screen's.
func replProgress(o *Options, out io.Writer, plan *tools.Broker[todo.Snapshot]) (stop func()) {
	if !painter.ProgressEnabled(o.NoProgress, o.Getenv) {
		return func() {}
	}
	p := painter.NewProgress(out, painter.ProgressBarSupported(o.Getenv))
	set := func(s todo.Snapshot) {
		if len(s.Items) > 0 {
			p.Set(s.Items)
		}
	}
	sub := plan.Latest() // starts with the current list
	done := make(chan struct{})
	go func() {
		defer close(done)
		for s := range sub.C() {
			set(s)
		}
	}()
	return func() {
		sub.Close()
		<-done
		p.Close()
	}
}
