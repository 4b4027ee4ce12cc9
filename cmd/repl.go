package cmd

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/repl"
)

// runREPL starts the interactive shell, inline in the terminal.
func runREPL(o *Options) error {
	a, err := newApp(o)
	if err != nil {
		return err
	}
	return runREPLWith(o, a, nil)
}

// runREPLWith runs the shell over an engine, in agent mode when ag is set.
func runREPLWith(o *Options, a *app, ag repl.Agent) error {
	r := lipgloss.NewRenderer(o.Streams.Out)
	if a.noColor {
		r.SetColorProfile(termenv.Ascii)
	}
	// Bubble Tea's init already asked the terminal for its background
	// (through lipgloss's default renderer); reuse the answer rather than ask
	// again.
	r.SetHasDarkBackground(lipgloss.HasDarkBackground())
	m := repl.New(repl.Config{
		Shell:  a.shell,
		Store:  a.store,
		Styles: render.DefaultStyles(r),
		Dir:    a.runner.Dir,
		Trace:  o.Trace,
		Agent:  ag,
	})
	// 30 frames a second is smooth for typing and the spinner, and halves
	// what Bubble Tea v1's renderer costs at idle: it wakes at its frame rate
	// even when nothing changes (see BENCHMARKS.md).
	p := tea.NewProgram(m, tea.WithInput(o.Streams.In), tea.WithOutput(o.Streams.Out), tea.WithFPS(30))
	_, err := p.Run()
	a.runner.Kill() // leave nothing running behind the shell
	return err
}
