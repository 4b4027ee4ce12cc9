// Package live draws todo-shell's task panel on a terminal outside the
// REPL: the whole-screen panel of `todo-shell watch` and the scrolling
// playback of `todo-shell replay`. It knows bytes and escape codes, not
// where plans come from; it draws nothing until it is told to.
package live

import (
	"io"
	"strings"
)

// Key is a key the viewers act on.
type Key uint8

// Keys.
const (
	KeyQuit Key = iota + 1 // q, Ctrl+C, Ctrl+D
	KeyNext                // → or space (or Enter, j, l, n)
	KeyBack                // ← (or h, k, p)
)

// Decode turns bytes read from a terminal in raw mode into keys; other
// bytes are ignored.
func Decode(b []byte) []Key {
	var keys []Key
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case 'q', 'Q', 0x03, 0x04:
			keys = append(keys, KeyQuit)
		case ' ', '\r', '\n', 'l', 'n', 'j':
			keys = append(keys, KeyNext)
		case 'h', 'p', 'k':
			keys = append(keys, KeyBack)
		case 0x1b:
			// CSI or SS3 arrow: ESC [ C / ESC O C (right), D (left).
			if i+2 < len(b) && (b[i+1] == '[' || b[i+1] == 'O') {
				switch b[i+2] {
				case 'C':
					keys = append(keys, KeyNext)
				case 'D':
					keys = append(keys, KeyBack)
				}
				i += 2
			}
		}
	}
	return keys
}

// ReadKeys reads r (a terminal in raw mode) and sends each key on ch until
// r fails. Blocked in read, it costs nothing while no key is pressed.
func ReadKeys(r io.Reader, ch chan<- Key) {
	buf := make([]byte, 64)
	for {
		n, err := r.Read(buf)
		for _, k := range Decode(buf[:n]) {
			ch <- k
		}
		if err != nil {
			return
		}
	}
}

// Terminal escape sequences the viewers use.
const (
	altScreenOn  = "\x1b[?1049h\x1b[?25l"
	altScreenOff = "\x1b[?25h\x1b[?1049l"
	home         = "\x1b[H"
	clearBelow   = "\x1b[J"
	clearLine    = "\x1b[K"
)

// crlf turns "\n" into "\r\n": in raw mode the terminal does not return the
// carriage itself.
func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// Screen is the whole-screen view of watch: one panel and a status line on
// the alternate screen.
type Screen struct {
	w    io.Writer
	last string
}

// NewScreen switches w to the alternate screen. Close switches back.
func NewScreen(w io.Writer) *Screen {
	_, _ = io.WriteString(w, altScreenOn) // the terminal: nothing to do when a write fails
	return &Screen{w: w}
}

// Draw shows body (lines) from the top of the screen, each line cleared to
// its end, and clears what is below. Drawing the same body twice writes
// nothing the second time.
func (s *Screen) Draw(body string) {
	if body == s.last {
		return
	}
	s.last = body
	var b strings.Builder
	b.WriteString(home)
	for i, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		if i > 0 {
			b.WriteString("\r\n")
		}
		b.WriteString(line)
		b.WriteString(clearLine)
	}
	b.WriteString(clearBelow)
	_, _ = io.WriteString(s.w, b.String())
}

// Redraw draws the last body again (after a resize clears the screen).
func (s *Screen) Redraw() {
	body := s.last
	s.last = "\x00"
	s.Draw(body)
}

// Close leaves the alternate screen.
func (s *Screen) Close() { _, _ = io.WriteString(s.w, altScreenOff) }

// Scroll prints lines into the terminal's scrollback with a panel pinned
// under them, as the shell does: each Print erases the panel, prints, and
// draws the panel again.
type Scroll struct {
	w      io.Writer
	panel  string
	height int // lines the drawn panel takes
}

// NewScroll returns a Scroll writing to w (a terminal in raw mode).
func NewScroll(w io.Writer) *Scroll { return &Scroll{w: w} }

// Print adds text (one or more lines) above the panel.
func (s *Scroll) Print(text string) {
	var b strings.Builder
	s.erase(&b)
	b.WriteString(crlf(strings.TrimSuffix(text, "\n")))
	b.WriteString("\r\n")
	s.draw(&b)
	_, _ = io.WriteString(s.w, b.String())
}

// SetPanel replaces the panel.
func (s *Scroll) SetPanel(panel string) {
	if panel == s.panel {
		return
	}
	var b strings.Builder
	s.erase(&b)
	s.panel = panel
	s.draw(&b)
	_, _ = io.WriteString(s.w, b.String())
}

// Clear clears the screen and forgets the panel's place (for going back a
// step, which redraws from scratch).
func (s *Scroll) Clear() {
	_, _ = io.WriteString(s.w, "\x1b[H\x1b[2J")
	s.height = 0
	s.panel = ""
}

func (s *Scroll) erase(b *strings.Builder) {
	if s.height > 0 {
		b.WriteString("\r\x1b[")
		b.WriteString(itoa(s.height))
		b.WriteString("A")
		b.WriteString(clearBelow)
	}
	s.height = 0
}

func (s *Scroll) draw(b *strings.Builder) {
	if s.panel == "" {
		return
	}
	p := strings.TrimSuffix(s.panel, "\n")
	b.WriteString(crlf(p))
	b.WriteString("\r\n")
	s.height = strings.Count(p, "\n") + 1
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d [20]byte
	i := len(d)
	for n > 0 {
		i--
		d[i] = byte('0' + n%10)
		n /= 10
	}
	return string(d[i:])
}
