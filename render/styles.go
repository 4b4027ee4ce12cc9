package render

import (
	"io"

	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
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

	// The styles of the task box reduced to escape codes (see paint); set
	// by DefaultStyles.
	border, title, count, done, active, pending paint
}

var (
	colorGray   = lipgloss.AdaptiveColor{Light: "245", Dark: "243"}
	colorDim    = lipgloss.AdaptiveColor{Light: "250", Dark: "240"}
	colorYellow = lipgloss.AdaptiveColor{Light: "136", Dark: "220"}
	colorRed    = lipgloss.AdaptiveColor{Light: "160", Dark: "203"}
	colorBlue   = lipgloss.AdaptiveColor{Light: "33", Dark: "75"}
	colorOrange = lipgloss.AdaptiveColor{Light: "166", Dark: "214"}
)

// DefaultStyles returns todo-shell's styles drawn by r (nil means
// lipgloss's default renderer). With a renderer whose color profile is ASCII
// they produce no escape codes at all.
func DefaultStyles(r *lipgloss.Renderer) Styles {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	s := Styles{
		Border:  r.NewStyle().Foreground(colorGray),
		Title:   r.NewStyle().Bold(true),
		Count:   r.NewStyle().Foreground(colorGray),
		Done:    r.NewStyle().Foreground(colorGray).Faint(true),
		Active:  r.NewStyle().Foreground(colorYellow).Bold(true),
		Pending: r.NewStyle().Foreground(colorDim),
		Dim:     r.NewStyle().Foreground(colorGray).Faint(true),
		Error:   r.NewStyle().Foreground(colorRed),
		Warning: r.NewStyle().Foreground(colorOrange),
		Prompt:  r.NewStyle().Foreground(colorBlue).Bold(true),
		Accent:  r.NewStyle().Foreground(colorOrange),
	}
	s.prepare()
	return s
}

// PlainStyles returns styles that draw no escape codes: for NO_COLOR, pipes
// and golden files.
func PlainStyles() Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	// Set, so that nothing asks the terminal: with no colours the
	// background cannot matter.
	r.SetHasDarkBackground(true)
	return DefaultStyles(r)
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
