package cmd

import (
	"fmt"
	"os"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

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
	printNote(o.Streams.ErrOut, resumedNote(sess, a.store.Snapshot(), -1))
	return runREPLWith(o, a, nil, nil)
}

// runREPLWith runs the shell over an engine, in agent mode when ag is set.
//
// The shell draws through the painter rather than Bubble Tea's renderer,
// which redraws on a ticker even when nothing changed. Running without that
// renderer, the terminal set-up it would do is the painter's: raw mode,
// bracketed paste, the hidden cursor, and window sizes.
func runREPLWith(o *Options, a *app, ag repl.Agent, perm *repl.Permissions) error {
	in, inOK := o.Streams.In.(*os.File)
	out, outOK := o.Streams.Out.(*os.File)
	if !inOK || !outOK {
		return fmt.Errorf("the interactive shell needs a terminal")
	}
	showPanel(a)
	hist := openHistory(o, ag != nil) // before raw mode: it may warn

	tty, err := painter.Open(in, out, painter.Modes{Raw: true, BracketedPaste: true})
	if err != nil {
		return err
	}
	defer func() { _ = tty.Close() }() // gives the terminal back; nothing left to do if that fails

	// The one terminal query todo-shell makes: the background colour, for
	// the adaptive colours, asked in raw mode (so the answer is not echoed)
	// and waited for at most 100 ms.
	bg := tty.QueryBackground(backgroundWait)
	r := newRenderer(out, a.noColor, bg.Dark)
	pnt := painter.New(out, tty.Size)
	var md *markdown.Styles
	if ag != nil {
		st := markdown.DefaultStyles(r)
		md = &st
	}
	m := repl.New(repl.Config{
		Shell:       a.shell,
		Store:       a.panel.store,
		Styles:      render.DefaultStyles(r),
		Dir:         a.runner.Dir,
		Trace:       o.Trace,
		Agent:       ag,
		Painter:     pnt,
		History:     hist,
		Terminal:    tty,
		Interactive: interactive.New(o.Getenv("TODO_SHELL_INTERACTIVE")),
		Completer:   newCompleter(o, a, ag != nil),
		Markdown:    md,
		Pager:       o.Getenv("PAGER"),
		Permissions: perm,
		// Commands colour as for a terminal, unless the shell draws
		// without colour.
		CommandColors: !a.noColor,
	})
	p := tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(out), tea.WithoutRenderer())
	sendKeys(p, typeaheadKeys(bg.Typeahead))
	// Window sizes: now, and on every SIGWINCH. The painter draws nothing
	// before the first.
	tty.OnResize(func(w, h int) { p.Send(tea.WindowSizeMsg{Width: w, Height: h}) })

	// A terminal that goes away ends the shell, SIGHUP ignored (nohup) or
	// not: as the signal would, with status 128+1.
	var hungUp atomic.Bool
	stopHangup := tty.OnHangup(func() { hungUp.Store(true); p.Kill() })

	pnt.SetView(m.View())
	pnt.Start()
	stopProgress := replProgress(o, out, a.store)
	final, err := p.Run()
	stopHangup()
	stopProgress()
	pnt.Stop()
	a.runner.Kill() // leave nothing running behind the shell
	if hungUp.Load() {
		return &ExitError{Code: 128 + int(syscall.SIGHUP)}
	}
	if err != nil {
		return err
	}
	if fm, ok := final.(repl.Model); ok && fm.ExitCode() != 0 {
		return &ExitError{Code: fm.ExitCode()} // the user's `exit N`
	}
	return nil
}

// newRenderer is the renderer of the shell's styles on out: without colour
// when noColor, for a dark background when dark (lipgloss's default
// renderer is told too).
func newRenderer(out *os.File, noColor, dark bool) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(out)
	if noColor {
		r.SetColorProfile(termenv.Ascii)
	}
	r.SetHasDarkBackground(dark)
	lipgloss.SetHasDarkBackground(dark)
	return r
}

// sendKeys sends keys, typed before the program had the terminal, to p
// in a goroutine (Send waits for the program to start).
func sendKeys(p *tea.Program, keys []tea.KeyMsg) {
	if len(keys) == 0 {
		return
	}
	go func() {
		for _, k := range keys {
			p.Send(k)
		}
	}()
}

// backgroundWait is how long the shell waits for the terminal to say what
// its background colour is.
const backgroundWait = 100 * time.Millisecond

// typeaheadKeys turns the bytes typed while the shell waited for the
// terminal's answer into the keys they were: characters, Enter, Tab,
// Backspace and the Ctrl keys. An escape sequence among them is dropped.
func typeaheadKeys(b []byte) []tea.KeyMsg {
	var keys []tea.KeyMsg
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		switch {
		case r == 0x1b:
			return keys // the rest is an escape sequence, cut by the wait
		case r == '\r' || r == '\n':
			keys = append(keys, tea.KeyMsg{Type: tea.KeyEnter})
		case r == 0x7f:
			keys = append(keys, tea.KeyMsg{Type: tea.KeyBackspace})
		case r < 0x20:
			keys = append(keys, tea.KeyMsg{Type: tea.KeyType(r)})
		case r != utf8.RuneError:
			keys = append(keys, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		}
	}
	return keys
}
