package repl

import (
	tea "charm.land/bubbletea/v2"
)

// TeaRendered runs the shell's Model with Bubble Tea v2's own renderer
// (inline, the scrollback written with tea.Println, a clear with
// tea.ClearScreen) instead of the painter: the alternative the painter was
// measured against (docs/BENCHMARKS.md, "The renderer"). Only a binary
// built with -tags tearenderer runs it.
type TeaRendered struct{ m *Model }

var _ tea.Model = (*TeaRendered)(nil)

// NewTeaRendered returns m drawn by Bubble Tea's renderer.
func NewTeaRendered(m *Model) *TeaRendered { return &TeaRendered{m: m} }

// Model is the shell's model as it is now.
func (s *TeaRendered) Model() *Model { return s.m }

// Init starts the model.
func (s *TeaRendered) Init() tea.Cmd { return s.m.Init() }

// Update runs the model's Update and turns what it printed and cleared into
// Bubble Tea's commands, in order.
func (s *TeaRendered) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := s.m.Update(msg)
	ops, nm := next.(*Model).takeOutput()
	s.m = nm
	var cmds []tea.Cmd
	for _, op := range ops {
		switch {
		case op.clear:
			cmds = append(cmds, tea.ClearScreen)
		case op.text != "":
			cmds = append(cmds, tea.Println(op.text))
		}
	}
	return s, tea.Sequence(append(cmds, cmd)...)
}

// View is the live area with its cursor, for Bubble Tea's renderer.
func (s *TeaRendered) View() tea.View { return s.m.View() }
