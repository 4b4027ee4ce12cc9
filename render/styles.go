package render

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"
)

// Styles holds every style todo-shell draws with. Colors are declared once,
// here.
type Styles struct {
	Border  lipgloss.Style // the task box's frame
	Title   lipgloss.Style // "Tasks"
	Count   lipgloss.Style // "done/total"
	Done    lipgloss.Style // ✓ completed rows
	Active  lipgloss.Style // ● the in-progress row
	Pending lipgloss.Style // ○ pending rows
	Dim     lipgloss.Style // previews, hints
	Error   lipgloss.Style // stderr text
	Warning lipgloss.Style
	Prompt  lipgloss.Style
	Accent  lipgloss.Style // spinner, pointers

	// Anchored is set where the panel is drawn on a terminal: a row
	// whose width terminals disagree on (an emoji sequence, a spacing
	// mark) has its right border drawn at the border's column, however
	// wide the terminal drew the text (see cells.go). Off (pipes, files),
	// rows are padded by grapheme width and hold no escape sequence.
	Anchored bool
	// Graphemes is set where the terminal measures text by grapheme
	// cluster (mode 2027), as ansi.StringWidth does: the count is exact,
	// and no row needs its border anchored.
	Graphemes bool

	// The styles of the task box reduced to escape codes (see paint); set
	// by DefaultStyles.
	border, title, count, done, active, pending paint
}

// colors are todo-shell's colours, for a light and for a dark background
// (ANSI 256-colour indexes).
type colors struct{ gray, dim, yellow, red, blue, orange color.Color }

func colorsFor(dark bool) colors {
	c := lipgloss.LightDark(dark)
	return colors{
		gray:   c(lipgloss.Color("245"), lipgloss.Color("243")),
		dim:    c(lipgloss.Color("250"), lipgloss.Color("240")),
		yellow: c(lipgloss.Color("136"), lipgloss.Color("220")),
		red:    c(lipgloss.Color("160"), lipgloss.Color("203")),
		blue:   c(lipgloss.Color("33"), lipgloss.Color("75")),
		orange: c(lipgloss.Color("166"), lipgloss.Color("214")),
	}
}

// DefaultStyles returns todo-shell's styles for a dark background (dark)
// or a light one. The colours are ANSI 256-colour indexes; on a terminal
// with fewer, the front end's writer brings them down (colorprofile).
func DefaultStyles(dark bool) Styles {
	c := colorsFor(dark)
	n := lipgloss.NewStyle
	s := Styles{
		Border:  n().Foreground(c.gray),
		Title:   n().Bold(true),
		Count:   n().Foreground(c.gray),
		Done:    n().Foreground(c.gray).Faint(true),
		Active:  n().Foreground(c.yellow).Bold(true),
		Pending: n().Foreground(c.dim),
		Dim:     n().Foreground(c.gray).Faint(true),
		Error:   n().Foreground(c.red),
		Warning: n().Foreground(c.orange),
		Prompt:  n().Foreground(c.blue).Bold(true),
		Accent:  n().Foreground(c.orange),
	}
	s.prepare()
	return s
}

// PlainStyles returns styles that draw no escape codes: for NO_COLOR,
// --no-color, pipes and golden files.
func PlainStyles() Styles {
	n := lipgloss.NewStyle
	s := Styles{
		Border: n(), Title: n(), Count: n(), Done: n(), Active: n(), Pending: n(),
		Dim: n(), Error: n(), Warning: n(), Prompt: n(), Accent: n(),
	}
	s.prepare()
	return s
}

// StylesFor is PlainStyles without colour, else DefaultStyles(dark).
func StylesFor(noColor, dark bool) Styles {
	if noColor {
		return PlainStyles()
	}
	return DefaultStyles(dark)
}

// paint is a style reduced to the escape codes it opens and closes with, so
// that drawing many short rows costs string concatenation, not a lipgloss
// render each.
type paint struct{ open, close string }

func (p paint) apply(s string) string {
	if p.open == "" {
		return s
	}
	return p.open + s + p.close
}

func (s *Styles) prepare() {
	s.border, s.title, s.count = paintOf(s.Border), paintOf(s.Title), paintOf(s.Count)
	s.done, s.active, s.pending = paintOf(s.Done), paintOf(s.Active), paintOf(s.Pending)
}

// paintOf reduces a style to the codes it writes around a piece of text.
func paintOf(st lipgloss.Style) paint {
	const mark = "\x00"
	out := st.Render(mark)
	if i := strings.Index(out, mark); i >= 0 {
		return paint{open: out[:i], close: out[i+len(mark):]}
	}
	return paint{}
}

// StyleLines renders each line of text in st on its own. Style.Render
// makes a block of several lines a rectangle, each line padded with
// spaces to the widest: printed into the scrollback, a line of it wider
// than the window wraps and its padding wraps onto rows of their own,
// blank lines between the lines of an error message (issue 29, item 17),
// which vanish again when the window is made wider.
func StyleLines(st lipgloss.Style, text string) string {
	if strings.IndexByte(text, '\n') < 0 {
		return st.Render(text)
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = st.Render(l)
		}
	}
	return strings.Join(lines, "\n")
}
