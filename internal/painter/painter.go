// Package painter is todo-shell's one terminal painter: everything that
// draws on a terminal — the shell, `watch` and `replay` — draws through it.
// A Painter keeps a live area at the bottom of the terminal (the task
// panel, the running command, the prompt) and prints lines into the
// scrollback above it, redrawing only when something changed; Terminal
// sets the terminal up (raw mode, bracketed paste, the cursor, the
// alternate screen) and reports its size; Decode turns the keys of the
// viewers into Keys.
//
// It knows bytes and escape codes, not what it draws: views are strings
// built elsewhere.
package painter

import (
	"io"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// Painter draws inline in a terminal, redrawing only when there is
// something new: a changed view, lines to print above it, a clear, a new
// size. Bubble Tea v1's own renderer redraws on a ticker at its frame rate
// even when nothing changed, which keeps a still shell busy; a Painter
// sleeps instead, so a shell at its prompt costs no CPU.
//
// It draws nothing until it knows the terminal's size (SetSize): a first
// frame drawn for a guessed size leaves debris in the scrollback.
//
// Writes to the terminal happen in the Painter's own goroutine (or in
// Flush); its other methods only record what to draw and never block on
// the terminal.
type Painter struct {
	out  io.Writer
	size func() (width, rows int, err error) // the terminal's size now; nil: SetSize's

	mu      sync.Mutex
	view    string
	cursor  *Cursor
	printed []string
	clear   bool
	width   int
	rows    int
	spare   int // rows the live area leaves free (SetSpare)
	held    int // Batch calls in progress: nothing is drawn

	wake    chan struct{}
	done    chan struct{}
	stopped chan struct{}

	// drawMu is held while drawing, and by Suspend while another program
	// has the terminal.
	drawMu sync.Mutex

	// Owned by whoever holds drawMu. The park point is column 0 of the
	// first of pad blank rows, above the live area drawn last; the cursor
	// is there, or at the insertion point (at) when the view has one.
	pad       int               // blank rows above the live area (see flush)
	last      string            // the view drawn last
	lastCur   *Cursor           // its cursor
	lastLines []int             // the widths of its lines as drawn
	prep      map[string]string // fit's results for the view drawn last
	lastWidth int               // the width it was drawn at
	lastTerm  int               // the terminal's width then
	lastRows  int               // the terminal's height then
	at        *Cursor           // where the cursor was left: rows under the park point, column
}

// Cursor is a place in the live area: column X of row Y (0 is the first
// row of the view).
type Cursor struct{ X, Y int }

// New returns a Painter drawing to out. size, when not nil, reads the
// terminal's size at the moment of drawing (Terminal.Size): between a
// resize and the SetSize that follows it, a view made for the old width
// is cut to the new one. Call Start, and Stop when done.
func New(out io.Writer, size func() (width, rows int, err error)) *Painter {
	return &Painter{out: out, size: size, spare: 2, wake: make(chan struct{}, 1), done: make(chan struct{}), stopped: make(chan struct{})}
}

// SetSpare sets how many rows under the terminal's height the live area
// keeps free: 2 unless set (inline, they keep the prompt's row and the
// one the terminal scrolls into clear). A view on the alternate screen,
// with no scrollback to keep, takes every row: 0.
func (p *Painter) SetSpare(rows int) {
	p.mu.Lock()
	p.spare = max(rows, 0)
	p.mu.Unlock()
	p.poke()
}

// Output is where the painter draws.
func (p *Painter) Output() io.Writer { return p.out }

// Start starts drawing.
func (p *Painter) Start() { go p.run() }

// Stop draws what is pending and stops, leaving the terminal's auto-wrap
// on and the cursor at the start of the row under the live area (where it
// is when the live area is empty).
func (p *Painter) Stop() {
	close(p.done)
	<-p.stopped
	p.drawMu.Lock()
	defer p.drawMu.Unlock()
	s := p.toPark(p.termWidth()) + ansi.SetModeAutoWrap
	if p.last != "" {
		if down := p.pad + len(p.lastLines) - 1; down > 0 {
			s += ansi.CursorDown(down)
		}
		s += "\r\n"
	}
	p.at = nil
	p.write(s)
}

// termWidth is the terminal's width now, as far as known.
func (p *Painter) termWidth() int {
	if p.size != nil {
		if w, _, err := p.size(); err == nil && w > 0 {
			return w
		}
	}
	return p.lastTerm
}

// toPark is what brings the cursor from where the last frame left it back
// to the park point, on a terminal width cells wide now. A terminal made
// narrower since has split the rows of the live area wider than that
// (tmux, xterm.js, VTE, kitty and iTerm2 rewrap on a resize, the cursor
// with its line): the rows to climb are counted at the new width, from the
// widths the rows were drawn at.
func (p *Painter) toPark(width int) string {
	at := p.at
	if at == nil {
		return ""
	}
	rows := at.Y
	if width > 0 && width < p.lastTerm {
		row := at.Y - p.pad // the cursor's row in the live area
		for i := 0; i < row && i < len(p.lastLines); i++ {
			rows += rowsAt(p.lastLines[i], width) - 1
		}
		rows += at.X / width
	}
	s := "\r"
	if rows > 0 {
		s += ansi.CursorUp(rows)
	}
	return s
}

// SetView records the live area to show, and where the terminal's cursor
// goes in it (shown there, in the terminal's own style); nil hides it.
func (p *Painter) SetView(view string, cursor *Cursor) {
	p.mu.Lock()
	changed := view != p.view || !sameCursor(cursor, p.cursor)
	p.view, p.cursor = view, cursor
	p.mu.Unlock()
	if changed {
		p.poke()
	}
}

func sameCursor(a, b *Cursor) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// SetSize records the terminal's size the view was made for. Lines of the
// live area are cut one column short of the width, and the live area
// keeps to the height minus two rows (its top rows are left out; see
// SetSpare).
func (p *Painter) SetSize(width, rows int) {
	p.mu.Lock()
	changed := width != p.width || rows != p.rows
	p.width, p.rows = width, rows
	p.mu.Unlock()
	if changed {
		p.poke()
	}
}

// Print records text to print above the live area, into the scrollback.
func (p *Painter) Print(text string) {
	p.mu.Lock()
	p.printed = append(p.printed, strings.Split(text, "\n")...)
	p.mu.Unlock()
	p.poke()
}

// Clear records a request to clear the screen.
func (p *Painter) Clear() {
	p.mu.Lock()
	p.clear = true
	p.mu.Unlock()
	p.poke()
}

// Batch runs f, and draws what its calls (Print, Clear, SetView,
// SetSize) record together: no frame shows some of them without the
// others — lines printed under the live area they were taken from, say
// (a command's output printed while its running view, that showed the
// same lines, is still drawn). It never waits for the terminal.
func (p *Painter) Batch(f func()) {
	p.mu.Lock()
	p.held++
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.held--
		p.mu.Unlock()
		p.poke()
	}()
	f()
}

