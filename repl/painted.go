package repl

import (
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/todo-shell/todo-shell/internal/painter"
)

// Painted runs the shell's Model with the painter drawing it (run the
// program with tea.WithoutRenderer). It is the one place where the shell
// writes to the terminal: after each update it hands the painter what the
// update printed and cleared (collected in the model, in order), the new
// size, and the live area with its cursor. The Model's own Update stays
// pure.
type Painted struct {
	m    *Model
	p    *painter.Painter
	gate typingGate
}

var _ tea.Model = (*Painted)(nil)

// NewPainted returns m drawn by m's Config.Painter.
func NewPainted(m *Model) *Painted {
	return &Painted{m: m, p: m.cfg.Painter}
}

// Model is the shell's model as it is now.
func (s *Painted) Model() *Model { return s.m }

// Init starts the model.
func (s *Painted) Init() tea.Cmd { return s.m.Init() }

// Update runs the model's Update and draws what it asks for.
//
// Text typed into the input within a frame of the last draw waits, a key
// at a time, and goes to the model in one message with the next message
// that is not such text (the scheduled redraw at the latest): text
// arriving in one read without bracketed paste comes as one message per
// character, and inserting each into the textarea re-wraps the whole line
// (4,500 characters took 33 s, BenchmarkTypeLongLine).
func (s *Painted) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(redrawMsg); ok {
		s.gate.pending = false
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && s.m.typesIntoInput(k) && s.gate.hold(typedText(k)) {
		return s, s.gate.redraw()
	}
	var held tea.Cmd
	if text := s.gate.release(); text != "" {
		next, cmd := s.m.Update(textKeyOf(text))
		s.m, held = next.(*Model), cmd
	}
	next, cmd := s.m.Update(msg)
	cmd = tea.Batch(held, cmd)
	ops, nm := next.(*Model).takeOutput()
	s.m = nm
	// One frame: the lines printed and the view without them (a finished
	// command's output printed while its running view, whose last lines
	// show the same, is still drawn would show them twice).
	s.p.Batch(func() {
		for _, op := range ops {
			switch {
			case op.graphemes:
				if t, ok := s.m.cfg.Terminal.(interface{ SetGraphemes() }); ok {
					t.SetGraphemes()
				}
			case op.clear:
				s.p.Clear()
			default:
				s.p.Print(op.text)
			}
		}
		if ws, ok := msg.(tea.WindowSizeMsg); ok && ws.Width > 0 && ws.Height > 0 {
			s.p.SetSize(ws.Width, ws.Height)
		}
		s.draw()
	})
	s.gate.drawn()
	return s, cmd
}

// draw hands the painter the live area.
func (s *Painted) draw() {
	v := s.m.View()
	var cur *painter.Cursor
	if v.Cursor != nil {
		cur = &painter.Cursor{X: v.Cursor.X, Y: v.Cursor.Y}
	}
	s.p.SetView(v.Content, cur)
}

// textKeyOf is a key press that types text.
func textKeyOf(text string) tea.KeyPressMsg {
	r, _ := utf8.DecodeRuneInString(text)
	return tea.KeyPressMsg{Code: r, Text: text}
}

// View is empty: the painter draws (the program runs without a renderer).
func (s *Painted) View() tea.View { return tea.View{} }

// typingGate spreads the drawing of text arriving in bursts: text that
// arrives in one read without bracketed paste (a paste in a terminal that
// does not mark them, fast typing over ssh) comes as one message per
// character, and drawing the input after each of thousands of them costs
// more than the text itself. Text arriving within a frame of the last draw
// is drawn once, a frame later. It is shared by every copy of Painted.
type typingGate struct {
	last    time.Time // the end of the last draw
	pending bool      // a redraw is scheduled
	held    []byte    // text typed since, not yet given to the model
}

type redrawMsg struct{}

// hold keeps text typed within a frame of the last draw, and reports
// whether it did.
func (g *typingGate) hold(text string) bool {
	if len(g.held) == 0 && time.Since(g.last) >= painter.Frame {
		return false
	}
	g.held = append(g.held, text...)
	return true
}

// release returns the text held, and holds none.
func (g *typingGate) release() string {
	s := string(g.held)
	g.held = g.held[:0]
	return s
}

// drawn records a draw that just ended: text arriving within a frame of
// its end waits (a draw slower than a frame would otherwise be followed by
// another at once, for each character).
func (g *typingGate) drawn() { g.last = time.Now() }

// redraw schedules a redraw a frame from now, once (a redrawMsg: like any
// message, it gives the model the text held).
func (g *typingGate) redraw() tea.Cmd {
	if g.pending {
		return nil
	}
	g.pending = true
	return tea.Tick(painter.Frame, func(time.Time) tea.Msg { return redrawMsg{} })
}
