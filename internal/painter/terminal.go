package painter

import (
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// Modes are the terminal modes a front end asks for.
type Modes struct {
	// Raw puts the input terminal into raw mode (keys arrive one by one,
	// unechoed).
	Raw bool
	// BracketedPaste marks pasted text, so a paste is never taken for keys.
	BracketedPaste bool
	// AltScreen draws on the alternate screen (watch), leaving the
	// scrollback as it was.
	AltScreen bool
}

// Terminal is the terminal a front end draws on: its modes set on Open and
// undone on Close, its size, and its resizes.
type Terminal struct {
	In    *os.File // nil when keys do not come from a terminal
	Out   *os.File
	modes Modes

	mu     sync.Mutex
	cooked *term.State // the input's state before raw mode
	winch  chan os.Signal
}

// Open sets out (and in, when it is a terminal and raw mode is asked for)
// up with modes. in may be nil. The cursor is hidden while the terminal is
// held.
func Open(in, out *os.File, modes Modes) (*Terminal, error) {
	t := &Terminal{In: in, Out: out, modes: modes}
	if in != nil && !term.IsTerminal(in.Fd()) {
		t.In = nil
	}
	if err := t.Acquire(); err != nil {
		return nil, err
	}
	return t, nil
}

// Acquire sets the modes: raw mode, bracketed paste, the hidden cursor,
// the alternate screen. Open calls it; the shell calls it again after
// handing the terminal to another program.
func (t *Terminal) Acquire() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.modes.Raw && t.In != nil {
		state, err := term.MakeRaw(t.In.Fd())
		if err != nil {
			return err
		}
		if t.cooked == nil {
			t.cooked = state
		}
	}
	s := ansi.HideCursor
	if t.modes.AltScreen {
		s = ansi.SetModeAltScreenSaveCursor + ansi.EraseEntireScreen + ansi.CursorHomePosition + s
	}
	if t.modes.BracketedPaste {
		s += ansi.SetModeBracketedPaste
	}
	_, _ = t.Out.WriteString(s)
	return nil
}

// Release undoes the modes, leaving the terminal as it was before Open
// (auto-wrap on): for another program to use it, or for good.
func (t *Terminal) Release() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := ansi.ShowCursor + ansi.SetModeAutoWrap
	if t.modes.BracketedPaste {
		s = ansi.ResetModeBracketedPaste + s
	}
	if t.modes.AltScreen {
		s += ansi.ResetModeAltScreenSaveCursor
	}
	_, _ = t.Out.WriteString(s)
	if t.cooked != nil {
		return term.Restore(t.In.Fd(), t.cooked)
	}
	return nil
}

// Close releases the terminal and stops reporting resizes.
func (t *Terminal) Close() error {
	t.mu.Lock()
	if t.winch != nil {
		signal.Stop(t.winch)
		close(t.winch)
		t.winch = nil
	}
	t.mu.Unlock()
	return t.Release()
}

// Size is the output terminal's size now.
func (t *Terminal) Size() (width, rows int, err error) {
	return term.GetSize(t.Out.Fd())
}

// OnResize calls f with the terminal's size now and after every resize
// (SIGWINCH), from a goroutine of its own, until Close.
func (t *Terminal) OnResize(f func(width, rows int)) {
	t.mu.Lock()
	if t.winch == nil {
		t.winch = make(chan os.Signal, 1)
		signal.Notify(t.winch, syscall.SIGWINCH)
	}
	winch := t.winch
	t.mu.Unlock()
	send := func() {
		if w, h, err := t.Size(); err == nil && w > 0 && h > 0 {
			f(w, h)
		}
	}
	go func() {
		send()
		for range winch {
			send()
		}
	}()
}

// SizeOf is the size of the terminal f.
func SizeOf(f *os.File) (width, rows int, err error) { return term.GetSize(f.Fd()) }

// IsTerminal reports whether f is a terminal.
func IsTerminal(f *os.File) bool { return f != nil && term.IsTerminal(f.Fd()) }