func (p *Painter) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Frame is the shortest time between two draws: changes that come faster
// (a command streaming output) are drawn at most 60 times a second.
const Frame = time.Second / 60

func (p *Painter) run() {
	defer close(p.stopped)
	var last time.Time
	for {
		select {
		case <-p.wake:
			if wait := Frame - time.Since(last); wait > 0 {
				timer := time.NewTimer(wait)
				select {
				case <-timer.C:
				case <-p.done:
					timer.Stop()
				}
			}
			p.Flush()
			last = time.Now()
		case <-p.done:
			p.flush(true)
			return
		}
	}
}

// Flush draws what is pending now, in the caller's goroutine.
func (p *Painter) Flush() { p.flush(false) }

func (p *Painter) write(s string) {
	_, _ = io.WriteString(p.out, s) // a terminal that went away: nothing to tell
}

// frameState is what one draw brings to the terminal.
type frameState struct {
	view      string
	cursor    *Cursor
	printed   []string
	clear     bool
	width     int // the width to draw at
	termWidth int // the terminal's width now
	rows      int
	spare     int
}

// take takes what is pending; ok is false while the size is unknown
// (final: when stopping, printed lines go out all the same).
func (p *Painter) take(final bool) (f frameState, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if (p.width <= 0 || p.held > 0) && !final {
		return f, false
	}
	f = frameState{view: p.view, cursor: p.cursor, printed: p.printed, clear: p.clear, width: p.width, rows: p.rows, spare: p.spare}
	p.printed, p.clear = nil, false
	if p.width <= 0 {
		f.view = "" // never sized: only the printed lines
	}
	return f, true
}

