package repl

import (
	"time"

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
	m    Model
	p    *painter.Painter
	gate *typingGate
}

var _ tea.Model = Painted{}

// NewPainted returns m drawn by m's Config.Painter.
func NewPainted(m Model) Painted {
	return Painted{m: m, p: m.cfg.Painter, gate: &typingGate{}}
}

// Model is the shell's model as it is now.
func (s Painted) Model() Model { return s.m }

// Init starts the model.
func (s Painted) Init() tea.Cmd { return s.m.Init() }

// Update runs the model's Update and draws what it asks for.
func (s Painted) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := s.m.Update(msg)
	ops, nm := next.(Model).takeOutput()
	s.m = nm
	for _, op := range ops {
		if op.clear {
			s.p.Clear()
		} else {
			s.p.Print(op.text)
		}
	}
	if ws, ok := msg.(tea.WindowSizeMsg); ok && ws.Width > 0 && ws.Height > 0 {
		s.p.SetSize(ws.Width, ws.Height)
	}
	if len(ops) == 0 && s.gate.wait(msg, nm.quitting) {
		return s, tea.Batch(cmd, s.gate.redraw())
	}
	s.draw()
	return s, cmd
}

// draw hands the painter the live area.
func (s Painted) draw() {
	v := s.m.View()
	var cur *painter.Cursor
	if v.Cursor != nil {
		cur = &painter.Cursor{X: v.Cursor.X, Y: v.Cursor.Y}
	}
	s.p.SetView(v.Content, cur)
}

// View is empty: the painter draws (the program runs without a renderer).
func (s Painted) View() tea.View { return tea.View{} }

// typingGate spreads the drawing of text arriving in bursts: text that
// arrives in one read without bracketed paste (a paste in a terminal that
// does not mark them, fast typing over ssh) comes as one message per
// character, and drawing the input after each of thousands of them costs
// more than the text itself. Text arriving within a frame of the last draw
// is drawn once, a frame later. It is shared by every copy of Painted.
type typingGate struct {
	last    time.Time // the last draw
	pending bool      // a redraw is scheduled
}

type redrawMsg struct{}

// wait reports whether drawing after msg can wait for the scheduled
// redraw; when not, it records a draw now.
func (g *typingGate) wait(msg tea.Msg, quitting bool) bool {
	if _, ok := msg.(redrawMsg); ok {
		g.pending = false
	}
	k, ok := msg.(tea.KeyPressMsg)
	typed := ok && typedText(k) != "" && !quitting
	if typed && time.Since(g.last) < painter.Frame {
		return true
	}
	g.last = time.Now()
	return false
}

// redraw schedules a redraw a frame from now, once.
func (g *typingGate) redraw() tea.Cmd {
	if g.pending {
		return nil
	}
	g.pending = true
	return tea.Tick(painter.Frame, func(time.Time) tea.Msg { return redrawMsg{} })
}
