package cmd

import (
	"bytes"
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
	printNote(o.Streams.ErrOut, resumedNote(sess, a.store.Snapshot(), a.tasks.Snapshot(), -1, planOf(o)))
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
// Backspace, the Ctrl keys, the cursor keys' escape sequences (arrows,
// Home, End, Delete, Page Up/Down, Ctrl+arrows, in both the CSI and the SS3
// form), Alt+character and a bracketed paste. Another escape sequence is
// dropped whole, as is one cut short by the wait.
func typeaheadKeys(b []byte) []tea.KeyMsg {
	var keys []tea.KeyMsg
	for len(b) > 0 {
		if b[0] == 0x1b {
			k, n, ok := typeaheadEscape(b)
			if ok {
				keys = append(keys, k)
			}
			b = b[n:]
			continue
		}
		r, n := utf8.DecodeRune(b)
		b = b[n:]
		switch {
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

// typeaheadEscape reads the escape sequence at the start of b (b[0] is
// ESC): the key it is, the bytes it takes, and whether it is a key the shell
// knows (an unknown or cut sequence takes its bytes and is no key).
func typeaheadEscape(b []byte) (k tea.KeyMsg, n int, ok bool) {
	if len(b) < 2 {
		return k, len(b), false // cut by the wait, or a lone Escape: nothing to do
	}
	switch b[1] {
	case '[':
		// CSI: parameters, intermediates, then one final byte.
		i := 2
		for i < len(b) && b[i] >= 0x20 && b[i] <= 0x3f {
			i++
		}
		if i == len(b) {
			return k, len(b), false // cut
		}
		if b[i] < 0x40 || b[i] > 0x7e {
			return k, i, false // no final byte: not a sequence
		}
		seq := string(b[1 : i+1])
		if seq == "[200~" { // a bracketed paste, up to its end
			body := b[i+1:]
			end := bytes.Index(body, []byte("\x1b[201~"))
			if end < 0 {
				return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(string(body)), Paste: true}, len(b), len(body) > 0
			}
			return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(string(body[:end])), Paste: true}, i + 1 + end + len("\x1b[201~"), end > 0
		}
		t, ok := typeaheadSequences[seq]
		return tea.KeyMsg{Type: t}, i + 1, ok
	case 'O':
		// SS3: one more byte (cursor keys in application mode).
		if len(b) < 3 {
			return k, len(b), false
		}
		t, ok := typeaheadSequences[string(b[1:3])]
		return tea.KeyMsg{Type: t}, 3, ok
	}
	r, size := utf8.DecodeRune(b[1:])
	if r < 0x20 || r == 0x7f || r == utf8.RuneError {
		return k, 1, false // the next byte is a key of its own
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: true}, 1 + size, true
}

// typeaheadSequences are the cursor keys' sequences, after the ESC.
var typeaheadSequences = map[string]tea.KeyType{
	"[A": tea.KeyUp, "[B": tea.KeyDown, "[C": tea.KeyRight, "[D": tea.KeyLeft,
	"OA": tea.KeyUp, "OB": tea.KeyDown, "OC": tea.KeyRight, "OD": tea.KeyLeft,
	"[H": tea.KeyHome, "[F": tea.KeyEnd, "OH": tea.KeyHome, "OF": tea.KeyEnd,
	"[1~": tea.KeyHome, "[7~": tea.KeyHome, "[4~": tea.KeyEnd, "[8~": tea.KeyEnd,
	"[3~": tea.KeyDelete, "[5~": tea.KeyPgUp, "[6~": tea.KeyPgDown,
	"[1;5A": tea.KeyCtrlUp, "[1;5B": tea.KeyCtrlDown, "[1;5C": tea.KeyCtrlRight, "[1;5D": tea.KeyCtrlLeft,
	"[1;5H": tea.KeyCtrlHome, "[1;5F": tea.KeyCtrlEnd,
}