// flush brings the terminal up to date in one write. The live area is
// drawn with the terminal's auto-wrap off (and turned back on at the end
// of the same write): a line the terminal finds wider than measured — an
// emoji with a skin tone, a Devanagari cluster — is clipped rather than
// wrapped, so each line of the live area takes exactly one row.
//
// Each frame is drawn from the park point, column 0 of the live area's
// first row, and ends with the terminal's own cursor shown at the view's
// insertion point (issue 29, item 4: input methods and screen readers
// follow it; without one the cursor stays hidden at the park point). The
// next frame climbs back to the park point first (toPark). A terminal that
// reflows its screen on a resize (tmux, xterm.js, VTE, kitty, iTerm2)
// moves the cursor with its line, and tells the program the new size only
// later: the rows to climb are counted at the width the terminal has now
// (read at the moment of drawing), from the widths the rows were drawn
// at, so a narrower window's split rows are climbed too. From the park
// point everything down is the live area, and erasing below erases it
// all, however the terminal rewrapped it. Any change of size redraws, a
// change of height alone too (a shorter terminal may have cut rows under
// the cursor).
//
// A terminal made narrower splits the live area's wide rows and, keeping
// the bottom of its screen in place, pushes everything above them up,
// the live area's first row with it; redrawn at the new width, the live
// area needs fewer rows, and the rows it gave back would be left under it.
// tmux counts blank rows under the cursor as part of the screen, so each
// narrower window would push the live area further up, until a reflow
// pushed its first rows off the top, beyond any program's reach (issue
// 16, item 12). The rows given back are kept instead, as blank rows above
// the live area (pad): the live area ends on the row it ended on before.
// Printed lines and a taller live area take those rows first.
//
// Printed lines go above the live area with auto-wrap on and no line
// breaks of the painter's: the terminal wraps a long line itself, so it
// reflows on a resize and copies as one line.
func (p *Painter) flush(final bool) {
	p.drawMu.Lock()
	defer p.drawMu.Unlock()
	f, ok := p.take(final)
	if !ok {
		return
	}
	f.termWidth = f.width
	if p.size != nil {
		if w, h, err := p.size(); err == nil && w > 0 && h > 0 {
			// The terminal may have been resized since the view was made:
			// cut at the size it has now.
			f.termWidth, f.width, f.rows = w, min(f.width, w), h
		}
	}
	if f.view == p.last && len(f.printed) == 0 && !f.clear && f.width == p.lastWidth &&
		sameCursor(f.cursor, p.lastCur) && f.termWidth == p.lastTerm && f.rows == p.lastRows {
		return // nothing new; any change of size redraws (a terminal that got shorter may have cut the live area)
	}
	var b strings.Builder
	if p.at != nil {
		b.WriteString(ansi.HideCursor) // shown again at the insertion point
	}
	b.WriteString(p.toPark(f.termWidth))
	p.at = nil
	pad := p.pad
	if f.clear {
		b.WriteString(ansi.EraseEntireScreen + ansi.CursorHomePosition)
		pad = 0
	} else {
		b.WriteString(eraseBelow)
		pad += p.splitRows(f.termWidth)
	}
	for _, line := range f.printed {
		b.WriteString(line)
		b.WriteString("\r\n")
		pad -= rowsAt(ansi.StringWidth(line), f.termWidth)
	}
	p.drawView(&b, f, pad)
	p.lastTerm, p.lastRows, p.lastCur = f.termWidth, f.rows, f.cursor
	p.write(b.String())
}

// splitRows is how many rows the terminal added to the live area drawn
// last when it rewrapped it at width: it splits lines wider than that.
func (p *Painter) splitRows(width int) int {
	if width <= 0 || width >= p.lastTerm {
		return 0
	}
	n := 0
	for _, w := range p.lastLines {
		n += rowsAt(w, width) - 1
	}
	return n
}

// rowsAt is how many rows a line w cells wide takes on a terminal width
// cells wide that wraps it.
func rowsAt(w, width int) int {
	if width <= 0 {
		return 1
	}
	return max(1, (w+width-1)/width)
}

// eraseBelow erases from the cursor's row (the live area's first) to the
// bottom of the screen, leaving the cursor at its column 0. It never
// erases below from the top left corner: tmux (scroll-on-clear) takes that
// for a clear screen and pushes the rows into the scrollback, so once the
// live area reached the top of the window — after Ctrl+L, or in a new
// window — every redraw would leave a copy of it behind. The row is
// erased whole first, then everything from its second column on.
const eraseBelow = "\r" + ansi.EraseEntireLine + "\x1b[C" + ansi.EraseScreenBelow + "\r"

