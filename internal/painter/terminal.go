package painter

import (
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/charmbracelet/colorprofile"
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
	// KeyboardEnhancements asks the terminal to report keys it otherwise
	// sends as others (Shift+Enter as Enter): the kitty keyboard
	// protocol's key disambiguation and xterm's modifyOtherKeys, as
	// Bubble Tea's own renderer asks. A terminal that knows neither
	// ignores both.
	KeyboardEnhancements bool
}

// Terminal is the terminal a front end draws on: its modes set on Open and
// undone on Close, its size, and its resizes.
type Terminal struct {
	In    *os.File // nil when keys do not come from a terminal
	Out   *os.File
	modes Modes

	mu     sync.Mutex
	cooked *term.State // the input's state before raw mode

	typedBefore int  // bytes in the input queue when raw mode was first set
	graphemes   bool // mode 2027 (grapheme clustering) is on
	winch       chan os.Signal
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
			t.typedBefore = queued(t.In)
		}
	}
	s := ansi.HideCursor
	if t.modes.AltScreen {
		s = ansi.SetModeAltScreenSaveCursor + ansi.EraseEntireScreen + ansi.CursorHomePosition + s
	}
	if t.modes.BracketedPaste {
		s += ansi.SetModeBracketedPaste
	}
	if t.modes.KeyboardEnhancements {
		s += ansi.SetModifyOtherKeys2 + ansi.PushKittyKeyboard(ansi.KittyDisambiguateEscapeCodes)
	}
	if t.graphemes {
		s += ansi.SetModeUnicodeCore
	}
	_, _ = t.Out.WriteString(s)
	return nil
}

// SetGraphemes turns the terminal's grapheme clustering (mode 2027) on,
// for as long as the terminal is held: a terminal that reported the mode
// then measures text as ansi.StringWidth does (an emoji ZWJ sequence is
// one wide character). It is turned off for another program, and at the
// end.
func (t *Terminal) SetGraphemes() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.graphemes {
		return
	}
	t.graphemes = true
	_, _ = t.Out.WriteString(ansi.SetModeUnicodeCore)
}

// Release undoes the modes, leaving the terminal as it was before Open
// (auto-wrap on): for another program to use it, or for good.
func (t *Terminal) Release() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := ansi.ShowCursor + ansi.SetModeAutoWrap
	if t.modes.KeyboardEnhancements {
		s = ansi.ResetModifyOtherKeys + ansi.PopKittyKeyboard(1) + s
	}
	if t.graphemes {
		s = ansi.ResetModeUnicodeCore + s
	}
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

// Size is the output terminal's size now: where the terminal says 0×0 (a
// serial console, some CI pty wrappers), COLUMNS and LINES, else 80×24, as
// bash assumes.
func (t *Terminal) Size() (width, rows int, err error) {
	w, h, err := term.GetSize(t.Out.Fd())
	if err != nil {
		return 0, 0, err
	}
	w, h = Fallback(w, h, os.Getenv)
	return w, h, nil
}

// Fallback is width × rows where both are known; where either is 0 (or
// less), that one from COLUMNS or LINES, else 80 or 24.
func Fallback(width, rows int, getenv func(string) string) (int, int) {
	from := func(v string, def int) int {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
			return n
		}
		return def
	}
	if width <= 0 {
		width = from(getenv("COLUMNS"), 80)
	}
	if rows <= 0 {
		rows = from(getenv("LINES"), 24)
	}
	return width, rows
}

// OnResize calls f with the terminal's size now and after every resize
// (SIGWINCH), from a goroutine of its own, until Close. Every size is
// reported, a change of height alone too.
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

// Files are the terminal's input and output, for a program handed the
// terminal (the input is os.Stdin when keys do not come from a terminal).
func (t *Terminal) Files() (in, out *os.File) {
	if t.In == nil {
		return os.Stdin, t.Out
	}
	return t.In, t.Out
}

// Input is the terminal's input for Bubble Tea's reader: the input file,
// with the keys typed before raw mode (in the queue when Open set it,
// typed in cooked mode, whose line discipline turned Enter's CR into LF)
// given back as typed: LF read as CR. Read as it came, a line typed before
// the shell had the terminal would have its Enter taken for Ctrl+J (a new
// line in the input, not run). It is a file, so Bubble Tea can cancel a
// read when it hands the terminal over.
func (t *Terminal) Input() *CookedInput {
	if t.In == nil {
		return nil
	}
	return &CookedInput{File: t.In, cooked: t.typedBefore}
}

// CookedInput is a terminal's input whose first bytes were typed in
// cooked mode (see Terminal.Input).
type CookedInput struct {
	*os.File
	mu     sync.Mutex
	cooked int // bytes still to read that were typed in cooked mode
}

// Read reads the terminal, a line feed typed in cooked mode read as the
// carriage return the key sent.
func (c *CookedInput) Read(b []byte) (int, error) {
	n, err := c.File.Read(b)
	c.mu.Lock()
	k := min(n, c.cooked)
	c.cooked -= k
	c.mu.Unlock()
	for i := range k {
		if b[i] == '\n' {
			b[i] = '\r'
		}
	}
	return n, err
}

// Writer is what to draw on out through: out itself on a terminal of 256
// colours or more, else a writer that brings the colours of what is drawn
// down to what the terminal shows (16 colours, none), as detected from
// env (TERM, COLORTERM, NO_COLOR, CLICOLOR…).
func Writer(out *os.File, env []string) io.Writer {
	p := colorprofile.Detect(out, env)
	if p >= colorprofile.ANSI256 {
		return out
	}
	return &colorprofile.Writer{Forward: out, Profile: p}
}
