package cmd

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/repl"
	"github.com/todo-shell/todo-shell/repl/interactive"
	"github.com/todo-shell/todo-shell/repl/markdown"
)

// runREPL starts the interactive shell, inline in the terminal.
func runREPL(o *Options) error {
	a, sess, err := newSessionApp(o, session.ModeShell)
	if err != nil {
		return err
	}
	defer func() {
		saved := closeSession(a, sess, o.Streams.ErrOut)
		printNote(o.Streams.ErrOut, leftNote(o, sess, saved, "todo-shell"))
	}()
	printNote(o.Streams.ErrOut, resumedNote(sess, a.store.Snapshot(), a.tasks.Snapshot(), -1, planOf(o)))
	return runREPLWith(o, a, nil, nil)
}

// runREPLWith runs the shell over an engine, in agent mode when ag is set.
//
// The shell draws through the painter rather than Bubble Tea's renderer
// (docs/BENCHMARKS.md, "The renderer"): Bubble Tea reads and decodes the
// keys, the painter draws, and the terminal set-up Bubble Tea's renderer
// would do is the painter's: raw mode, bracketed paste, keyboard
// enhancements, and window sizes.
func runREPLWith(o *Options, a *app, ag repl.Agent, perm *repl.Permissions) error {
	in, inOK := o.Streams.In.(*os.File)
	out, outOK := o.Streams.Out.(*os.File)
	if !inOK || !outOK {
		return fmt.Errorf("the interactive shell needs a terminal")
	}
	followShared(a)
	hist := openHistory(o, ag != nil) // before raw mode: it may warn

	tty, err := painter.Open(in, out, painter.Modes{Raw: true, BracketedPaste: true, KeyboardEnhancements: true})
	if err != nil {
		return err
	}
	defer func() { _ = tty.Close() }() // gives the terminal back; nothing left to do if that fails

	// The questions todo-shell asks the terminal, once, in raw mode (so
	// the answers are not echoed), waiting for none of them: the
	// background colour (the styles follow it when it comes, as a
	// tea.BackgroundColorMsg) and whether it measures text by grapheme
	// clusters (mode 2027, a tea.ModeReportMsg). Until they come the shell
	// draws for a dark background, or the one COLORFGBG says.
	askTerminal(tty, out)
	env := os.Environ()
	pnt := painter.New(painter.Writer(out, env), tty.Size)
	handle := &repl.ProgramHandle{}
	cfg := shellConfig(o, a, ag, perm)
	cfg.Painter, cfg.Program, cfg.History, cfg.Terminal = pnt, handle, hist, tty
	m := repl.New(cfg)
	p, w, h := newProgram(m, tty, in, out, env, o.Getenv)
	handle.Set(p)
	// Window sizes: on every SIGWINCH, a change of height alone too.
	tty.OnResize(func(w, h int) { p.Send(tea.WindowSizeMsg{Width: w, Height: h}) })

	// A terminal that goes away ends the shell, SIGHUP ignored (nohup) or
	// not: as the signal would, with status 128+1.
	var hungUp atomic.Bool
	stopHangup := tty.OnHangup(func() { hungUp.Store(true); p.Kill() })

	pnt.SetSize(w, h)
	if !teaRenderer {
		pnt.Start()
	}
	stopProgress := replProgress(o, out, a.plan) // what the panel counts: todos, then tasks
	final, err := p.Run()
	stopHangup()
	stopProgress()
	if !teaRenderer {
		pnt.Stop()
	}
	a.runner.Kill() // leave nothing running behind the shell
	if hungUp.Load() {
		return &ExitError{Code: 128 + int(syscall.SIGHUP)}
	}
	if err != nil {
		return err
	}
	if fm, ok := final.(interface{ Model() *repl.Model }); ok && fm.Model().ExitCode() != 0 {
		return &ExitError{Code: fm.Model().ExitCode()} // the user's `exit N`
	}
	return nil
}

// askTerminal writes the shell's questions to the terminal (see
// runREPLWith) when keys, and so its answers, come from it.
func askTerminal(tty *painter.Terminal, out *os.File) {
	if tty.In != nil {
		_, _ = out.WriteString(ansi.RequestBackgroundColor + ansi.RequestModeUnicodeCore)
	}
}

// shellConfig is the shell's configuration but for its terminal, painter,
// program and history: styles for a dark background (or the one COLORFGBG
// says) until the terminal answers.
func shellConfig(o *Options, a *app, ag repl.Agent, perm *repl.Permissions) repl.Config {
	dark := painter.DarkFromEnv(o.Getenv)
	var md *markdown.Styles
	if ag != nil {
		st := markdown.StylesFor(a.noColor, dark)
		md = &st
	}
	styles := render.StylesFor(a.noColor, dark)
	styles.Anchored = true // drawn on a terminal (see render/cells.go)
	return repl.Config{
		Shell:       a.shell,
		Plan:        a.plan,
		Styles:      styles,
		NoColor:     a.noColor,
		Dir:         a.runner.Dir,
		Trace:       o.Trace,
		Agent:       ag,
		Interactive: interactive.New(o.Getenv("TODO_SHELL_INTERACTIVE")),
		Completer:   newCompleter(o, a, ag != nil),
		Markdown:    md,
		Pager:       o.Getenv("PAGER"),
		Permissions: perm,
		// Commands colour as for a terminal, unless the shell draws
		// without colour.
		CommandColors: !a.noColor,
	}
}

// newProgram is the Bubble Tea program of the shell m on tty, and the size
// it starts at (where the terminal says 0×0: COLUMNS×LINES, else 80×24).
func newProgram(m *repl.Model, tty *painter.Terminal, in, out *os.File, env []string, getenv func(string) string) (p *tea.Program, w, h int) {
	w, h, err := tty.Size()
	if err != nil {
		w, h = painter.Fallback(0, 0, getenv)
	}
	var input io.Reader = tty.Input()
	if tty.In == nil {
		input = in
	}
	if teaRenderer {
		return tea.NewProgram(repl.NewTeaRendered(m), tea.WithInput(input), tea.WithOutput(out),
			tea.WithWindowSize(w, h), tea.WithEnvironment(env)), w, h
	}
	p = tea.NewProgram(repl.NewPainted(m), tea.WithInput(input), tea.WithOutput(out),
		tea.WithoutRenderer(), tea.WithWindowSize(w, h), tea.WithEnvironment(env),
		// Without a renderer Bubble Tea's frame ticker only writes queries
		// of its own, and the shell asks none through it: once a second
		// keeps a shell at its prompt from waking 60 times a second.
		tea.WithFPS(1))
	return p, w, h
}