// drawView draws pad blank rows (fewer if the live area grew, none below
// zero, never so many that they and the live area overflow the screen)
// and the live area under them, from the cursor's row down, and parks the
// cursor at column 0 of the first.
//
// The live area is drawn from its last line up: the cursor goes down over
// the blank rows first, then draws each line and climbs one row. A
// terminal may take a resize in the middle of a frame (tmux reads a busy
// terminal's output in chunks); the rows it then rewraps are the ones
// already drawn, below the cursor, and the rows still to climb are blank
// ones it leaves as they are: the cursor still ends on the first row.
// Each line ends with its styles reset.
func (p *Painter) drawView(b *strings.Builder, f frameState, pad int) {
	lines := strings.Split(f.view, "\n")
	cut := 0 // lines left out at the top
	if f.rows > 0 && len(lines) > max(f.rows-f.spare, 1) {
		cut = len(lines) - max(f.rows-f.spare, 1)
		lines = lines[cut:]
	}
	if grew := len(lines) - len(p.lastLines); grew > 0 && p.lastLines != nil {
		pad -= grew
	}
	if f.rows > 0 {
		pad = min(pad, f.rows-len(lines))
	}
	pad = max(pad, 0)
	prep := make(map[string]string, len(lines))
	widths := make([]int, len(lines))
	for i := range lines {
		lines[i] = p.fit(lines[i], f.width, prep)
		widths[i] = ansi.StringWidth(lines[i])
	}
	b.WriteString(strings.Repeat("\r\n", pad+len(lines)-1))
	b.WriteString(ansi.ResetModeAutoWrap)
	for i := len(lines) - 1; i >= 0; i-- {
		b.WriteString(lines[i])
		if strings.IndexByte(lines[i], 0x1b) >= 0 {
			b.WriteString(ansi.ResetStyle)
		}
		b.WriteByte('\r')
		if i > 0 {
			b.WriteString(ansi.CUU1)
		}
	}
	if pad > 0 {
		b.WriteString(ansi.CursorUp(pad))
	}
	b.WriteString(ansi.SetModeAutoWrap)
	p.pad, p.last, p.lastLines, p.lastWidth, p.prep = pad, f.view, widths, f.width, prep
	if c := f.cursor; c != nil && c.Y-cut >= 0 && c.Y-cut < len(lines) {
		// The terminal's own cursor at the insertion point, shown: input
		// methods and screen readers follow it, and it shows in every
		// mode, without colour too.
		at := &Cursor{X: max(min(c.X, f.width-1), 0), Y: pad + c.Y - cut}
		if at.Y > 0 {
			b.WriteString(ansi.CursorDown(at.Y))
		}
		if at.X > 0 {
			b.WriteString(ansi.CursorForward(at.X))
		}
		b.WriteString(ansi.ShowCursor)
		p.at = at
	}
}

// fit prepares a line of the live area for a terminal width cells wide:
// trailing blanks only make rewrapping worse, so they go (unstyled ones
// only: a styled blank may be the input's cursor), and the line keeps a
// one-column margin. Lines of the last draw at the same width are taken
// from it (most rows of a redraw are unchanged); each result is recorded
// in next.
func (p *Painter) fit(line string, width int, next map[string]string) string {
	if out, ok := p.prep[line]; ok && width == p.lastWidth {
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

// Suspend draws the printed lines pending, erases the live area and stops
// drawing until Resume, so that another program can use the terminal.
func (p *Painter) Suspend() {
	p.drawMu.Lock()
	p.mu.Lock()
	printed := p.printed
	p.printed = nil
	p.mu.Unlock()
	var b strings.Builder
	b.WriteString(p.toPark(p.termWidth()))
	b.WriteString(eraseBelow) // the cursor is on the live area's first row
	for _, line := range printed {
		b.WriteString(line)
		b.WriteString("\r\n")
	}
	p.write(b.String())
	// Nothing of the live area is left on the terminal; the next draw
	// starts on the cursor's row, below the other program's output.
	p.pad, p.last, p.lastLines, p.at, p.lastCur = 0, "", nil, nil, nil
}

// Resume starts drawing again, below whatever the other program left.
func (p *Painter) Resume() {
	p.drawMu.Unlock()
	p.poke()
}
