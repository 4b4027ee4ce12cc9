package repl

import (
	"io"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// Screen draws the shell inline in a terminal, redrawing only when there is
// something new: a changed view, lines to print above it, a clear. Bubble
// Tea v1's own renderer redraws on a ticker at its frame rate even when
// nothing changed, which keeps a still shell busy; Screen sleeps instead, so
// a shell at its prompt costs no CPU. It does only what an inline REPL
// needs: the live area at the bottom, printed lines scrolling above it.
//
// Writes to the terminal happen in Screen's own goroutine; its methods only
// record what to draw and never block on the terminal.
type Screen struct {
	out io.Writer

	mu      sync.Mutex
	view    string
	printed []string
	clear   bool
	width   int
	rows    int

	wake    chan struct{}
	done    chan struct{}
	stopped chan struct{}

	// drawMu is held while drawing, and by Suspend while another program
	// has the terminal (see handover.go).
	drawMu sync.Mutex

	// Owned by the drawing goroutine.
	height    int               // rows of the live area on the terminal
	last      string            // the view drawn last
	lastLines []string          // its lines as drawn
	prep      map[string]string // fit's results for the view drawn last
	lastWidth int               // the width it was drawn at
}

// NewScreen returns a Screen drawing to out. Call Start, and Stop when done.
func NewScreen(out io.Writer) *Screen {
	return &Screen{out: out, wake: make(chan struct{}, 1), done: make(chan struct{}), stopped: make(chan struct{})}
}

// Start starts drawing.
func (s *Screen) Start() { go s.run() }

// Stop draws what is pending and stops, leaving the terminal's auto-wrap on.
func (s *Screen) Stop() {
	close(s.done)
	<-s.stopped
	_, _ = io.WriteString(s.out, ansi.SetModeAutoWrap) // the terminal: nothing to do when a write fails
}

// SetView records the live area to show.
func (s *Screen) SetView(view string) {
	s.mu.Lock()
	changed := view != s.view
	s.view = view
	s.mu.Unlock()
	if changed {
		s.poke()
	}
}

// SetSize records the terminal's size. Lines of the live area are cut one
// column short of the width, and the live area keeps to the height minus
// two rows (its top rows are left out).
func (s *Screen) SetSize(width, rows int) {
	s.mu.Lock()
	changed := width != s.width || rows != s.rows
	s.width, s.rows = width, rows
	s.mu.Unlock()
	if changed {
		s.poke()
	}
}

// Print records text to print above the live area, into the scrollback.
func (s *Screen) Print(text string) {
	s.mu.Lock()
	s.printed = append(s.printed, strings.Split(text, "\n")...)
	s.mu.Unlock()
	s.poke()
}

// Clear records a request to clear the screen.
func (s *Screen) Clear() {
	s.mu.Lock()
	s.clear = true
	s.mu.Unlock()
	s.poke()
}

func (s *Screen) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// frame is the shortest time between two draws: changes that come faster
// (a command streaming output) are drawn at most 60 times a second.
const frame = time.Second / 60

func (s *Screen) run() {
	defer close(s.stopped)
	var last time.Time
	for {
		select {
		case <-s.wake:
			if wait := frame - time.Since(last); wait > 0 {
				select {
				case <-time.After(wait):
				case <-s.done:
				}
			}
			s.draw()
			last = time.Now()
		case <-s.done:
			s.draw()
			return
		}
	}
}

// draw brings the terminal up to date in one write. The live area is drawn
// with the terminal's auto-wrap off (and turned back on at the end of the
// same write): a line the terminal finds wider than measured — an emoji
// with a skin tone, a Devanagari cluster — is clipped rather than wrapped,
// so the live area keeps exactly the rows counted and each redraw erases
// all of it.
//
// The old live area's rows are erased one by one (EL 2), never with "erase
// below": tmux (scroll-on-clear) takes an erase below from the top left
// corner for a clear screen and pushes the rows into the scrollback, so
// once the live area reached the top of the window — after Ctrl+L, or in a
// new window — every redraw left a copy of it behind.
func (s *Screen) draw() {
	s.drawMu.Lock()
	defer s.drawMu.Unlock()
	s.mu.Lock()
	view, printed, wipe, width, rows := s.view, s.printed, s.clear, s.width, s.rows
	s.printed, s.clear = nil, false
	s.mu.Unlock()
	if view == s.last && len(printed) == 0 && !wipe && width == s.lastWidth {
		return
	}
	height := s.height // rows the live area takes on the terminal now
	if width > 0 && s.lastWidth > width {
		// The terminal got narrower and rewrapped (tmux, most emulators)
		// what was drawn: each old line now takes as many rows as it needs
		// at the new width.
		height = 0
		for _, line := range s.lastLines {
			height += max(1, (ansi.StringWidth(line)+width-1)/width)
		}
	}
	if rows > 0 {
		height = min(height, rows) // the rest went into the scrollback
	}
	height = max(height, 1) // at least the cursor's row
	var b strings.Builder
	// Back to the first row of the live area, and erase its rows.
	b.WriteByte('\r')
	if height > 1 {
		b.WriteString(ansi.CursorUp(height - 1))
	}
	if wipe {
		b.WriteString(ansi.EraseEntireScreen + ansi.CursorHomePosition)
		height = 0
	}
	for i := range height {
		b.WriteString(ansi.EraseEntireLine)
		if i < height-1 {
			b.WriteString(ansi.CUD1) // never scrolls
		}
	}
	if height > 1 {
		b.WriteString(ansi.CursorUp(height - 1))
	}
	for _, line := range printed {
		b.WriteString(line)
		b.WriteString("\r\n")
	}
	lines := strings.Split(view, "\n")
	if rows > 0 && len(lines) > max(rows-2, 1) {
		lines = lines[len(lines)-max(rows-2, 1):]
	}
	b.WriteString(ansi.ResetModeAutoWrap)
	prep := make(map[string]string, len(lines))
	for i := range lines {
		lines[i] = s.fit(lines[i], width, prep)
		b.WriteString(lines[i])
		if i < len(lines)-1 {
			b.WriteString("\r\n")
		}
	}
	b.WriteString(ansi.SetModeAutoWrap)
	s.height, s.last, s.lastLines, s.lastWidth, s.prep = len(lines), view, lines, width, prep
	_, _ = io.WriteString(s.out, b.String())
}

// fit prepares a line of the live area for a terminal width cells wide:
// trailing blanks only make rewrapping worse, so they go (unstyled ones
// only: a styled blank may be the input's cursor), and the line keeps a
// one-column margin. Lines of the
// last draw at the same width are taken from it (most rows of a redraw are
// unchanged); each result is recorded in next.
func (s *Screen) fit(line string, width int, next map[string]string) string {
	if out, ok := s.prep[line]; ok && width == s.lastWidth {
		next[line] = out
		return out
	}
	in := line
	line = strings.TrimRight(line, " ")
	if width > 1 && ansi.StringWidth(line) > width-1 {
		line = ansi.Truncate(line, width-1, "")
	}
	next[in] = line
	return line
}
