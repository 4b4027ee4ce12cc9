package repl

import (
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/render"
)

// TestStylesFollowTheBackgroundAnswer: the shell draws at once, for a dark
// background, and takes the styles for the background the terminal
// reports when its answer comes (a tea.BackgroundColorMsg): no global, no
// wait for the answer before the first prompt. Without colour, styles stay
// plain whatever the answer.
func TestStylesFollowTheBackgroundAnswer(t *testing.T) {
	cfg, _ := testConfig(t)
	cfg.Styles = render.DefaultStyles(true)
	var m tea.Model = New(cfg)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	dark := m.(*Model).View().Content
	if !strings.Contains(dark, "38;5;75") { // the prompt's blue on a dark background
		t.Fatalf("first frame not drawn for a dark background: %q", dark)
	}
	m, _ = m.Update(tea.BackgroundColorMsg{Color: color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}})
	light := m.(*Model).View().Content
	if !strings.Contains(light, "38;5;33") || strings.Contains(light, "38;5;75") {
		t.Fatalf("not restyled for a light background: %q", light)
	}

	cfg.Styles, cfg.NoColor = render.PlainStyles(), true
	m = New(cfg)
	m, _ = m.Update(tea.BackgroundColorMsg{Color: color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}})
	if v := m.(*Model).View().Content; strings.Contains(v, "\x1b[") {
		t.Fatalf("--no-color drew escape codes after the answer: %q", v)
	}
}

// TestModeReportTurnsGraphemesOn: a terminal that reports mode 2027 gets
// it turned on (through Painted, an op of the update) and the panel counts
// by grapheme; a terminal that does not know it changes nothing.
func TestModeReportTurnsGraphemesOn(t *testing.T) {
	cfg, _ := testConfig(t)
	cfg.Styles.Anchored = true
	m := New(cfg)
	next, _ := m.Update(tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeNotRecognized})
	if nm := next.(*Model); nm.styles.Graphemes || len(nm.out) != 0 {
		t.Fatalf("an unknown mode changed the styles or asked the terminal: %+v", nm.out)
	}
	next, _ = m.Update(tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeReset})
	nm := next.(*Model)
	if !nm.styles.Graphemes || !nm.styles.Anchored {
		t.Fatalf("styles after the report: graphemes %v, anchored %v", nm.styles.Graphemes, nm.styles.Anchored)
	}
	if len(nm.out) != 1 || !nm.out[0].graphemes {
		t.Fatalf("the mode was not turned on: %+v", nm.out)
	}
}
